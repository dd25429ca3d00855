// The editor's toolbar: each button runs its editing command on the editor, the direction switch
// sets dir on the current paragraph, and links accept only http(s) and mailto. jsdom has no
// execCommand, so the browser's command is stood in by a spy (the DOM fallbacks are real).

import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeServer, editor, renderCompose } from './composeFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // execCommand/queryCommandState are stood in per test; jsdom has neither.
  delete (document as { execCommand?: unknown }).execCommand;
  delete (document as { queryCommandState?: unknown }).queryCommandState;
});

/** Puts the caret (or a selection of [start, end)) in `node`. */
function select(node: Node, start = 0, end = start) {
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, end);
  const sel = document.getSelection()!;
  sel.removeAllRanges();
  sel.addRange(range);
}

describe('editor toolbar', () => {
  it('the editor is right-to-left by default', async () => {
    composeServer();
    renderCompose();
    expect(await screen.findByTestId('compose-editor')).toHaveAttribute('dir', 'rtl');
    expect(editor()).toHaveAttribute('contenteditable', 'true');
  });

  it('shows a placeholder while the body is empty', async () => {
    composeServer();
    renderCompose();
    await screen.findByTestId('compose-page');
    const placeholder = () => document.querySelector('.editor__placeholder');
    expect(placeholder()).toHaveTextContent('כתוב כאן את ההודעה...');
    editor().innerHTML = '<div>שלום</div>';
    fireEvent.input(editor());
    expect(placeholder()).toBeNull();
    editor().innerHTML = '<div><br></div>';
    fireEvent.input(editor());
    expect(placeholder()).not.toBeNull();
  });

  it.each([
    ['fmt-bold', 'bold'],
    ['fmt-italic', 'italic'],
    ['fmt-underline', 'underline'],
    ['fmt-bullets', 'insertUnorderedList'],
    ['fmt-align-right', 'justifyRight'],
    ['fmt-align-center', 'justifyCenter'],
    ['fmt-align-left', 'justifyLeft'],
  ])('%s runs %s on the editor and shows its state', async (testId, command) => {
    const exec = vi.fn((_cmd: string, _ui: boolean, _value?: string) => true);
    const active = new Set<string>();
    Object.assign(document, {
      execCommand: (cmd: string, ui: boolean, value?: string) => {
        active.add(cmd);
        return exec(cmd, ui, value);
      },
      queryCommandState: (cmd: string) => active.has(cmd),
    });
    composeServer();
    renderCompose();
    await screen.findByTestId('compose-page');
    editor().innerHTML = '<p>שלום</p>';
    select(editor().querySelector('p')!.firstChild!, 0, 4);

    const button = screen.getByTestId(testId);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(button);
    expect(exec).toHaveBeenCalledWith(command, false, undefined);
    expect(button).toHaveAttribute('aria-pressed', 'true');
  });

  it('the direction switch sets dir on the current paragraph only', async () => {
    composeServer();
    renderCompose();
    await screen.findByTestId('compose-page');
    editor().innerHTML = '<p>שלום</p><p>hello world</p>';
    const [first, second] = Array.from(editor().querySelectorAll('p'));
    select(second.firstChild!, 2);

    const dir = screen.getByTestId('fmt-dir');
    expect(dir).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(dir);
    expect(second).toHaveAttribute('dir', 'ltr');
    expect(first).not.toHaveAttribute('dir');
    expect(editor()).toHaveAttribute('dir', 'rtl');
    expect(dir).toHaveAttribute('aria-pressed', 'true');

    select(second.firstChild!, 2);
    fireEvent.click(dir);
    expect(second).toHaveAttribute('dir', 'rtl');
    expect(dir).toHaveAttribute('aria-pressed', 'false');
  });

  it('a link needs http(s) or mailto, and wraps the selected text', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    editor().innerHTML = '<p>ראו את האתר שלנו</p>';
    const text = editor().querySelector('p')!.firstChild!;
    select(text, 7, 16);

    fireEvent.click(screen.getByTestId('fmt-link'));
    const url = screen.getByTestId('link-url');
    await user.type(url, 'javascript:alert(1)');
    await user.click(screen.getByTestId('link-apply'));
    expect(screen.getByTestId('link-popover')).toHaveTextContent('הקישור חייב להתחיל ב-http://');
    expect(editor().querySelector('a')).toBeNull();

    await user.clear(url);
    await user.type(url, 'https://example.com/he{Enter}');
    expect(screen.queryByTestId('link-popover')).not.toBeInTheDocument();
    const a = editor().querySelector('a')!;
    expect(a).toHaveAttribute('href', 'https://example.com/he');
    expect(a).toHaveTextContent('האתר שלנו');
  });

  it('with nothing selected the link is inserted as its own text', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    editor().innerHTML = '<p>כתבו ל</p>';
    select(editor().querySelector('p')!.firstChild!, 5);
    fireEvent.click(screen.getByTestId('fmt-link'));
    await user.type(screen.getByTestId('link-url'), 'mailto:office@example.test');
    await user.click(screen.getByTestId('link-apply'));
    const a = editor().querySelector('a')!;
    expect(a).toHaveAttribute('href', 'mailto:office@example.test');
    expect(a).toHaveTextContent('mailto:office@example.test');
  });
});
