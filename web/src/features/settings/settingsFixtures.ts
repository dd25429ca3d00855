// What the settings page reads besides the card under test: no mailbox connected, no AI key, the
// server's default AI provider, zero counts, no providers. Shared by the settings tests' fetch mocks.
import { json } from '../../test/helpers';

/** The settings page also shows the mail account and AI cards; here no mailbox is connected. */
export const NO_MAILBOX = {
  'GET /api/auth/accounts': () => json(200, { success: true, accounts: [] }),
  // The side column's quick stats and the providers list (cards/).
  'GET /api/emails/counts': () =>
    json(200, {
      inbox: 0,
      unread: 0,
      starred: 0,
      needsReply: 0,
      urgent: 0,
      processed: 0,
      spam: 0,
      advertisements: 0,
      info: 0,
      sent: 0,
      sentToday: 0,
      drafts: 0,
      trash: 0,
    }),
  'GET /api/providers': () => json(200, { providers: [] }),
  'GET /api/settings/claude-api-key/exists': () => json(200, { exists: false }),
  'GET /api/settings/ai': () =>
    json(200, {
      provider: 'anthropic',
      model: '',
      baseUrl: '',
      effective: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com' },
      defaults: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com' },
      keyStored: false,
      keyRequired: true,
      baseUrlEditable: true,
    }),
};
