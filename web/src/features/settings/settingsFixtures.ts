// What the settings page reads besides the card under test: no mailbox connected, no AI key, the
// server's default AI provider. Shared by the settings tests' fetch mocks.
import { json } from '../../test/helpers';

/** The settings page also shows the mail account and AI cards; here no mailbox is connected. */
export const NO_MAILBOX = {
  'GET /api/auth/accounts': () => json(200, { success: true, accounts: [] }),
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
