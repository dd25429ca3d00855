// Accessibility checks of a page, as Lighthouse's accessibility audit makes them where they can be
// made from the browser's own accessibility tree (CDP Accessibility.getFullAXTree): every control
// a finger or a screen reader reaches has a name, every image a text, the document a title, the
// language and direction of Hebrew, and a viewport that lets the user zoom. Returns the problems
// found (empty when none), each naming the element.

/** Roles a user acts on: each needs a name a screen reader can say. */
const CONTROLS = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'switch',
  'combobox',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'tab',
  'slider',
  'spinbutton',
]);

export async function a11yProblems(page) {
  const problems = [];
  const doc = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    title: document.title,
    viewport: document.querySelector('meta[name="viewport"]')?.content ?? '',
  }));
  if (doc.lang !== 'he') problems.push(`<html lang="${doc.lang}">, not he`);
  if (doc.dir !== 'rtl') problems.push(`<html dir="${doc.dir}">, not rtl`);
  if (!doc.title.trim()) problems.push('no document title');
  if (/user-scalable\s*=\s*(no|0)|maximum-scale\s*=\s*1(\.0)?\b/.test(doc.viewport)) problems.push(`the viewport stops zooming: ${doc.viewport}`);

  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    for (const n of nodes) {
      if (n.ignored) continue;
      const role = n.role?.value;
      const name = String(n.name?.value ?? '').trim();
      const hidden = n.properties?.some((p) => p.name === 'hidden' && p.value?.value === true);
      if (hidden) continue;
      if ((CONTROLS.has(role) || role === 'image' || role === 'img') && !name) {
        const { node } = n.backendDOMNodeId
          ? await cdp.send('DOM.describeNode', { backendNodeId: n.backendDOMNodeId })
          : { node: null };
        const attrs = node?.attributes ?? [];
        const attr = (k) => {
          const i = attrs.indexOf(k);
          return i >= 0 ? attrs[i + 1] : '';
        };
        problems.push(`a ${role} without a name: <${node?.localName ?? '?'} class="${attr('class')}" data-testid="${attr('data-testid')}">`);
      }
    }
  } finally {
    await cdp.detach();
  }
  return problems;
}
