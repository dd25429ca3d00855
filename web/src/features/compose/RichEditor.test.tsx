// The compose editor (Lexical) in jsdom: the toolbar's formats change the body's HTML and show
// their state, the direction switch works per paragraph, links accept only http(s) and mailto,
// undo/redo, the placeholder, and a paste from Word arrives cleaned. Typing itself needs a real
// browser (Lexical reads beforeinput events): e2e/editor.e2e.mjs types in Chromium.

import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { $getRoot, $isElementNode, $isTextNode, type LexicalNode } from 'lexical';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyHtml, composeServer, editor, lexical, renderCompose, typeBody } from './composeFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function ready(html: string) {
  composeServer();
  renderCompose();
  await screen.findByTestId('compose-page');
  typeBody(html);
}

function $texts(node: LexicalNode = $getRoot()): LexicalNode[] {
  if ($isTextNode(node)) return [node];
  return $isElementNode(node) ? node.getChildren().flatMap((c) => $texts(c)) : [];
}

/** Selects [start, end) of the body's `n`th text run (the caret when end is left out). */
function select(n: number, start: number, end = start) {
  act(() =>
    lexical().update(
      () => {
        const text = $texts()[n];
        if (!$isTextNode(text)) throw new Error(`no text run ${n}`);
        text.select(start, end);
      },
      { discrete: true },
    ),
  );
}

