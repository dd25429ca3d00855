import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import useSWR from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../api/keys';
import type { Rule, RuleInput } from '../../api/rules';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { bodyOf, calls, toasts, type Handler } from '../inbox/testFixtures';
import { describeRule } from './describe';
import RulesPage from './RulesPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

function rule(id: string, over: Partial<Rule> = {}): Rule {
  return {
    id,
    name: `כלל ${id}`,
    is_active: true,
    created_date: '2026-03-04T09:15:00Z',
    match_all: true,
    conditions: [{ field: 'subject', negate: false, value: 'חשבונית', header: '' }],
    actions: [
      { kind: 'move_to_folder', value: 'Invoices' },
      { kind: 'mark_as_read', value: '' },
    ],
    stop: false,
    forward_pending: false,
    missing_folder: null,
    ...over,
  };
}

/** The page's server: the rules as given (re-read on every GET) and the mailbox's folders. */
function server(rules: () => Rule[], routes: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/rules': () => json(200, { rules: rules() }),
    'GET /api/emails/counts': () => json(200, {}),
    'GET /api/folders': () =>
      json(200, {
        folders: [
          { accountId: 1, name: 'INBOX', displayName: 'INBOX', role: 'inbox', total: 3, unread: 1 },
          { accountId: 1, name: 'Invoices', displayName: 'Invoices', role: '', total: 0, unread: 0 },
        ],
      }),
    ...routes,
  });
}

/** The folder counts, as the sidebar beside the page reads them. */
function Counts() {
  useSWR(keys.emailCounts());
  return null;
}

function renderPage() {
  signInAs();
  return renderWithProviders(
    <>
      <Counts />
      <RulesPage />
    </>,
    { route: '/Rules' },
  );
}

const row = (id: string) => screen.getAllByTestId('rule-row').find((r) => r.dataset.id === id)!;

