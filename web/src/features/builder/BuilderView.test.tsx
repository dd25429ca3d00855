// The entry's stylesheets live as long as the entry is shown, and hold only its scoped rules.
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import BuilderView from './BuilderView';

const ENTRY = {
  id: 'e1',
  data: {
    cssCode: 'input[type="password"][value^="a"] { color: red; } & .title { color: blue; }',
    blocks: [
      {
        '@type': '@builder.io/sdk:Element',
        id: 'b1',
        component: { name: 'Text', options: { text: '<h1 class="title">שלום</h1>' } },
        responsiveStyles: { large: { marginTop: '20px' } },
      },
    ],
  },
};

describe('BuilderView', () => {
  afterEach(() => {
    document.adoptedStyleSheets = [];
  });

  it('adopts the entry’s scoped sheets while shown and removes them when it goes', () => {
    const appSheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [appSheet];
    const view = render(<BuilderView apiKey="k" entry={ENTRY} urlPath="/p" />);
    const container = view.getByTestId('builder-entry');
    const scope = Array.from(container.classList).find((c) => c.startsWith('bld-entry-'))!;
    const added = document.adoptedStyleSheets.filter((s) => s !== appSheet);
    expect(added.length).toBe(2);
    const rules = added.flatMap((s) => Array.from(s.cssRules).map((r) => r.cssText));
    expect(rules.some((r) => r.startsWith(`:where(.${scope}) input[type="password"]`))).toBe(true);
    expect(rules.every((r) => r.startsWith(`:where(.${scope}) `) || r.startsWith(`.${scope}`) || r.startsWith('@media'))).toBe(true);
    view.unmount();
    expect(document.adoptedStyleSheets).toEqual([appSheet]);
  });
});
