import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/dates';
import { json, renderWithProviders, signInAs } from '../../test/helpers';
import { bodyOf, calls, toasts } from '../inbox/testFixtures';
import { draft, draftsServer as server } from './draftFixtures';
import { useFolderCounts } from '../inbox/useFolderCounts';
import PendingRepliesPage from './PendingRepliesPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ORIGINAL = {
  id: '77',
  messageId: '<o@example.test>',
  from: 'ron@example.test',
  from_name: 'רון',
  subject: 'שאלה',
  body: `<p dir="auto">${'מקור '.repeat(60)}</p>`,
  preview: 'מקור '.repeat(40).trim(),
  date: '2026-03-03T08:00:00Z',
  status: 'processed',
};

/** The page with the folder counts read beside it, as the layout does (a save re-reads them). */
function WithCounts() {
  useFolderCounts();
  return <PendingRepliesPage />;
}

function renderPage() {
  signInAs();
  return renderWithProviders(<WithCounts />, { route: '/PendingReplies' });
}

const card = (id: string) => screen.getAllByTestId('draft-card').find((c) => c.dataset.id === id)!;

describe('Pending replies: drafts', () => {
  it('lists drafts collapsed with who, subject, date, badges and a 200-character preview', async () => {
    const long = draft('1', {
      draftContent: `<p>${'א'.repeat(230)}</p>`,
      scheduledAt: '2026-03-05T07:00:00Z',
      savedInGmail: false,
    });
    server(() => [long, draft('2', { originalEmail: ORIGINAL })]);
    renderPage();
    const cards = await screen.findAllByTestId('draft-card');
    expect(cards.map((c) => c.dataset.id)).toEqual(['1', '2']);
    const first = cards[0];
    expect(first).toHaveTextContent('נמען 1 <to1@example.test>');
    expect(first).toHaveTextContent('Re: נושא 1');
    expect(first).toHaveTextContent(formatDateTime('2026-03-04T09:15:00Z'));
    expect(within(first).getByTestId('draft-scheduled')).toHaveTextContent(`מתוזמן ל-${formatDateTime('2026-03-05T07:00:00Z')}`);
    expect(within(first).getByTestId('draft-local')).toHaveTextContent('נשמר מקומית בלבד');
    expect(within(first).getByTestId('draft-preview').textContent).toBe(`${'א'.repeat(200)}…`);
    expect(within(cards[1]).queryByTestId('draft-scheduled')).not.toBeInTheDocument();
    expect(within(cards[1]).queryByTestId('draft-local')).not.toBeInTheDocument();
    // Collapsed: no frame, no original yet.
    expect(within(cards[1]).queryByTestId('draft-original')).not.toBeInTheDocument();
    expect(within(cards[1]).queryByTestId('mail-body-frame')).not.toBeInTheDocument();
  });

  it('expanded: the original with its processed badge, and the draft only inside the sandboxed frame', async () => {
    server(() => [draft('2', { originalEmail: ORIGINAL, draftContent: '<p dir="auto">גוף <b>הטיוטה</b></p>' })]);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('draft-toggle'));
    const c = card('2');
    expect(within(c).getByTestId('draft-toggle')).toHaveAttribute('aria-expanded', 'true');
    const original = within(c).getByTestId('draft-original');
    expect(within(original).getByTestId('draft-original-processed')).toHaveTextContent('טופל');
    expect(original).toHaveTextContent('רון');
    expect(original).toHaveTextContent('ron@example.test');
    expect(original).toHaveTextContent('שאלה');
    expect(original).toHaveTextContent(formatDateTime(ORIGINAL.date));
    expect(original.querySelector('.draft-original__preview')?.textContent?.endsWith('…')).toBe(true);

    const frame = within(c).getByTestId('mail-body-frame');
    expect(frame).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('srcdoc')).toContain('<p dir="auto">גוף <b>הטיוטה</b></p>');
    // Never put into the app's own DOM.
    expect(document.querySelector('b')).toBeNull();

    await user.click(within(original).getByRole('button', { name: 'הצגת המייל המלא' }));
    expect(within(c).getAllByTestId('mail-body-frame')).toHaveLength(2);
  });

  it('shows the empty state, and no outbox, when there is nothing', async () => {
    server(() => []);
    renderPage();
    expect(await screen.findByTestId('drafts-empty')).toHaveTextContent('אין טיוטות תשובה הממתינות לשליחה.');
    expect(screen.queryByTestId('drafts-delete-all')).not.toBeInTheDocument();
    expect(screen.queryByTestId('outbox')).not.toBeInTheDocument();
  });

  it('a load failure is toasted once, with a retry in the page', async () => {
    let fail = true;
    server(() => [draft('1')], {
      'GET /api/drafts': () => (fail ? json(500, { success: false, error: 'internal', message: 'תקלה' }) : json(200, { drafts: [draft('1')], total: 1 })),
    });
    renderPage();
    expect(await screen.findByTestId('drafts-error')).toHaveTextContent('שגיאה בטעינת טיוטות');
    // The toast comes from an effect after the error renders: wait for it, then it is the only one.
    await waitFor(() => expect(toasts()).toEqual([{ kind: 'error', text: 'שגיאה בטעינת טיוטות' }]));
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'נסה שוב' }));
    expect(await screen.findByTestId('draft-card')).toBeInTheDocument();
  });

  it('edit → save: the draft opens in the rich editor and goes back as its HTML; the drafts and counts are read again', async () => {
    let content = '<p dir="auto">שורה ראשונה<br>שנייה</p><p dir="auto"><b>פסקה</b></p><p dir="ltr">English</p>';
    const fetch = server(() => [draft('1', { draftContent: content })], {
      'PUT /api/drafts/1': (init) => {
        content = (JSON.parse(String(init?.body)) as { draftContent: string }).draftContent;
        return json(200, { success: true, message: 'הטיוטה עודכנה בהצלחה', id: '1' });
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('draft-edit'));
    const text = await screen.findByTestId('draft-text');
    expect(text).toHaveAttribute('contenteditable', 'true');
    expect(text).toHaveAccessibleName('תוכן הטיוטה');
    // The formatting and the line break are there to edit, not flattened to text.
    expect(text.querySelector('strong, b')).toHaveTextContent('פסקה');
    expect(text.querySelector('br')).not.toBeNull();
    await waitFor(() => expect(screen.getByTestId('draft-save')).toBeEnabled());
    const drafts = calls(fetch, 'GET', '/api/drafts').length;
    const counts = calls(fetch, 'GET', '/api/emails/counts').length;
    await user.click(screen.getByTestId('draft-save'));

    await waitFor(() => expect(calls(fetch, 'PUT', '/api/drafts/1')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/drafts/1')[0])).toEqual({
      draftContent: '<p dir="rtl">שורה ראשונה<br>שנייה</p><p dir="rtl"><b>פסקה</b></p><p dir="ltr">English</p>',
    });
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', text: 'הטיוטה עודכנה בהצלחה' }));
    expect(screen.queryByTestId('draft-text')).not.toBeInTheDocument();
    await waitFor(() => expect(calls(fetch, 'GET', '/api/drafts').length).toBeGreaterThan(drafts));
    await waitFor(() => expect(calls(fetch, 'GET', '/api/emails/counts').length).toBeGreaterThan(counts));
  });

  it('an emptied draft cannot be saved', async () => {
    server(() => [draft('1', { draftContent: '<p><br></p>' })]);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('draft-edit'));
    await screen.findByTestId('draft-text');
    expect(screen.getByTestId('draft-save')).toBeDisabled();
  });

  it('a failed update says so and stays in edit mode', async () => {
    server(() => [draft('1')], { 'PUT /api/drafts/1': () => json(500, {}) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('draft-edit'));
    expect(await screen.findByTestId('draft-text')).toHaveTextContent('טיוטה 1');
    await user.click(screen.getByTestId('draft-save'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה בעדכון הטיוטה' }));
    expect(screen.getByTestId('draft-text')).toHaveTextContent('טיוטה 1');
  });

  it('send: the success message with the undo countdown, and the draft leaves the list', async () => {
    let list = [draft('1'), draft('2')];
    const fetch = server(() => list, {
      'POST /api/drafts/1/send': () => {
        list = [draft('2')];
        return json(200, { success: true, outboxId: '8', sendAt: 'x', undoSeconds: 10, message: 'התשובה נשלחה בהצלחה!' });
      },
    });
    renderPage();
    const user = userEvent.setup();
    await screen.findAllByTestId('draft-card');
    await user.click(within(card('1')).getByTestId('draft-send'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/drafts/1/send')).toHaveLength(1));
    expect(await screen.findByTestId('undo-toast')).toHaveTextContent('התשובה נשלחה בהצלחה!');
    expect(screen.getByTestId('undo-countdown')).toHaveTextContent('המייל יישלח בעוד 10 שניות');
    await waitFor(() => expect(screen.getAllByTestId('draft-card').map((c) => c.dataset.id)).toEqual(['2']));
  });

  it('send failure: the server message, else the spec fallback', async () => {
    let body: unknown = { success: false, error: 'bad_request', message: 'לא מחובר לתיבת דואר. אנא התחבר מחדש.' };
    server(() => [draft('1')], { 'POST /api/drafts/1/send': () => json(400, body) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('draft-send'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'לא מחובר לתיבת דואר. אנא התחבר מחדש.' }));
    body = {};
    await user.click(screen.getByTestId('draft-send'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה בשליחת התשובה' }));
    expect(screen.getByTestId('draft-card')).toBeInTheDocument();
  });

  it('delete asks first, then deletes with the spec toast; a failure keeps the draft', async () => {
    let ok = false;
    let list = [draft('1'), draft('2')];
    const fetch = server(() => list, {
      'DELETE /api/drafts/2': () => {
        if (!ok) return json(500, {});
        list = [draft('1')];
        return json(200, { success: true, message: 'הטיוטה נמחקה בהצלחה' });
      },
    });
    renderPage();
    const user = userEvent.setup();
    await screen.findAllByTestId('draft-card');

    await user.click(within(card('2')).getByTestId('draft-delete'));
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('למחוק את הטיוטה "Re: נושא 2"?');
    await user.click(screen.getByTestId('confirm-no'));
    expect(calls(fetch, 'DELETE', '/api/drafts/2')).toHaveLength(0);

    await user.click(within(card('2')).getByTestId('draft-delete'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה במחיקת הטיוטה' }));
    expect(screen.getAllByTestId('draft-card')).toHaveLength(2);

    ok = true;
    await user.click(within(card('2')).getByTestId('draft-delete'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', text: 'הטיוטה נמחקה בהצלחה' }));
    await waitFor(() => expect(screen.getAllByTestId('draft-card').map((c) => c.dataset.id)).toEqual(['1']));
  });

  it('delete all: confirms, then "N טיוטות נמחקו"; a failure says so', async () => {
    let ok = false;
    let list = [draft('1'), draft('2'), draft('3')];
    const fetch = server(() => list, {
      'DELETE /api/drafts/delete-all': () => {
        if (!ok) return json(500, { success: false, error: 'internal', message: 'x' });
        list = [];
        return json(200, { success: true, deletedCount: 3 });
      },
    });
    renderPage();
    const user = userEvent.setup();
    await screen.findAllByTestId('draft-card');
    expect(screen.getByTestId('drafts-total')).toHaveAttribute('data-count', '3');

    await user.click(screen.getByTestId('drafts-delete-all'));
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('למחוק את כל 3 הטיוטות?');
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts().some((t) => t.kind === 'error' && t.text.startsWith('שגיאה במחיקת הטיוטות'))).toBe(true));
    expect(screen.getAllByTestId('draft-card')).toHaveLength(3);

    ok = true;
    await user.click(screen.getByTestId('drafts-delete-all'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', text: '3 טיוטות נמחקו' }));
    expect(calls(fetch, 'DELETE', '/api/drafts/delete-all')).toHaveLength(2);
    expect(await screen.findByTestId('drafts-empty')).toBeInTheDocument();
    expect(screen.queryByTestId('drafts-total')).not.toBeInTheDocument();
  });
});
