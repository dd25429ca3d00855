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
