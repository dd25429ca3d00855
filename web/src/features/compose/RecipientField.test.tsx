// Recipient chips (spec 000 §5): Enter, comma or leaving the field adds; '@' and '.' are needed;
// a duplicate in the same list is refused; Backspace and × remove; cc/bcc rows by toggles; recent
// contacts and the address book add to To.

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calls, chips, composeServer, renderCompose } from './composeFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const toRow = () => screen.getByTestId('compose-to').closest('.recipient-row') as HTMLElement;

describe('recipient chips', () => {
  it('Enter, comma and blur turn the typed address into a chip', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    const input = await screen.findByTestId('compose-to');

    await user.type(input, 'a@example.test{Enter}');
    await user.type(input, 'b@example.test,');
    await user.type(input, 'c@example.test');
    await user.click(screen.getByTestId('compose-subject'));

    expect(chips()).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
    expect(input).toHaveValue('');
    expect(screen.queryByTestId('compose-error')).not.toBeInTheDocument();
  });

  it('Ctrl+Enter with an address still typed makes it a chip and does not send yet', async () => {
    const fetch = composeServer();
    renderCompose();
    const user = userEvent.setup();
    const input = await screen.findByTestId('compose-to');
    await user.type(screen.getByTestId('compose-subject'), 'נושא');
    await user.type(input, 'a@example.test{Enter}');
    await user.type(input, 'b@example.test');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(chips()).toEqual(['a@example.test', 'b@example.test']);
    expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(0);
  });

  it('an address without @ or . is refused with the Hebrew message and stays to be fixed', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    const input = await screen.findByTestId('compose-to');

    await user.type(input, 'dana.example.test{Enter}');
    expect(screen.getByTestId('compose-error')).toHaveTextContent('אנא הזן כתובת מייל תקינה');
    expect(input).toHaveValue('dana.example.test');
    expect(chips()).toEqual([]);

    await user.clear(input);
    await user.type(input, 'dana@example{Enter}');
    expect(screen.getByTestId('compose-error')).toHaveTextContent('אנא הזן כתובת מייל תקינה');

    // Fixing it clears the message.
    await user.clear(input);
    await user.type(input, 'dana@example.test{Enter}');
    expect(chips()).toEqual(['dana@example.test']);
    expect(screen.queryByTestId('compose-error')).not.toBeInTheDocument();
  });

  it('a duplicate in the same list is refused, in any letter case', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    const input = await screen.findByTestId('compose-to');

    await user.type(input, 'dana@example.test{Enter}');
    await user.type(input, 'Dana@Example.test{Enter}');
    expect(screen.getByTestId('compose-error')).toHaveTextContent('הנמען כבר נוסף');
    expect(chips()).toEqual(['dana@example.test']);
  });

  it('the same address may be in To and in Cc (the rule is per list)', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('compose-to'), 'dana@example.test{Enter}');
    await user.click(screen.getByTestId('compose-cc-toggle'));
    await user.type(screen.getByTestId('compose-cc'), 'dana@example.test{Enter}');
    expect(chips()).toEqual(['dana@example.test', 'dana@example.test']);
    expect(screen.queryByTestId('compose-error')).not.toBeInTheDocument();
  });

  it('a pasted list becomes several chips', async () => {
    composeServer();
    renderCompose();
    const input = await screen.findByTestId('compose-to');
    fireEvent.paste(input, { clipboardData: { getData: () => 'a@example.test, Bo <b@example.test>; c@example.test' } });
    expect(chips()).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
  });

  it('Backspace in the empty input removes the last chip; × removes that chip', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    const input = await screen.findByTestId('compose-to');
    await user.type(input, 'a@example.test{Enter}b@example.test{Enter}c@example.test{Enter}');

    await user.type(input, '{Backspace}');
    expect(chips()).toEqual(['a@example.test', 'b@example.test']);

    const chipA = screen.getAllByTestId('recipient-chip')[0];
    await user.click(within(chipA).getByRole('button', { name: 'הסרת a@example.test' }));
    expect(chips()).toEqual(['b@example.test']);
  });

  it('cc and bcc rows are shown by their toggles and keep their own chips', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    expect(screen.queryByTestId('compose-cc')).not.toBeInTheDocument();
    expect(screen.queryByTestId('compose-bcc')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('compose-cc-toggle'));
    await user.click(screen.getByTestId('compose-bcc-toggle'));
    await user.type(screen.getByTestId('compose-cc'), 'c@example.test{Enter}');
    await user.type(screen.getByTestId('compose-bcc'), 'b@example.test{Enter}');

    const ccRow = screen.getByTestId('compose-cc').closest('.recipient-row') as HTMLElement;
    const bccRow = screen.getByTestId('compose-bcc').closest('.recipient-row') as HTMLElement;
    expect(chips(ccRow)).toEqual(['c@example.test']);
    expect(chips(bccRow)).toEqual(['b@example.test']);
    expect(chips(toRow())).toEqual([]);

    // A row with addresses cannot be hidden (they would still be sent); an empty one can.
    expect(screen.getByTestId('compose-cc-toggle')).toBeDisabled();
    await user.click(within(bccRow).getByRole('button', { name: 'הסרת b@example.test' }));
    await user.click(screen.getByTestId('compose-bcc-toggle'));
    expect(screen.queryByTestId('compose-bcc')).not.toBeInTheDocument();
  });
});

