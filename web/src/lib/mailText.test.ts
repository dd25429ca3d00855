import { describe, expect, it } from 'vitest';
import { decodeBase64Html, htmlToText, previewText, replySubject, textToHtml } from './mailText';

describe('mail text', () => {
  it('text becomes escaped dir=auto paragraphs, like the server', () => {
    expect(textToHtml('שלום <b>\nשורה\n\nEnglish & more\n\n\n')).toBe(
      '<p dir="auto">שלום &lt;b&gt;<br>שורה</p><p dir="auto">English &amp; more</p>',
    );
    expect(textToHtml('  \n\n ')).toBe('');
  });

  it('html goes back to the same text', () => {
    const text = 'שלום רב,\nשורה שנייה\n\nתודה, "דנה"';
    expect(htmlToText(textToHtml(text))).toBe(text);
    expect(htmlToText('<div>א</div><div>ב<br>ג</div><script>alert(1)</script><style>p{}</style>')).toBe('א\nב\nג');
    expect(htmlToText('<p>one\n   two</p><ul><li>x</li><li>y</li></ul>')).toBe('one two\n\nx\ny');
    // An editor's empty line (<div><br></div>) stays one.
    expect(htmlToText('<div>a</div><div><br></div><div>b</div>')).toBe('a\n\nb');
  });

  it('previews cut at 200 characters on one line', () => {
    const long = `<p>${'א'.repeat(250)}</p>`;
    const p = previewText(long);
    expect(Array.from(p)).toHaveLength(201);
    expect(p.endsWith('…')).toBe(true);
    expect(previewText('<p>a</p><p>b</p>')).toBe('a b');
  });

  it('decodes base64 only when valid and it holds HTML', () => {
    const html = '<p dir="auto">שלום</p>';
    const encoded = btoa(String.fromCharCode(...new TextEncoder().encode(html)));
    expect(decodeBase64Html(encoded)).toBe(html);
    expect(decodeBase64Html(btoa('plain text only'))).toBe(btoa('plain text only'));
    expect(decodeBase64Html('<p>already html</p>')).toBe('<p>already html</p>');
  });

  it('adds Re: only when missing, whatever its case', () => {
    expect(replySubject('הזמנה')).toBe('Re: הזמנה');
    expect(replySubject('RE: הזמנה')).toBe('RE: הזמנה');
    expect(replySubject('re:x')).toBe('re:x');
    expect(replySubject('Regarding')).toBe('Re: Regarding');
  });
});
