// Pure helpers over a Builder entry (tested without the SDK).

export type Block = Record<string, unknown> & { id?: string };

/**
 * The content API adds a tracking pixel (an <img> of cdn.builder.io) to an entry's blocks, and the
 * SDK adds one when there is none. Tracking is off here: the pixel becomes an empty hidden span
 * (its id still tells the SDK that there is one).
 */
export function withoutPixel(blocks: Block[]): Block[] {
  const inert = (id: string): Block => ({
    '@type': '@builder.io/sdk:Element',
    id,
    tagName: 'span',
    properties: { 'aria-hidden': 'true' },
    responsiveStyles: { large: { display: 'none' } },
  });
  const isPixel = (b: Block) => typeof b.id === 'string' && b.id.startsWith('builder-pixel');
  const out = blocks.map((b) => (isPixel(b) ? inert(b.id as string) : b));
  return out.some(isPixel) ? out : [...out, inert('builder-pixel-off')];
}

/**
 * The blocks without their JavaScript: data bindings, `code` and event `actions` are strings the
 * SDK would evaluate with `new Function`, which the CSP refuses (no 'unsafe-eval'). Nested blocks
 * (children, columns, options such as a form's message blocks or personalization variants) too.
 */
export function withoutCode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCode);
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const isBlock = obj['@type'] === '@builder.io/sdk:Element';
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (isBlock && (k === 'bindings' || k === 'code' || k === 'actions')) continue;
    out[k] = withoutCode(v);
  }
  return out;
}

/** Spec 001 §9: a section is 1200 wide at most unless the entry says otherwise. */
export const SECTION_MAX_WIDTH = 1200;

/**
 * Builder's editor writes a section's max width (1200 by default) into the entry; one written
 * without it (by the API, an older editor) gets the same default here, since the SDK applies
 * editor defaults only in the editor.
 */
export function withSectionDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSectionDefaults);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = withSectionDefaults(v);
  const component = out.component as { name?: string; options?: Record<string, unknown> } | undefined;
  if (out['@type'] === '@builder.io/sdk:Element' && component?.name === 'Core:Section') {
    const options = component.options ?? {};
    if (options.maxWidth === undefined || options.maxWidth === null || options.maxWidth === '') {
      out.component = { ...component, options: { ...options, maxWidth: SECTION_MAX_WIDTH } };
    }
  }
  return out;
}