describe('adding from contacts', () => {
  it('a recent contact adds to To; a second click says it is already there', async () => {
    const fetch = composeServer();
    renderCompose();
    const user = userEvent.setup();
    const recent = await screen.findAllByTestId('recent-contact');
    expect(recent.map((b) => b.dataset.email)).toEqual(['yossi@example.test', 'office@example.test']);
    expect(calls(fetch, 'GET', '/api/compose/recent-contacts')).toHaveLength(1);

    await user.click(recent[0]);
    expect(chips(toRow())).toEqual(['yossi@example.test']);
    await user.click(recent[0]);
    expect(screen.getByTestId('compose-error')).toHaveTextContent('הנמען כבר נוסף');
    expect(chips(toRow())).toEqual(['yossi@example.test']);
  });

  it('at most 5 recent contacts are shown', async () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}`, name: `איש ${i}`, email: `p${i}@example.test` }));
    composeServer({ 'GET /api/compose/recent-contacts': () => new Response(JSON.stringify({ contacts: many })) });
    renderCompose();
    await waitFor(() => expect(screen.getAllByTestId('recent-contact')).toHaveLength(5));
  });

  it('the address book searches and adds to To', async () => {
    const fetch = composeServer();
    renderCompose();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('address-book-open'));
    const book = screen.getByTestId('address-book');
    const items = await within(book).findAllByTestId('address-book-item');
    expect(items.map((b) => b.dataset.email)).toEqual(['ronit@example.test', 'avi@example.test']);
    // A saved contact (first, as the server orders them) carries the marker; the others do not.
    expect(within(items[0]).getByTestId('address-book-saved')).toHaveTextContent('איש קשר');
    expect(within(items[1]).queryByTestId('address-book-saved')).not.toBeInTheDocument();

    await user.type(within(book).getByTestId('address-book-search'), 'avi');
    await waitFor(() =>
      expect(within(book).getAllByTestId('address-book-item').map((b) => b.dataset.email)).toEqual(['avi@example.test']),
    );
    expect(calls(fetch, 'GET', '/api/compose/address-book').some(([url]) => String(url).endsWith('?q=avi'))).toBe(true);

    await user.click(within(book).getByTestId('address-book-item'));
    expect(chips(toRow())).toEqual(['avi@example.test']);
    expect(within(book).getByTestId('address-book-item')).toHaveAttribute('aria-pressed', 'true');

    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('address-book')).not.toBeInTheDocument();
  });
});
