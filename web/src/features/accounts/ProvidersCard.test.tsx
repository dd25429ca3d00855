import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MailProvider } from '../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { ProvidersCard } from './ProvidersCard';

function provider(p: Partial<MailProvider> & Pick<MailProvider, 'id' | 'name' | 'region'>): MailProvider {
  return {
    domains: [],
    imapServer: `imap.${p.id}.example`,
    imapPort: 993,
    imapSsl: true,
    smtpServer: `smtp.${p.id}.example`,
    smtpPort: 465,
    smtpSsl: true,
    note: '',
    ...p,
  };
}

const PROVIDERS: MailProvider[] = [
  provider({
    id: 'gmail',
    name: 'Gmail',
    region: 'international',
    imapServer: 'imap.gmail.com',
    smtpServer: 'smtp.gmail.com',
    note: 'נדרשת סיסמת אפליקציה (App Password) מהגדרות האבטחה של החשבון',
  }),
  provider({ id: 'walla', name: 'Walla', region: 'israeli', imapServer: 'imap.walla.co.il', smtpServer: 'smtp.walla.co.il' }),
  provider({
    id: 'outlook',
    name: 'Outlook / Hotmail',
    region: 'international',
    imapServer: 'outlook.office365.com',
    smtpServer: 'smtp-mail.outlook.com',
    smtpPort: 587,
    smtpSsl: false,
  }),
  provider({ id: 'bezeqint', name: 'Bezeq', region: 'israeli' }),
];

function server(answer: () => Response) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/providers': answer,
  });
}

function providerCalls(fetch: ReturnType<typeof mockFetch>) {
  return fetch.mock.calls.filter(([url]) => String(url) === '/api/providers').length;
}

function renderCard() {
  signInAs(DANA);
  return renderWithProviders(<ProvidersCard />, { route: '/Settings' });
}

describe('ProvidersCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('groups the providers by region, each with its servers left-to-right, and gives the tip', async () => {
    server(() => json(200, { providers: PROVIDERS }));
    renderCard();
    const card = screen.getByTestId('providers-card');
    expect(within(card).getByRole('heading', { level: 2, name: 'ספקים נתמכים' })).toBeInTheDocument();
    expect(within(card).getByRole('status')).toHaveTextContent('טוען את רשימת הספקים...');

    const international = await screen.findByTestId('providers-international');
    const israeli = screen.getByTestId('providers-israeli');
    expect(within(international).getByRole('heading', { level: 3 })).toHaveTextContent('ספקים בינלאומיים');
    expect(within(israeli).getByRole('heading', { level: 3 })).toHaveTextContent('ספקים ישראליים');
    // Each group's list is named by its heading, in the server's order.
    expect(within(international).getByRole('list', { name: 'ספקים בינלאומיים' })).toBeInTheDocument();
    expect(within(international).getAllByRole('listitem').map((li) => li.dataset.testid)).toEqual([
      'provider-gmail',
      'provider-outlook',
    ]);
    expect(within(israeli).getAllByRole('listitem').map((li) => li.dataset.testid)).toEqual([
      'provider-walla',
      'provider-bezeqint',
    ]);

    const gmail = screen.getByTestId('provider-gmail');
    expect(gmail).toHaveTextContent('Gmail');
    expect(gmail).toHaveTextContent('סיסמת אפליקציה');
    const imap = screen.getByTestId('provider-gmail-imap');
    expect(imap).toHaveTextContent('imap.gmail.com:993 SSL');
    expect(imap).toHaveAttribute('dir', 'ltr');
    // Without implicit TLS no "SSL" is claimed.
    expect(screen.getByTestId('provider-outlook-smtp')).toHaveTextContent(/^smtp-mail\.outlook\.com:587$/);
    expect(screen.getByTestId('provider-walla-smtp')).toHaveTextContent('smtp.walla.co.il:465 SSL');

    expect(screen.getByTestId('providers-tip')).toHaveTextContent('מנוחשים מהדומיין');
  });

  it('leaves out a region with no providers', async () => {
    server(() => json(200, { providers: PROVIDERS.filter((p) => p.region === 'international') }));
    renderCard();
    await screen.findByTestId('providers-international');
    expect(screen.queryByTestId('providers-israeli')).not.toBeInTheDocument();
  });

  it('shows a load failure with a retry, and a 2xx without a list as a failure too', async () => {
    let answer = () => json(500, { success: false, error: 'internal', message: 'שגיאה פנימית' });
    const fetch = server(() => answer());
    renderCard();
    const error = await screen.findByTestId('providers-error');
    expect(error).toHaveTextContent('לא ניתן לטעון את רשימת הספקים.');
    expect(error).toHaveTextContent('שגיאה פנימית');
    // The tip stays: it is true whatever the list says.
    expect(screen.getByTestId('providers-tip')).toBeInTheDocument();

    answer = () => json(200, { something: 'else' });
    await userEvent.setup().click(within(error).getByRole('button', { name: 'נסה שוב' }));
    await waitFor(() => expect(providerCalls(fetch)).toBe(2));
    expect(screen.getByTestId('providers-error')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    answer = () => json(200, { providers: PROVIDERS });
    await userEvent.setup().click(within(screen.getByTestId('providers-error')).getByRole('button', { name: 'נסה שוב' }));
    expect(await screen.findByTestId('provider-gmail')).toBeInTheDocument();
  });
});
