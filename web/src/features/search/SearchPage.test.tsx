import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig, type Cache, type ScopedMutator } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { revalidateMailData } from '../../session/revalidateMail';
import { he } from '../../i18n/he';
import { heSearchPage } from '../../i18n/searchPage';
import { formatDateTime } from '../../lib/dates';
import { json, renderWithProviders, signInAs } from '../../test/helpers';
import SearchPage from './SearchPage';
import { page, result, searchCalls, searchServer } from './searchFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage(route = '/Search') {
  signInAs();
  return renderWithProviders(<SearchPage />, { route });
}

const tz = () => String(-new Date().getTimezoneOffset() || 0);

/** Lets pending fetches and SWR settle. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));

describe('Search page: before anything is asked', () => {
  it('shows the prompt and the operators help, and asks nothing', async () => {
    const fetch = searchServer();
    renderPage();
    expect(screen.getByTestId('search-idle')).toHaveTextContent('מה לחפש?');
    const help = screen.getByTestId('search-help');
    expect(help.tagName).toBe('SECTION');
    await settle();
    expect(searchCalls(fetch)).toHaveLength(0);
    expect(screen.queryByTestId('search-loading')).not.toBeInTheDocument();
  });

  it('lists every operator of the query language, each as left-to-right code with an example', () => {
    searchServer();
    renderPage();
    const help = screen.getByTestId('search-help');
    const codes = Array.from(help.querySelectorAll('code')).map((c) => c.textContent);
    for (const op of [
      'from:', 'to:', 'subject:', 'has:attachment', 'is:unread', 'is:read', 'is:starred', 'after:', 'before:',
      'in:inbox', 'in:sent', 'in:drafts', 'in:junk', 'in:spam', 'in:trash', 'in:archive', 'in:all',
      'id:', 'msgid:', 'label:', 'status:', 'a OR b', '"two words"', '-word', '( … )', 'word*',
    ]) {
      expect(codes).toContain(op);
    }
    help.querySelectorAll('code').forEach((c) => expect(c).toHaveAttribute('dir', 'ltr'));
    const items = within(help).getAllByTestId('search-help-item');
    expect(items).toHaveLength(heSearchPage.help.items.length);
    // Each row: operators, a Hebrew explanation, one example.
    items.forEach((row) => expect(row.querySelectorAll('td')[2].querySelectorAll('code')).toHaveLength(1));
  });

  it('a blank query submitted does not search', async () => {
    const fetch = searchServer();
    const r = renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('search-input'), '   {Enter}');
    await settle();
    expect(searchCalls(fetch)).toHaveLength(0);
    expect(r.location().search).toBe('');
    expect(screen.getByTestId('search-idle')).toBeInTheDocument();
  });
});

describe('Search page: asking', () => {
  it('landing with ?q= runs exactly one search with the query and the time zone', async () => {
    const fetch = searchServer({ 'GET /api/search': () => json(200, page([result(1)])) });
    renderPage(`/Search?q=${encodeURIComponent('פגישה מחר')}`);
    expect(screen.getByTestId('search-input')).toHaveValue('פגישה מחר');
    expect(screen.getByTestId('search-input')).toHaveAttribute('dir', 'auto');
    expect(await screen.findAllByTestId('search-result')).toHaveLength(1);
    await settle();
    const sent = searchCalls(fetch);
    expect(sent).toHaveLength(1);
    expect(sent[0].get('q')).toBe('פגישה מחר');
    expect(sent[0].get('tz')).toBe(tz());
    expect(sent[0].get('page')).toBe('1');
    expect(sent[0].get('perPage')).toBe('20');
    // Nothing that was not asked for.
    for (const name of ['from', 'to', 'subject', 'after', 'before', 'unread', 'starred', 'attachment', 'folder']) {
      expect(sent[0].has(name)).toBe(false);
    }
  });

  it('shows a loading state while the server works', async () => {
    let answer!: (r: Response) => void;
    searchServer({ 'GET /api/search': () => new Promise<Response>((res) => (answer = res)) });
    renderPage('/Search?q=x');
    expect(await screen.findByTestId('search-loading')).toHaveAttribute('role', 'status');
    answer(json(200, page([result(1)])));
    expect(await screen.findByTestId('search-results')).toBeInTheDocument();
    expect(screen.queryByTestId('search-loading')).not.toBeInTheDocument();
  });

  it('the search box writes the URL and searches; page goes back to 1', async () => {
    const fetch = searchServer({ 'GET /api/search': () => json(200, page([result(1)], { total: 60 })) });
    const r = renderPage('/Search?q=old&page=3');
    await screen.findAllByTestId('search-result');
    const user = userEvent.setup();
    const box = screen.getByTestId('search-input');
    await user.clear(box);
    await user.type(box, 'from:dana חשבונית{Enter}');
    await waitFor(() => expect(new URLSearchParams(r.location().search).get('q')).toBe('from:dana חשבונית'));
    expect(new URLSearchParams(r.location().search).has('page')).toBe(false);
    await waitFor(() => expect(searchCalls(fetch).at(-1)?.get('q')).toBe('from:dana חשבונית'));
    expect(searchCalls(fetch).at(-1)?.get('page')).toBe('1');

    // The button does the same.
    await user.clear(box);
    await user.type(box, 'דוח');
    await user.click(screen.getByTestId('search-submit'));
    await waitFor(() => expect(new URLSearchParams(r.location().search).get('q')).toBe('דוח'));
  });

  it('the filters become the right query parameters', async () => {
    const fetch = searchServer();
    const r = renderPage('/Search?q=' + encodeURIComponent('הצעת מחיר'));
    await waitFor(() => expect(searchCalls(fetch)).toHaveLength(1));
    const user = userEvent.setup();
    const panel = screen.getByTestId('search-filters');
    expect(panel.tagName).toBe('FORM');
    await user.type(screen.getByTestId('search-filter-from'), 'דנה');
    await user.type(screen.getByTestId('search-filter-to'), 'yossi@example.com');
    await user.type(screen.getByTestId('search-filter-subject'), 'רבעון');
    fireEvent.change(screen.getByTestId('search-filter-after'), { target: { value: '2024-03-01' } });
    fireEvent.change(screen.getByTestId('search-filter-before'), { target: { value: '2024-04-01' } });
    await user.click(screen.getByTestId('search-filter-unread'));
    await user.click(screen.getByTestId('search-filter-attachment'));
    await user.selectOptions(screen.getByTestId('search-filter-folder'), 'sent');
    // Typing alone asks nothing.
    expect(searchCalls(fetch)).toHaveLength(1);
    await user.click(screen.getByTestId('search-filters-apply'));

    await waitFor(() => expect(searchCalls(fetch)).toHaveLength(2));
    // The URL keeps the query and the filters; the search adds the page, its size and the time zone.
    const asked = {
      q: 'הצעת מחיר',
      from: 'דנה',
      to: 'yossi@example.com',
      subject: 'רבעון',
      after: '2024-03-01',
      before: '2024-04-01',
      unread: '1',
      attachment: '1',
      folder: 'sent',
    };
    expect(Object.fromEntries(searchCalls(fetch)[1])).toEqual({ ...asked, page: '1', perPage: '20', tz: tz() });
    expect(Object.fromEntries(new URLSearchParams(r.location().search))).toEqual(asked);
    // Shown as set: the phone's toggle counts them.
    expect(screen.getByTestId('search-filters-count')).toHaveTextContent('8 מסננים פעילים');
  });

  it('offers the spec folders with their Hebrew names, all first', () => {
    searchServer();
    renderPage();
    const select = screen.getByTestId('search-filter-folder') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => [o.value, o.text])).toEqual([
      ['all', 'כל התיקיות'],
      ['inbox', he.folders.inbox],
      ['sent', he.folders.sent],
      ['drafts', he.folders.drafts],
      ['junk', he.folders.junk],
      ['trash', he.folders.trash],
    ]);
    expect(select.value).toBe('all');
  });

  it('a filter alone is enough to search (a folder other than all counts)', async () => {
    const fetch = searchServer();
    const user = userEvent.setup();
    renderPage();
    await user.selectOptions(screen.getByTestId('search-filter-folder'), 'junk');
    await user.click(screen.getByTestId('search-filters-apply'));
    await waitFor(() => expect(searchCalls(fetch)).toHaveLength(1));
    expect(searchCalls(fetch)[0].get('folder')).toBe('junk');
    expect(searchCalls(fetch)[0].has('q')).toBe(false);
    expect(screen.queryByTestId('search-idle')).not.toBeInTheDocument();
  });

  it('landing with flags in the URL fills the panel and asks for them', async () => {
    const fetch = searchServer();
    renderPage('/Search?starred=1&after=2024-01-31&folder=trash');
    expect(screen.getByTestId('search-filter-starred')).toBeChecked();
    expect(screen.getByTestId('search-filter-unread')).not.toBeChecked();
    expect(screen.getByTestId('search-filter-after')).toHaveValue('2024-01-31');
    expect(screen.getByTestId('search-filter-folder')).toHaveValue('trash');
    await waitFor(() => expect(searchCalls(fetch)).toHaveLength(1));
    const sent = searchCalls(fetch)[0];
    expect(sent.get('starred')).toBe('1');
    expect(sent.get('after')).toBe('2024-01-31');
    expect(sent.get('folder')).toBe('trash');
  });

  it('clearing the filters keeps the query and searches again', async () => {
    const fetch = searchServer();
    const r = renderPage('/Search?q=abc&unread=1&folder=sent&from=dana');
    await waitFor(() => expect(searchCalls(fetch)).toHaveLength(1));
    await userEvent.setup().click(screen.getByTestId('search-filters-clear'));
    await waitFor(() => expect(r.location().search).toBe('?q=abc'));
    await waitFor(() => expect(searchCalls(fetch)).toHaveLength(2));
    expect(Object.fromEntries(searchCalls(fetch)[1])).toEqual({ q: 'abc', page: '1', perPage: '20', tz: tz() });
    expect(screen.getByTestId('search-filter-from')).toHaveValue('');
    expect(screen.getByTestId('search-filter-unread')).not.toBeChecked();
    expect(screen.getByTestId('search-filter-folder')).toHaveValue('all');
  });

  it('clearing the filters of a filter-only search goes back to the prompt', async () => {
    const fetch = searchServer();
    renderPage('/Search?unread=1');
    await waitFor(() => expect(searchCalls(fetch)).toHaveLength(1));
    await userEvent.setup().click(screen.getByTestId('search-filters-clear'));
    expect(await screen.findByTestId('search-idle')).toBeInTheDocument();
    await settle();
    expect(searchCalls(fetch)).toHaveLength(1);
  });

  it('Back returns to the previous search, fields and results included', async () => {
    function Back() {
      const navigate = useNavigate();
      return (
        <button type="button" onClick={() => navigate(-1)}>
          back
        </button>
      );
    }
    const fetch = searchServer({
      'GET /api/search': (_init, url) => {
        const q = new URL(url, 'http://x').searchParams.get('q');
        return json(200, page([result(q === 'first' ? 1 : 2)]));
      },
    });
    signInAs();
    const r = renderWithProviders(
      <>
        <SearchPage />
        <Back />
      </>,
      { route: '/Search?q=first' },
    );
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByTestId('search-result').dataset.id).toBe('1'));
    const box = screen.getByTestId('search-input');
    await user.clear(box);
    await user.type(box, 'second');
    await user.click(screen.getByTestId('search-filter-unread'));
    await user.click(screen.getByTestId('search-submit'));
    await waitFor(() => expect(screen.getByTestId('search-result').dataset.id).toBe('2'));
    expect(r.location().search).toBe('?q=second&unread=1');

    await user.click(screen.getByRole('button', { name: 'back' }));
    await waitFor(() => expect(r.location().search).toBe('?q=first'));
    expect(screen.getByTestId('search-input')).toHaveValue('first');
    expect(screen.getByTestId('search-filter-unread')).not.toBeChecked();
    await waitFor(() => expect(screen.getByTestId('search-result').dataset.id).toBe('1'));
    expect(searchCalls(fetch).every((c) => c.get('q') === 'first' || c.get('q') === 'second')).toBe(true);
  });

  it('the panel folds behind a toggle (narrow screens)', async () => {
    searchServer();
    renderPage();
    const user = userEvent.setup();
    const toggle = screen.getByTestId('search-filters-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', screen.getByTestId('search-filters').id);
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle.closest('.search-side')).toHaveClass('is-open');
  });
});

describe('Search page: answers', () => {
  it('a 400 bad_query shows the server message in an alert', async () => {
    const message = 'חסר מירכאות סוגרות בשאילתה';
    searchServer({
      'GET /api/search': () => json(400, { success: false, error: 'bad_query', message }),
    });
    renderPage('/Search?q=' + encodeURIComponent('"פגישה'));
    const alert = await screen.findByTestId('search-error');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert.textContent).toBe(message);
    expect(screen.queryByTestId('search-results')).not.toBeInTheDocument();
    // The help is at hand to fix the query.
    expect(screen.getByTestId('search-help')).toBeInTheDocument();
  });

  it('a 400 empty_query shows its message too', async () => {
    const message = 'יש להקליד מילות חיפוש או לבחור מסנן';
    searchServer({
      'GET /api/search': () => json(400, { success: false, error: 'empty_query', message }),
    });
    renderPage('/Search?q=x');
    expect(await screen.findByTestId('search-error')).toHaveTextContent(message);
  });

  it('a server failure says so with a retry', async () => {
    let fail = true;
    const fetch = searchServer({
      'GET /api/search': () =>
        fail ? json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }) : json(200, page([result(1)])),
    });
    renderPage('/Search?q=x');
    const alert = await screen.findByTestId('search-error');
    expect(alert).toHaveTextContent('החיפוש נכשל: שגיאה בשרת');
    fail = false;
    await userEvent.setup().click(within(alert).getByTestId('search-retry'));
    expect(await screen.findAllByTestId('search-result')).toHaveLength(1);
    expect(searchCalls(fetch)).toHaveLength(2);
  });

  it('renders each result: sender, subject, date, folder, paperclip, star, status, unread in bold', async () => {
    searchServer({
      'GET /api/search': () =>
        json(
          200,
          page([
            result(1, { is_read: false, is_starred: true, hasAttachments: true, status: 'needs_reply', date: '2024-03-05T08:07:00Z' }),
            result(2, { from_name: '', from: 'bare@example.test', subject: '', folderRole: 'sent' }),
            result(3, { folderRole: '', folder: 'Projects/2024', priority: 'urgent' }),
            result(4, { folderRole: 'junk', folderLabels: ['עבודה'] }),
          ]),
        ),
    });
    renderPage('/Search?q=x');
    const rows = await screen.findAllByTestId('search-result');
    expect(rows.map((r) => r.dataset.id)).toEqual(['1', '2', '3', '4']);
    const [first, second, third, fourth] = rows;
    expect(first.tagName).toBe('BUTTON');

    expect(first).toHaveClass('is-unread');
    expect(second).not.toHaveClass('is-unread');
    expect(first).toHaveTextContent('שולח 1');
    expect(first.querySelector('.search-result__from bdi')).toHaveAttribute('dir', 'auto');
    expect(first.querySelector('.search-result__from')).not.toHaveAttribute('dir');
    expect(first.querySelector('.search-result__subject')).toHaveAttribute('dir', 'auto');
    expect(first).toHaveTextContent('נושא 1');
    expect(within(first).getByRole('time')).toHaveTextContent(formatDateTime('2024-03-05T08:07:00Z'));
    expect(formatDateTime('2024-03-05T08:07:00Z')).toMatch(/^05\/03\/2024 \d\d:\d\d$/);
    expect(within(first).getByTestId('search-result-folder')).toHaveTextContent('דואר נכנס');
    expect(within(first).getByTestId('search-result-attachment')).toBeInTheDocument();
    expect(within(first).getByTestId('search-result-starred')).toBeInTheDocument();
    expect(within(first).getByTestId('search-result-label')).toHaveTextContent('דורש תשובה');

    // Sent mail names its recipients, as the Sent folder's list does.
    expect(second).toHaveTextContent('אל: dana@example.test');
    expect(second).not.toHaveTextContent('bare@example.test');
    expect(second).toHaveTextContent('ללא נושא');
    expect(within(second).getByTestId('search-result-folder')).toHaveTextContent('נשלחו');
    expect(within(second).queryByTestId('search-result-attachment')).not.toBeInTheDocument();
    expect(within(second).queryByTestId('search-result-starred')).not.toBeInTheDocument();
    expect(within(second).queryByTestId('search-result-label')).not.toBeInTheDocument();

    // A folder without a role keeps its own name; an urgent priority shows.
    expect(within(third).getByTestId('search-result-folder')).toHaveTextContent('Projects/2024');
    expect(within(third).getByTestId('search-result-label')).toHaveTextContent('דחוף');
    expect(within(fourth).getByTestId('search-result-folder')).toHaveTextContent('דואר זבל');
    // A Gmail mail's labels, Hebrew readable; none where the mailbox has none.
    expect(within(fourth).getByTestId('search-result-folder-label')).toHaveTextContent('עבודה');
    expect(within(third).queryByTestId('search-result-folder-label')).not.toBeInTheDocument();
  });

  it('marks the hits of the snippet, and markup inside it stays text', async () => {
    searchServer({
      'GET /api/search': () =>
        json(
          200,
          page([
            result(1, {
              snippet: [
                { text: 'נקבעה ', hit: false },
                { text: 'פגישה', hit: true },
                { text: ' מחר <script>alert(1)</script> <b>x</b> ', hit: false },
                { text: '<img src=x onerror=alert(1)>', hit: true },
              ],
            }),
          ]),
        ),
    });
    renderPage('/Search?q=' + encodeURIComponent('פגישה'));
    const row = await screen.findByTestId('search-result');
    const snippet = within(row).getByTestId('search-result-snippet');
    expect(snippet).toHaveAttribute('dir', 'auto');
    const marks = Array.from(snippet.querySelectorAll('mark')).map((m) => m.textContent);
    expect(marks).toEqual(['פגישה', '<img src=x onerror=alert(1)>']);
    expect(snippet.textContent).toBe('נקבעה פגישה מחר <script>alert(1)</script> <b>x</b> <img src=x onerror=alert(1)>');
    expect(document.querySelector('script')).toBeNull();
    expect(snippet.querySelector('b, img')).toBeNull();
  });

  it.each([
    [0, 'לא נמצאו תוצאות'],
    [1, 'נמצאה תוצאה אחת'],
    [2, 'נמצאו 2 תוצאות'],
    [1234, 'נמצאו 1,234 תוצאות'],
  ])('says how many were found: %i', async (total, text) => {
    searchServer({
      'GET /api/search': () => json(200, page(total ? [result(1)] : [], { total })),
    });
    renderPage('/Search?q=x');
    const line = await screen.findByTestId('search-total');
    expect(line).toHaveTextContent(text);
    expect(line).toHaveAttribute('data-total', String(total));
  });

  it('no results: its own message', async () => {
    searchServer();
    renderPage('/Search?q=nothing');
    expect(await screen.findByTestId('search-empty')).toHaveTextContent('לא נמצאו הודעות שמתאימות לחיפוש.');
    expect(screen.queryByTestId('search-results')).not.toBeInTheDocument();
    expect(screen.queryByTestId('search-pager')).not.toBeInTheDocument();
  });

  it('while the index is still being built, says some mail may be missing', async () => {
    searchServer({ 'GET /api/search': () => json(200, page([result(1)], { indexing: true })) });
    renderPage('/Search?q=x');
    expect(await screen.findByTestId('search-indexing')).toHaveTextContent('אינדקס החיפוש עדיין מתעדכן');
  });

  it('no notice when the index is up to date', async () => {
    searchServer({ 'GET /api/search': () => json(200, page([result(1)])) });
    renderPage('/Search?q=x');
    await screen.findByTestId('search-results');
    expect(screen.queryByTestId('search-indexing')).not.toBeInTheDocument();
  });
});

describe('Search page: opening and paging', () => {
  it.each([
    ['inbox', 'inbox'],
    ['sent', 'sent'],
    ['drafts', 'drafts'],
    ['junk', 'Spam'],
    ['trash', 'trash'],
    ['archive', 'Archive'],
    ['', 'inbox'],
  ])('a result in %s opens in the inbox folder %s', async (role, folder) => {
    searchServer({ 'GET /api/search': () => json(200, page([result(42, { folderRole: role })])) });
    const r = renderPage('/Search?q=x');
    await userEvent.setup().click(await screen.findByTestId('search-result'));
    expect(r.location().pathname).toBe('/Inbox');
    const params = new URLSearchParams(r.location().search);
    expect(params.get('folder')).toBe(folder);
    expect(params.get('mail')).toBe('42');
  });

  it('pages through the results: page=2 is asked and written to the URL', async () => {
    const fetch = searchServer({
      'GET /api/search': (_init, url) => {
        const p = Number(new URL(url, 'http://x').searchParams.get('page'));
        const first = (p - 1) * 20 + 1;
        const count = p === 3 ? 5 : 20;
        return json(200, page(Array.from({ length: count }, (_, i) => result(first + i)), { total: 45, page: p }));
      },
    });
    const r = renderPage('/Search?q=x');
    const user = userEvent.setup();
    expect(await screen.findAllByTestId('search-result')).toHaveLength(20);
    expect(screen.getByTestId('search-page')).toHaveTextContent('עמוד 1 מתוך 3');
    expect(screen.getByTestId('search-prev')).toBeDisabled();
    await user.click(screen.getByTestId('search-next'));

    await waitFor(() => expect(new URLSearchParams(r.location().search).get('page')).toBe('2'));
    await waitFor(() => expect(searchCalls(fetch).at(-1)?.get('page')).toBe('2'));
    expect(searchCalls(fetch).at(-1)?.get('q')).toBe('x');
    await waitFor(() => expect(screen.getAllByTestId('search-result')[0].dataset.id).toBe('21'));
    expect(screen.getByTestId('search-page')).toHaveTextContent('עמוד 2 מתוך 3');
    expect(screen.getByTestId('search-prev')).toBeEnabled();

    await user.click(screen.getByTestId('search-next'));
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(5));
    expect(screen.getByTestId('search-next')).toBeDisabled();
    await user.click(screen.getByTestId('search-prev'));
    await waitFor(() => expect(new URLSearchParams(r.location().search).get('page')).toBe('2'));
  });

  it('live mail events re-read the results (the search key is a mail key)', async () => {
    let swr!: { cache: Cache; mutate: ScopedMutator };
    function Grab() {
      swr = useSWRConfig();
      return null;
    }
    let total = 1;
    const fetch = searchServer({ 'GET /api/search': () => json(200, page([result(1)], { total })) });
    signInAs();
    renderWithProviders(
      <>
        <SearchPage />
        <Grab />
      </>,
      { route: '/Search?q=x' },
    );
    expect(await screen.findByTestId('search-total')).toHaveAttribute('data-total', '1');
    total = 2;
    await act(() => revalidateMailData(swr.cache, swr.mutate));
    await waitFor(() => expect(screen.getByTestId('search-total')).toHaveAttribute('data-total', '2'));
    expect(searchCalls(fetch)).toHaveLength(2);
  });

  it('one page of results: no pager', async () => {
    searchServer({ 'GET /api/search': () => json(200, page([result(1)], { total: 20 })) });
    renderPage('/Search?q=x');
    await screen.findByTestId('search-results');
    expect(screen.queryByTestId('search-pager')).not.toBeInTheDocument();
  });
});
