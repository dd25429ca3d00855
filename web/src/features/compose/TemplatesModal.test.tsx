// The template picker: applying fills subject ({{original_subject}} replaced) and body; the
// current mail can be saved as a template (name required); templates are edited and deleted.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/helpers';
import { TEMPLATES, bodyHtml, bodyOf, calls, composeServer, renderCompose, toasts, typeBody } from './composeFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const item = (name: string) =>
  screen.getAllByTestId('template-item').find((el) => el.dataset.name === name) as HTMLElement;

async function openTemplates(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('templates-open'));
  const modal = screen.getByTestId('templates-modal');
  await within(modal).findAllByTestId('template-item');
  return modal;
}

describe('templates', () => {
  it('lists the templates; applying one in a reply puts the replied subject in the placeholder', async () => {
    composeServer();
    renderCompose(`/Compose?${new URLSearchParams({ replyTo: 'dana@example.test', replySubject: 'הצעת מחיר' })}`);
    const user = userEvent.setup();
    const modal = await openTemplates(user);
    expect(within(modal).getAllByTestId('template-item').map((el) => el.dataset.name)).toEqual(['תודה', 'פגישה']);

    await user.click(within(item('תודה')).getByTestId('template-apply'));
    expect(screen.queryByTestId('templates-modal')).not.toBeInTheDocument();
    expect(screen.getByTestId('compose-subject')).toHaveValue('Re: הצעת מחיר');
    expect(bodyHtml()).toBe('<p dir="rtl">תודה רבה על פנייתך.</p>');
  });

  it('a click on the row (not on its buttons) applies it too', async () => {
    const fetch = composeServer();
    renderCompose();
    const user = userEvent.setup();
    await openTemplates(user);
    await user.click(within(item('פגישה')).getByText('תיאום פגישה'));
    expect(screen.queryByTestId('templates-modal')).not.toBeInTheDocument();
    expect(screen.getByTestId('compose-subject')).toHaveValue('תיאום פגישה');
    expect(bodyHtml()).toBe('<p dir="rtl">מתי נוח לך להיפגש?</p>');
    // Edit and delete on a row do only that.
    await openTemplates(user);
    await user.click(within(item('פגישה')).getByTestId('template-edit'));
    expect(screen.getByTestId('templates-modal')).toBeInTheDocument();
    await user.click(screen.getByTestId('template-edit-name'));
    expect(screen.getByTestId('templates-modal')).toBeInTheDocument();
    expect(calls(fetch, 'PUT', '/api/templates/t2')).toHaveLength(0);
  });

  it('outside a reply the placeholder takes the current subject', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('compose-subject'), 'עדכון');
    await openTemplates(user);
    await user.click(within(item('תודה')).getByTestId('template-apply'));
    expect(screen.getByTestId('compose-subject')).toHaveValue('Re: עדכון');
  });

  it('a plain-text template body becomes paragraphs', async () => {
    composeServer({
      'GET /api/templates': () => json(200, { templates: [{ id: 't9', name: 'טקסט', subject: '', body: 'שורה 1\n\nשורה <2>' }] }),
    });
    renderCompose();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('compose-subject'), 'נשאר');
    await openTemplates(user);
    await user.click(screen.getByTestId('template-apply'));
    // An empty template subject leaves the subject alone.
    expect(screen.getByTestId('compose-subject')).toHaveValue('נשאר');
    expect(bodyHtml()).toBe('<p dir="rtl">שורה 1</p><p dir="rtl">שורה &lt;2&gt;</p>');
  });

  it('saving the current mail needs a name, then creates the template from subject and body', async () => {
    const fetch = composeServer({
      'POST /api/templates': (init) => {
        const body = JSON.parse(String(init?.body));
        return json(200, { success: true, template: { id: 't3', ...body } });
      },
    });
    renderCompose();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('compose-subject'), 'הזמנה לכנס');
    typeBody('<p><b>נשמח</b> לראותך</p>');
    const modal = await openTemplates(user);

    await user.click(within(modal).getByTestId('template-save-current'));
    expect(within(modal).getByTestId('template-error')).toHaveTextContent('שם התבנית חסר');
    expect(calls(fetch, 'POST', '/api/templates')).toHaveLength(0);

    await user.type(within(modal).getByTestId('template-name'), 'כנס');
    await user.click(within(modal).getByTestId('template-save-current'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/templates')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/templates')[0])).toEqual({
      name: 'כנס',
      subject: 'הזמנה לכנס',
      body: '<p dir="rtl"><b>נשמח</b> לראותך</p>',
    });
    await waitFor(() => expect(within(modal).getAllByTestId('template-item').map((el) => el.dataset.name)).toContain('כנס'));
    expect(within(modal).getByTestId('template-name')).toHaveValue('');
    expect(toasts()).toContainEqual({ kind: 'success', text: 'התבנית נשמרה' });
  });

  it('a template is edited in place with PUT', async () => {
    const fetch = composeServer({
      'PUT /api/templates/t2': (init) => json(200, { success: true, template: JSON.parse(String(init?.body)) }),
    });
    renderCompose();
    const user = userEvent.setup();
    const modal = await openTemplates(user);
    await user.click(within(item('פגישה')).getByTestId('template-edit'));
    const name = within(modal).getByTestId('template-edit-name');
    await user.clear(name);
    await user.type(name, 'פגישת צוות');
    await user.click(within(modal).getByTestId('template-edit-save'));

    await waitFor(() => expect(calls(fetch, 'PUT', '/api/templates/t2')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/templates/t2')[0])).toEqual({ ...TEMPLATES[1], name: 'פגישת צוות' });
    await waitFor(() => expect(within(modal).getAllByTestId('template-item').map((el) => el.dataset.name)).toEqual(['תודה', 'פגישת צוות']));
  });

  it('a template is deleted with DELETE and leaves the list', async () => {
    const fetch = composeServer({ 'DELETE /api/templates/t1': () => json(200, { success: true }) });
    renderCompose();
    const user = userEvent.setup();
    const modal = await openTemplates(user);
    await user.click(within(item('תודה')).getByTestId('template-delete'));
    await waitFor(() => expect(calls(fetch, 'DELETE', '/api/templates/t1')).toHaveLength(1));
    await waitFor(() => expect(within(modal).getAllByTestId('template-item').map((el) => el.dataset.name)).toEqual(['פגישה']));
  });
});
