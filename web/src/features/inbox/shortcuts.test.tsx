import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/helpers';
import { replyDrafts } from './reply/replyDrafts';
import { bodyOf, calls, detail, list, mail, renderInbox, server, solo, statusAnswer, thread } from './testFixtures';

afterEach(() => {
  replyDrafts.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.getElementById('sidebar-search-input')?.remove();
});

const first = mail(1, { subject: 'הזמנה', from: 'dana@example.test', from_name: 'דנה', messageId: '<m1@example.test>' });
const THREADS = () => [thread([first]), solo(2), solo(3)];

function routes() {
  return {
    'GET /api/threads/inbox': () => list(THREADS()),
    'GET /api/emails/1': () => json(200, detail(first)),
    'GET /api/emails/2': () => json(200, detail(mail(2))),
    'GET /api/emails/3': () => json(200, detail(mail(3))),
  };
}

const cursorRow = () => document.querySelector('[data-testid="thread-row"].is-cursor')?.getAttribute('data-id');

describe('keyboard shortcuts', () => {
  beforeEach(() => {
    // The sidebar's search box lives in the layout; stand one in for it.
    const box = document.createElement('input');
    box.id = 'sidebar-search-input';
    document.body.appendChild(box);
  });

  it('j and k move through the threads, Enter opens, and with a mail open j/k open the next', async () => {
    server(routes());
    const r = renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();

    await user.keyboard('j');
    expect(cursorRow()).toBe('t1');
    await user.keyboard('jj');
    expect(cursorRow()).toBe('t3');
    await user.keyboard('j');
    expect(cursorRow()).toBe('t3');
    await user.keyboard('k');
    expect(cursorRow()).toBe('t2');
    expect(screen.queryByTestId('reading-pane')).not.toBeInTheDocument();

    await user.keyboard('{Enter}');
    await waitFor(() => expect(r.location().search).toContain('mail=2'));
    await user.keyboard('k');
    await waitFor(() => expect(screen.getByTestId('reading-pane')).toHaveAttribute('data-id', '1'));
    expect(cursorRow()).toBe('t1');
  });

  it('e marks processed, s stars, # asks before deleting', async () => {
    const fetch = server({
      ...routes(),
      'PUT /api/emails/1/status': () => json(200, statusAnswer({ ...first, status: 'processed' }, 'Archive')),
      'PUT /api/emails/2': () => json(200, { success: true, email: { ...mail(2), is_starred: true } }),
      'DELETE /api/emails/3': () => json(200, { success: true, deleted: 1 }),
    });
    renderInbox('/Inbox?folder=inbox&mail=1');
    await screen.findByTestId('mail-body-frame');
    const user = userEvent.setup();

    await user.keyboard('e');
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/1/status')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/emails/1/status')[0])).toEqual({ status: 'processed' });
    await waitFor(() => expect(screen.getAllByTestId('thread-row').map((x) => x.dataset.id)).toEqual(['t2', 't3']));
    // The cursor moved on to the next thread.
    expect(cursorRow()).toBe('t2');

    await user.keyboard('s');
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/2')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/emails/2')[0])).toEqual({ is_starred: true });

    await user.keyboard('j#');
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('המייל יימחק מהאתר בלבד ולא מתיבת הדואר האמיתית.');
    // Shortcuts sleep while the dialog is open.
    await user.keyboard('e');
    expect(calls(fetch, 'PUT', '/api/emails/3/status')).toHaveLength(0);
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await waitFor(() => expect(calls(fetch, 'DELETE', '/api/emails/3')).toHaveLength(1));
  });

  it('r opens the quick reply with the caret in it; the full reply link keeps the Compose parameters', async () => {
    server(routes());
    const r = renderInbox('/Inbox?folder=inbox&mail=1');
    await screen.findByTestId('mail-body-frame');
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();
    await userEvent.setup().keyboard('r');
    expect(r.location().pathname).toBe('/Inbox');
    const text = await screen.findByTestId('reply-text');
    expect(text).toHaveFocus();
    // The key press itself typed nothing.
    expect(text).toHaveValue('');
    const href = screen.getByTestId('reply-compose').getAttribute('href') ?? '';
    const [path, query] = href.split('?');
    expect(path).toBe('/Compose');
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      replyTo: 'dana@example.test',
      replyFrom: 'דנה',
      replySubject: 'הזמנה',
      originalMessageId: '<m1@example.test>',
    });
  });

  it('r on a thread under the cursor opens it with its reply panel', async () => {
    server(routes());
    const r = renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();
    await user.keyboard('jj');
    await user.keyboard('r');
    await waitFor(() => expect(r.location().search).toContain('mail=2'));
    expect(await screen.findByTestId('reply-panel')).toHaveAttribute('data-id', '2');
  });

  it('c opens Compose', async () => {
    server(routes());
    const r = renderInbox();
    await screen.findAllByTestId('thread-row');
    await userEvent.setup().keyboard('c');
    expect(r.location().pathname).toBe('/Compose');
    expect(r.location().search).toBe('');
  });

  it('/ goes to the search box; typing there is not a shortcut', async () => {
    server(routes());
    const r = renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();
    await user.keyboard('/');
    const box = document.getElementById('sidebar-search-input') as HTMLInputElement;
    expect(box).toHaveFocus();
    // The slash was not typed into it.
    expect(box.value).toBe('');
    await user.keyboard('jc');
    expect(box.value).toBe('jc');
    expect(cursorRow()).toBeUndefined();
    expect(r.location().pathname).toBe('/Inbox');
  });

  it('ignores keys with Ctrl, Alt or Meta, and Shift with a letter', async () => {
    server(routes());
    const r = renderInbox();
    await screen.findAllByTestId('thread-row');
    fireEvent.keyDown(document.body, { key: 'j', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: 'j', metaKey: true });
    fireEvent.keyDown(document.body, { key: 'J', shiftKey: true });
    fireEvent.keyDown(document.body, { key: 'c', altKey: true });
    expect(cursorRow()).toBeUndefined();
    expect(r.location().pathname).toBe('/Inbox');
    // A Hebrew layout: the key in j's place types 'ח'.
    fireEvent.keyDown(document.body, { key: 'ח', code: 'KeyJ' });
    expect(cursorRow()).toBe('t1');
  });

  it('? shows the list in Hebrew, Escape and ? close it', async () => {
    server(routes());
    renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();
    await user.keyboard('?');
    const help = screen.getByTestId('shortcuts-help');
    expect(help).toHaveTextContent('קיצורי מקלדת');
    expect(help).toHaveTextContent('השיחה הבאה');
    expect(help).toHaveTextContent('סימון כטופל');
    // While it is open the other shortcuts wait.
    await user.keyboard('j');
    expect(cursorRow()).toBeUndefined();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('shortcuts-help')).not.toBeInTheDocument();
    await user.keyboard('?');
    expect(screen.getByTestId('shortcuts-help')).toBeInTheDocument();
    await user.keyboard('?');
    expect(screen.queryByTestId('shortcuts-help')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('shortcuts-button'));
    expect(screen.getByTestId('shortcuts-help')).toBeInTheDocument();
  });
});
