// The browser bar's colour (the `theme-color` meta tags of index.html, issue 39) follows the
// app's own dark setting, which may differ from the system theme the tags' media queries read.

const LIGHT = '#f6f8fc';
const DARK = '#131314';

export function applyThemeColor(dark: boolean, doc: Document = document): void {
  for (const meta of doc.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = dark ? DARK : LIGHT;
  }
}
