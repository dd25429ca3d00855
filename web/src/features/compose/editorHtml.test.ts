// The editor's HTML in and out, on a real Lexical editor (no DOM needed for its state): what a
// draft holds comes back unchanged, each paragraph is written with its direction, and pasted HTML
// from Word, Gmail, Google Docs or a web page is reduced to the tags the server keeps.

import { createEditor, type LexicalEditor } from 'lexical';
import { describe, expect, it } from 'vitest';
import { cleanHtml } from './cleanHtml';
import { $exportHtml, $setHtml, EDITOR_NODES } from './editorHtml';

function newEditor(): LexicalEditor {
  return createEditor({ namespace: 'test', nodes: EDITOR_NODES, onError: (e) => { throw e; } });
}

/** The HTML loaded into an editor, then written out again. */
function roundTrip(html: string, editor = newEditor()): string {
  editor.update(() => $setHtml(html), { discrete: true });
  return editor.getEditorState().read(() => $exportHtml());
}

describe('editor HTML', () => {
  it('writes each paragraph with the direction of its text', () => {
    expect(roundTrip('<p>שלום לכולם</p><p>Hello, שלום</p><p>123</p><p></p>')).toBe(
      '<p dir="rtl">שלום לכולם</p><p dir="ltr">Hello, שלום</p><p>123</p>',
    );
  });

  it('keeps a direction set by the switch when it differs from the text', () => {
    const html = '<p dir="ltr">שלום</p><p dir="rtl">Hello</p><p dir="ltr"><br></p>';
    expect(roundTrip(html)).toBe(html);
  });

  it('a draft comes back exactly as it was saved', () => {
    const saved = [
      '<p dir="rtl">שלום <b>דנה</b>, <i>מה</i> <u>נשמע</u>? <b><i>שניהם</i></b></p>',
      '<p dir="rtl" style="text-align:center">כותרת במרכז</p>',
      '<p dir="ltr" style="text-align:right">English on the right</p>',
      '<p dir="rtl" style="text-align:left">עברית משמאל</p>',
      '<p dir="ltr">See <a href="https://example.com/a?b=1&amp;c=2">the site</a> and mail <a href="mailto:office@example.test">us</a></p>',
      '<ul dir="rtl"><li>ראשון</li><li>שני<ul><li>מקונן</li></ul></li><li><br></li></ul>',
      '<ol dir="ltr"><li>one</li><li>two</li></ol>',
      '<blockquote dir="rtl">ציטוט<br>שורה שנייה</blockquote>',
      '<p><br></p>',
      '<p dir="rtl">רווחים&nbsp; כפולים&nbsp;&nbsp; ושורה<br>שבורה&nbsp;</p>',
      '<p dir="rtl">&lt;script&gt; נשאר טקסט &amp; לא קוד</p>',
    ].join('');
    const once = roundTrip(saved);
    expect(once).toBe(saved);
    expect(roundTrip(once)).toBe(once);
  });

  it('a sent mail or an IMAP draft: the server\'s document frame goes, each paragraph keeps its own direction', () => {
    const sent =
      '<!DOCTYPE html>\r\n<html dir="rtl"><head><meta charset="utf-8"></head>\r\n<body dir="rtl"><div dir="rtl" style="direction:rtl;text-align:right">' +
      '<p dir="rtl">שלום</p><p dir="ltr">Hello <a href="https://x.test" target="_blank" rel="noopener noreferrer nofollow">x</a></p><p dir="rtl" style="text-align: center">מרכז</p></div></body></html>\r\n';
    expect(roundTrip(sent)).toBe('<p dir="rtl">שלום</p><p dir="ltr">Hello <a href="https://x.test">x</a></p><p dir="rtl" style="text-align:center">מרכז</p>');
  });

  it('an unsafe link keeps its text but not the link', () => {
    expect(roundTrip('<p>לחצו <a href="javascript:alert(1)">כאן</a></p>')).toBe('<p dir="rtl">לחצו כאן</p>');
  });
});

describe('cleaning pasted HTML', () => {
  it('Word: classes, styles, o:p and list bullets go; direction, bold and alignment stay', () => {
    const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{margin:0}</style></head>
      <body lang=HE><!--StartFragment-->
      <p class=MsoNormal dir=RTL style='text-align:right;direction:rtl;unicode-bidi:embed'><b><span lang=HE style='font-family:"Arial",sans-serif'>שלום</span></b><span lang=HE> רב<o:p></o:p></span></p>
      <p class=MsoListParagraph dir=RTL style='mso-list:l0 level1 lfo1'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><span lang=HE>סעיף</span></p>
      <!--EndFragment--></body></html>`;
    // Right-aligned right-to-left is just right-to-left: no alignment is pinned.
    expect(cleanHtml(word)).toBe('<p dir="rtl"><b>שלום</b> רב</p><p dir="rtl">סעיף</p>');
  });

  it('Gmail: nested divs become paragraphs that keep the outer direction; font tags go', () => {
    const gmail =
      '<div dir="ltr"><div>Hi <font color="#ff0000">there</font>,</div><div><br></div><div>See <a href="https://x.test" target="_blank" rel="noopener">this</a></div></div>' +
      '<div class="gmail_quote"><blockquote class="gmail_quote" style="margin:0 0 0 .8ex"><div dir="rtl">שורה 1</div><div>שורה 2</div></blockquote></div>';
    expect(cleanHtml(gmail)).toBe(
      '<p dir="ltr">Hi there,</p><p dir="ltr"><br></p><p dir="ltr">See <a href="https://x.test">this</a></p><blockquote>שורה 1<br>שורה 2</blockquote>',
    );
  });

  it('Google Docs: the bold wrapper is not bold, CSS bold and italic become tags, list paragraphs become items', () => {
    const docs =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1"><p dir="rtl" style="line-height:1.38"><span style="font-weight:700">מודגש</span><span style="font-style:italic"> נטוי</span></p>' +
      '<ul><li dir="rtl"><p dir="rtl"><span>פריט</span></p></li></ul></b>';
    expect(cleanHtml(docs)).toBe('<p dir="rtl"><b>מודגש</b><i> נטוי</i></p><ul><li>פריט</li></ul>');
  });

  it('a web page: scripts, images, handlers and unknown tags go, their text stays', () => {
    const page =
      '<h2 onclick="x()">כותרת</h2><script>alert(1)</script><style>p{}</style><p>טקסט <img src="https://tracker.test/p.gif" onerror="x()"><span class="x">עם</span> <code>קוד</code></p>' +
      '<table><tr><td>תא 1</td></tr><tr><td>תא 2</td></tr></table><iframe src="https://x.test"></iframe>';
    expect(cleanHtml(page)).toBe('<p><b>כותרת</b></p><p>טקסט עם קוד</p><p>תא 1</p><p>תא 2</p>');
  });
});