describe('editor toolbar', () => {
  it('the editor is right-to-left by default, each paragraph follows its own text', async () => {
    await ready('<p>שלום</p><p>Hello world</p>');
    expect(editor().parentElement).toHaveAttribute('dir', 'rtl');
    expect(editor()).toHaveAttribute('contenteditable', 'true');
    // In the editor: dir="auto" per paragraph; in the mail: the direction each one has.
    expect(Array.from(editor().querySelectorAll('p')).map((p) => p.getAttribute('dir'))).toEqual(['auto', 'auto']);
    expect(bodyHtml()).toBe('<p dir="rtl">שלום</p><p dir="ltr">Hello world</p>');
  });

  it('shows a placeholder while the body is empty', async () => {
    await ready('');
    const placeholder = () => document.querySelector('.editor__placeholder');
    expect(placeholder()).toHaveTextContent('כתוב כאן את ההודעה...');
    typeBody('<p>שלום</p>');
    expect(placeholder()).toBeNull();
    typeBody('<p><br></p>');
    expect(placeholder()).not.toBeNull();
  });

  it.each([
    ['fmt-bold', '<p dir="rtl"><b>שלום</b> עולם</p>'],
    ['fmt-italic', '<p dir="rtl"><i>שלום</i> עולם</p>'],
    ['fmt-underline', '<p dir="rtl"><u>שלום</u> עולם</p>'],
    ['fmt-bullets', '<ul dir="rtl"><li>שלום עולם</li></ul>'],
    ['fmt-numbers', '<ol dir="rtl"><li>שלום עולם</li></ol>'],
    ['fmt-quote', '<blockquote dir="rtl">שלום עולם</blockquote>'],
    // Right is where a right-to-left paragraph is anyway: nothing to write.
    ['fmt-align-right', '<p dir="rtl">שלום עולם</p>'],
    ['fmt-align-center', '<p dir="rtl" style="text-align:center">שלום עולם</p>'],
    ['fmt-align-left', '<p dir="rtl" style="text-align:left">שלום עולם</p>'],
  ])('%s formats the selection, shows its state, and a second press takes it off', async (testId, html) => {
    await ready('<p>שלום עולם</p>');
    select(0, 0, 4);
    const button = screen.getByTestId(testId);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(button);
    expect(bodyHtml()).toBe(html);
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(button);
    expect(bodyHtml()).toBe('<p dir="rtl">שלום עולם</p>');
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'false'));
  });

  it('the direction switch changes the current paragraph only, and back', async () => {
    await ready('<p>שלום</p><p>hello world</p>');
    const dir = screen.getByTestId('fmt-dir');

    select(0, 2);
    await waitFor(() => expect(dir).toHaveAttribute('aria-pressed', 'false'));
    await userEvent.click(dir);
    expect(bodyHtml()).toBe('<p dir="ltr">שלום</p><p dir="ltr">hello world</p>');
    const [first, second] = Array.from(editor().querySelectorAll('p'));
    expect(first).toHaveAttribute('dir', 'ltr');
    expect(second).toHaveAttribute('dir', 'auto');
    expect(editor().parentElement).toHaveAttribute('dir', 'rtl');
    await waitFor(() => expect(dir).toHaveAttribute('aria-pressed', 'true'));

    // The English paragraph reads left to right by itself; the switch makes it right to left.
    select(1, 2);
    await userEvent.click(dir);
    expect(bodyHtml()).toBe('<p dir="ltr">שלום</p><p dir="rtl">hello world</p>');
    await waitFor(() => expect(dir).toHaveAttribute('aria-pressed', 'false'));

    // Switched back, both follow their text again.
    await userEvent.click(dir);
    select(0, 1);
    await userEvent.click(dir);
    expect(bodyHtml()).toBe('<p dir="rtl">שלום</p><p dir="ltr">hello world</p>');
    expect(Array.from(editor().querySelectorAll('p')).map((p) => p.getAttribute('dir'))).toEqual(['auto', 'auto']);
  });

  it('a link needs http(s) or mailto, and wraps the selected text', async () => {
    await ready('<p>ראו את האתר שלנו</p>');
    const user = userEvent.setup();
    select(0, 7, 16);

    await user.click(screen.getByTestId('fmt-link'));
    const url = await screen.findByTestId('link-url');
    await user.type(url, 'javascript:alert(1)');
    await user.click(screen.getByTestId('link-apply'));
    expect(screen.getByTestId('link-popover')).toHaveTextContent('הקישור חייב להתחיל ב-http://');
    expect(bodyHtml()).not.toContain('<a');

    await user.clear(url);
    await user.type(url, 'https://example.com/he{Enter}');
    expect(screen.queryByTestId('link-popover')).not.toBeInTheDocument();
    expect(bodyHtml()).toBe('<p dir="rtl">ראו את <a href="https://example.com/he">האתר שלנו</a></p>');
    expect(editor().querySelector('a')).toHaveAttribute('href', 'https://example.com/he');
  });

  it('with nothing selected the link is inserted as its own text', async () => {
    await ready('<p>כתבו ל</p>');
    const user = userEvent.setup();
    select(0, 6);
    await user.click(screen.getByTestId('fmt-link'));
    await user.type(await screen.findByTestId('link-url'), 'mailto:office@example.test');
    await user.click(screen.getByTestId('link-apply'));
    expect(bodyHtml()).toBe('<p dir="rtl">כתבו ל<a href="mailto:office@example.test">mailto:office@example.test</a></p>');
  });

  it('undo and redo step through the changes; the buttons know when they can', async () => {
    await ready('<p>ראשון</p>');
    typeBody('<p>שני</p>');
    const undo = screen.getByTestId('fmt-undo');
    const redo = screen.getByTestId('fmt-redo');
    await waitFor(() => expect(undo).toBeEnabled());
    expect(redo).toBeDisabled();
    await userEvent.click(undo);
    expect(bodyHtml()).toBe('<p dir="rtl">ראשון</p>');
    await waitFor(() => expect(redo).toBeEnabled());
    await userEvent.click(redo);
    expect(bodyHtml()).toBe('<p dir="rtl">שני</p>');
  });

  it('a paste from Word arrives as clean paragraphs with their direction', async () => {
    await ready('<p>לפני</p>');
    select(0, 4);
    const html =
      '<html><head><style>p{}</style></head><body><!--StartFragment--><p class=MsoNormal dir=RTL style="direction:rtl"><b><span style="font-family:Arial">חשוב</span></b><span> מאוד<o:p></o:p></span></p>' +
      '<p class=MsoNormal dir=LTR><span lang=EN-US>Second line</span><script>alert(1)</script></p><!--EndFragment--></body></html>';
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', {
      value: { types: ['text/html', 'text/plain'], getData: (type: string) => (type === 'text/html' ? html : 'חשוב מאוד\nSecond line') },
    });
    act(() => {
      editor().dispatchEvent(paste);
    });
    await waitFor(() => expect(bodyHtml()).toBe('<p dir="rtl">לפני<b>חשוב</b> מאוד</p><p dir="ltr">Second line</p>'));
    expect(paste.defaultPrevented).toBe(true);
  });
});