describe('Rules page', () => {
  it('shows the empty state with the add button when there are no rules', async () => {
    server(() => []);
    renderPage();
    const empty = await screen.findByTestId('rules-empty');
    expect(empty).toHaveTextContent('אין כללים עדיין');
    expect(screen.getByTestId('rules-count')).toHaveTextContent('0 כללים');
    expect(screen.queryByTestId('rule-list')).not.toBeInTheDocument();
    await userEvent.setup().click(within(empty).getByRole('button', { name: 'כלל חדש' }));
    expect(screen.getByTestId('rule-form')).toHaveTextContent('כלל חדש');
  });

  it('shows a load failure with a retry that asks again', async () => {
    let fail = true;
    const fetch = server(() => [rule('1')], {
      'GET /api/rules': () => (fail ? json(500, { success: false, message: 'תקלה בשרת' }) : json(200, { rules: [rule('1')] })),
    });
    renderPage();
    expect(await screen.findByTestId('rules-error')).toHaveTextContent('לא ניתן לטעון את הכללים. תקלה בשרת');
    fail = false;
    await userEvent.setup().click(screen.getByTestId('rules-retry'));
    expect(await screen.findByTestId('rule-list')).toBeInTheDocument();
    expect(calls(fetch, 'GET', '/api/rules')).toHaveLength(2);
  });

  it('lists the rules in run order: name, the rule in words, stops, created date, switch', async () => {
    const first = rule('7', { name: 'חשבוניות', stop: true });
    const second = rule('3', {
      name: 'ניוזלטרים',
      is_active: false,
      match_all: false,
      conditions: [
        { field: 'list_mail', negate: false, value: '', header: '' },
        { field: 'from', negate: false, value: 'news@', header: '' },
      ],
      actions: [{ kind: 'set_status', value: 'advertisement' }],
    });
    server(() => [first, second]);
    renderPage();
    const list = await screen.findByTestId('rule-list');
    expect(list).toHaveAccessibleName('הכללים, לפי סדר ההפעלה');
    // Run order, not newest first (spec 001 §7): the page says so, and why.
    expect(screen.getByText(/לפי הסדר שבו הם מוצגים כאן ולא לפי תאריך היצירה/)).toBeInTheDocument();
    expect(screen.getByText(/כלל חדש נוסף בסוף/)).toBeInTheDocument();
    expect(screen.getByTestId('rules-count')).toHaveTextContent('2 כללים');
    expect(screen.getAllByTestId('rule-name').map((n) => n.textContent)).toEqual(['חשבוניות', 'ניוזלטרים']);

    const a = row('7');
    expect(within(a).getByTestId('rule-summary')).toHaveTextContent(describeRule(first));
    expect(within(a).getByTestId('rule-summary').textContent).toBe('אם הנושא מכיל "חשבונית" ← העבר לתיקייה Invoices, סמן כנקרא');
    expect(within(a).getByTestId('rule-stops')).toHaveTextContent('עוצר כללים נוספים');
    expect(within(a).getByText('נוצר ב-04/03/2026')).toBeInTheDocument();
    expect(within(a).getByRole('switch', { name: 'פעיל: חשבוניות' })).toBeChecked();
    expect(within(a).getByTestId('rule-position')).toHaveTextContent('כלל 1 בסדר ההפעלה');
    expect(within(a).getByRole('button', { name: /הזזת הכלל חשבוניות למעלה/ })).toBeDisabled();

    const b = row('3');
    expect(within(b).getByTestId('rule-summary').textContent).toBe(
      'אם המייל מרשימת תפוצה או השולח מכיל "news@" ← סמן כ"פרסומת"',
    );
    expect(within(b).queryByTestId('rule-stops')).not.toBeInTheDocument();
    expect(within(b).getByRole('switch', { name: 'פעיל: ניוזלטרים' })).not.toBeChecked();
    expect(b).toHaveTextContent('כבוי');
    expect(within(b).getByRole('button', { name: /הזזת הכלל ניוזלטרים למטה/ })).toBeDisabled();
  });

  it('turns a rule off at once through PUT /api/rules/{id}/active', async () => {
    let answer: (r: Response) => void = () => {};
    const fetch = server(() => [rule('1')], {
      'PUT /api/rules/1/active': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderPage();
    const toggle = await screen.findByRole('switch', { name: 'פעיל: כלל 1' });
    await userEvent.setup().click(toggle);
    // Optimistic: off before the server answered.
    expect(toggle).not.toBeChecked();
    const put = calls(fetch, 'PUT', '/api/rules/1/active');
    expect(put).toHaveLength(1);
    expect(bodyOf(put[0])).toEqual({ is_active: false });
    answer(json(200, rule('1', { is_active: false })));
    await waitFor(() => expect(row('1')).toHaveAttribute('data-active', 'false'));
    expect(toggle).not.toBeChecked();
    expect(toasts()).toEqual([]);
  });

  it('puts the switch back and says so when the server refuses', async () => {
    server(() => [rule('1', { is_active: false })], {
      'PUT /api/rules/1/active': () => json(404, { success: false, error: 'not_found', message: 'הכלל לא נמצא' }),
    });
    renderPage();
    const toggle = await screen.findByRole('switch', { name: 'פעיל: כלל 1' });
    await userEvent.setup().click(toggle);
    await waitFor(() => expect(toasts()).toEqual([{ kind: 'error', text: 'שגיאה בעדכון הכלל: הכלל לא נמצא' }]));
    expect(toggle).not.toBeChecked();
  });

  it('moves a rule down with the new order from the server', async () => {
    let rules = [rule('1'), rule('2'), rule('3')];
    const fetch = server(() => rules, {
      'PUT /api/rules/order': (init) => {
        const { ids } = JSON.parse(String(init?.body)) as { ids: string[] };
        rules = ids.map((id) => rules.find((r) => r.id === id)!);
        return json(200, { rules });
      },
    });
    renderPage();
    await screen.findByTestId('rule-list');
    await userEvent.setup().click(within(row('1')).getByRole('button', { name: /הזזת הכלל כלל 1 למטה/ }));
    await waitFor(() => expect(screen.getAllByTestId('rule-row').map((r) => r.dataset.id)).toEqual(['2', '1', '3']));
    expect(bodyOf(calls(fetch, 'PUT', '/api/rules/order')[0])).toEqual({ ids: ['2', '1', '3'] });
  });

  it('keeps save disabled until the rule has a name, a condition and an action, then creates it active', async () => {
    const created = rule('9', { name: 'חשבוניות' });
    const fetch = server(() => [], { 'POST /api/rules': () => json(200, created) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('rules-add'));
    const form = screen.getByTestId('rule-form');
    const save = within(form).getByTestId('rule-form-save');
    expect(save).toBeDisabled();
    expect(within(form).getByTestId('rule-form-missing')).toHaveTextContent('כדי לשמור חסרים: שם, פעולה אחת לפחות');

    // A blank name does not count (spec 001 §5: trimmed).
    await user.type(within(form).getByTestId('rule-form-name'), '   ');
    expect(save).toBeDisabled();
    await user.type(within(form).getByTestId('rule-form-name'), 'חשבוניות ');
    expect(save).toBeDisabled();
    expect(within(form).getByTestId('rule-form-missing')).toHaveTextContent('כדי לשמור חסרים: פעולה אחת לפחות');

    await user.type(within(form).getByTestId('condition-value'), 'חשבונית');
    await user.click(within(form).getByTestId('rule-form-add-action'));
    expect(within(form).getByTestId('action-kind')).toHaveFocus();
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Invoices' })).toBeInTheDocument());
    await user.selectOptions(within(form).getByTestId('action-value'), 'Invoices');
    expect(save).toBeEnabled();
    expect(within(form).queryByTestId('rule-form-missing')).not.toBeInTheDocument();

    // Without its only condition it cannot be saved again.
    await user.click(within(form).getByTestId('condition-remove'));
    expect(save).toBeDisabled();
    expect(within(form).getByText('אין עדיין תנאים.')).toBeInTheDocument();
    await user.click(within(form).getByTestId('rule-form-add-condition'));
    await user.type(within(form).getByTestId('condition-value'), 'חשבונית');

    await user.click(save);
    await waitFor(() => expect(screen.queryByTestId('rule-form')).not.toBeInTheDocument());
    const sent = bodyOf(calls(fetch, 'POST', '/api/rules')[0]) as RuleInput;
    expect(sent).toEqual({
      name: 'חשבוניות',
      is_active: true,
      match_all: true,
      conditions: [{ field: 'subject', negate: false, value: 'חשבונית', header: '' }],
      actions: [{ kind: 'move_to_folder', value: 'Invoices' }],
      stop: false,
    });
    expect(await screen.findByTestId('rule-list')).toBeInTheDocument();
    expect(screen.getAllByTestId('rule-name').map((n) => n.textContent)).toEqual(['חשבוניות']);
    expect(toasts()).toEqual([{ kind: 'success', text: 'הכלל "חשבוניות" נוצר' }]);
  });

  it("shows the server's 400 message in the form and keeps everything typed", async () => {
    const existing = rule('4', {
      name: 'העברה',
      actions: [{ kind: 'forward_to', value: 'noa@example' }],
    });
    const fetch = server(() => [existing], {
      'PUT /api/rules/4': () => json(400, { success: false, error: 'bad_request', message: 'כתובת ההעברה אינה תקינה' }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'עריכת הכלל העברה' }));
    const form = screen.getByTestId('rule-form');
    expect(form).toHaveTextContent('עריכת כלל');
    expect(within(form).getByTestId('rule-form-name')).toHaveValue('העברה');
    await user.click(within(form).getByTestId('rule-form-stop'));
    await user.click(within(form).getByTestId('rule-form-save'));

    expect(await within(form).findByTestId('rule-form-error')).toHaveTextContent('כתובת ההעברה אינה תקינה');
    expect(screen.getByTestId('rule-form')).toBeInTheDocument();
    expect(within(form).getByTestId('rule-form-name')).toHaveValue('העברה');
    expect(within(form).getByTestId('action-value')).toHaveValue('noa@example');
    expect(within(form).getByTestId('rule-form-stop')).toBeChecked();
    expect(within(form).getByTestId('rule-form-save')).toBeEnabled();
    expect((bodyOf(calls(fetch, 'PUT', '/api/rules/4')[0]) as RuleInput).stop).toBe(true);
  });

  it('asks to confirm a new forward address, shows it, and sends the confirmation', async () => {
    let saved: Rule[] = [];
    const fetch = server(() => saved, {
      'POST /api/rules': (init) => {
        const input = JSON.parse(String(init?.body)) as RuleInput;
        saved = [rule('9', { name: input.name, actions: input.actions })];
        return json(200, saved[0]);
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('rules-add'));
    const form = screen.getByTestId('rule-form');
    await user.type(within(form).getByTestId('rule-form-name'), 'לנועה');
    await user.type(within(form).getByTestId('condition-value'), 'חשבונית');
    await user.click(within(form).getByTestId('rule-form-add-action'));
    await user.selectOptions(within(form).getByTestId('action-kind'), 'forward_to');
    await user.type(within(form).getByTestId('action-value'), 'Noa@Example.test');
    await user.click(within(form).getByTestId('rule-form-save'));

    // Nothing is sent before the address is confirmed; going back keeps the form.
    expect(await screen.findByTestId('rule-forward-confirm')).toHaveTextContent('noa@example.test');
    expect(calls(fetch, 'POST', '/api/rules')).toHaveLength(0);
    await user.click(screen.getByTestId('confirm-no'));
    expect(screen.queryByTestId('rule-forward-confirm')).not.toBeInTheDocument();
    expect(calls(fetch, 'POST', '/api/rules')).toHaveLength(0);

    await user.click(within(form).getByTestId('rule-form-save'));
    await user.click(await screen.findByTestId('confirm-yes'));
    await waitFor(() => expect(screen.queryByTestId('rule-form')).not.toBeInTheDocument());
    const sent = bodyOf(calls(fetch, 'POST', '/api/rules')[0]) as RuleInput;
    expect(sent.confirm_forward).toBe('noa@example.test');
  });

  it('marks a restored rule whose forward waits for confirmation', async () => {
    server(() => [rule('5', { name: 'משוחזר', actions: [{ kind: 'forward_to', value: 'x@example.test' }], forward_pending: true })]);
    renderPage();
    expect(await screen.findByTestId('rule-forward-pending')).toHaveTextContent('ההעברה ממתינה לאישור');
  });

  it('says when the folder a rule moves mail into is gone', async () => {
    server(() => [rule('6', { name: 'חשבוניות', missing_folder: 'Invoices' }), rule('7', { name: 'אחר' })]);
    renderPage();
    const [warning] = await screen.findAllByTestId('rule-missing-folder');
    expect(warning).toHaveTextContent('התיקייה „Invoices” כבר לא קיימת בתיבת הדואר');
    expect(screen.getAllByTestId('rule-missing-folder')).toHaveLength(1);
  });

  it('forgets what was typed when the form is closed', async () => {
    server(() => []);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('rules-add'));
    await user.type(screen.getByTestId('rule-form-name'), 'טיוטה');
    await user.click(screen.getByTestId('rule-form-cancel'));
    expect(screen.queryByTestId('rule-form')).not.toBeInTheDocument();
    // The header's button (the empty state has its own too).
    await user.click(screen.getAllByTestId('rules-add')[0]);
    expect(screen.getByTestId('rule-form-name')).toHaveValue('');
  });

  it('deletes a rule after the confirmation', async () => {
    let rules = [rule('1'), rule('2')];
    const fetch = server(() => rules, {
      'DELETE /api/rules/1': () => {
        rules = rules.filter((r) => r.id !== '1');
        return json(200, { success: true });
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'מחיקת הכלל כלל 1' }));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('למחוק את הכלל "כלל 1"?');
    expect(dialog).toHaveTextContent('מיילים שהכלל כבר טיפל בהם נשארים כפי שהם.');
    await user.click(within(dialog).getByTestId('confirm-yes'));
    await waitFor(() => expect(screen.getAllByTestId('rule-row').map((r) => r.dataset.id)).toEqual(['2']));
    expect(calls(fetch, 'DELETE', '/api/rules/1')).toHaveLength(1);
    expect(toasts()).toEqual([{ kind: 'success', text: 'הכלל "כלל 1" נמחק' }]);
  });

  it('runs a rule on existing mail after showing what it matches, then re-reads the mail', async () => {
    const fetch = server(() => [rule('1')], {
      'POST /api/rules/1/preview': () =>
        json(200, {
          count: 2,
          scanned: 40,
          sample: [
            { id: '11', subject: 'חשבונית מרץ', from: 'bank@example.test', date: '2026-03-01T08:00:00Z' },
            { id: '12', subject: '', from: 'shop@example.test', date: '2026-03-02T08:00:00Z' },
          ],
        }),
      'POST /api/rules/1/run': () => json(200, { matched: 2, applied: 1 }),
      'GET /api/rules/1/activity': () => json(200, { items: [] }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('rule-run'));
    const dialog = screen.getByTestId('rule-run-dialog');
    expect(await within(dialog).findByTestId('rule-run-question')).toHaveTextContent('הכלל יחול על 2 מיילים בדואר הנכנס. להמשיך?');
    const sample = within(dialog).getByRole('list', { name: 'המיילים שהכלל יחול עליהם' });
    expect(within(sample).getAllByRole('listitem')).toHaveLength(2);
    expect(sample).toHaveTextContent('חשבונית מרץ');
    expect(sample).toHaveTextContent('(ללא נושא)');
    expect(calls(fetch, 'POST', '/api/rules/1/run')).toHaveLength(0);
    expect(calls(fetch, 'GET', '/api/emails/counts')).toHaveLength(1);

    await user.click(within(dialog).getByTestId('rule-run-confirm'));
    const done = await within(dialog).findByTestId('rule-run-done');
    expect(done).toHaveTextContent('הכלל הוחל על מייל אחד');
    expect(within(dialog).getByTestId('rule-run-partial')).toHaveTextContent('במייל אחד פעולה לא הצליחה');
    expect(calls(fetch, 'POST', '/api/rules/1/run')).toHaveLength(1);
    // The mail it changed: the counts (and any mail list) are read again.
    await waitFor(() => expect(calls(fetch, 'GET', '/api/emails/counts')).toHaveLength(2));

    // The partial result leads to the activity, where the failure is explained.
    await user.click(within(dialog).getByTestId('rule-run-activity'));
    expect(screen.queryByTestId('rule-run-dialog')).not.toBeInTheDocument();
    expect(await screen.findByTestId('rule-activity-empty')).toHaveTextContent('הכלל עדיין לא הופעל על אף מייל.');
  });

  it("shows a rule's activity: each mail and what every action did", async () => {
    server(() => [rule('1')], {
      'GET /api/rules/1/activity': () =>
        json(200, {
          items: [
            {
              at: '2026-03-04T10:00:00Z',
              email_id: '11',
              subject: 'חשבונית מרץ',
              from: 'bank@example.test',
              outcomes: [
                { kind: 'move_to_folder', value: 'Invoices', ok: false, error: 'התיקייה לא נמצאה בתיבת הדואר' },
                { kind: 'mark_as_read', value: '', ok: true, error: null },
              ],
            },
          ],
        }),
    });
    renderPage();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'הצגת הפעילות של הכלל כלל 1' }));
    const dialog = screen.getByTestId('rule-activity-dialog');
    const item = await within(dialog).findByTestId('rule-activity-item');
    expect(item).toHaveTextContent('חשבונית מרץ');
    expect(item).toHaveTextContent('bank@example.test');
    const outcomes = item.querySelectorAll('.rule-activity__outcome');
    expect(outcomes[0]).toHaveTextContent('נכשל');
    expect(outcomes[0]).toHaveTextContent('העבר לתיקייה Invoices');
    expect(outcomes[0]).toHaveTextContent('התיקייה לא נמצאה בתיבת הדואר');
    expect(outcomes[1]).toHaveTextContent('בוצע');
    expect(outcomes[1]).toHaveTextContent('סמן כנקרא');
  });
});
