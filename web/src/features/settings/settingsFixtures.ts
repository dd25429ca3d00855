// What the settings page reads besides the card under test: no mailbox connected, no AI key, the
// server's default AI provider, zero counts, no providers, no household settings or backup, and
// the auto-reply and spam cards' defaults. Shared by the settings tests' fetch mocks.
import { json } from '../../test/helpers';
import { DEFAULTS as AUTO_REPLY_DEFAULTS, STATS as AUTO_REPLY_STATS } from '../autoreply/autoReplyFixtures';
import { MCP_ROUTES } from '../mcp/mcpFixtures';
import { SPAM_ROUTES } from '../spam/spamFixtures';
import { AI_SETTINGS } from '../ai/aiFixtures';

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
  // No OAuth2 provider configured (issue 24): the card offers passwords only.
  'GET /api/oauth/providers': () => json(200, { providers: [] }),
  'GET /api/global-settings/email/exists': () => json(200, { exists: false, lastUpdated: null, updatedBy: null }),
  'GET /api/settings/backup': () => json(200, { exists: false, createdAt: null, sections: [] }),
  'GET /api/settings/claude-api-key/exists': () => json(200, { exists: false }),
  'GET /api/settings/ai': () => json(200, AI_SETTINGS),
  // The auto-reply card (features/autoreply): off, nothing checked yet.
  'GET /api/auto-reply/settings': () => json(200, AUTO_REPLY_DEFAULTS),
  'GET /api/auto-reply/stats': () => json(200, AUTO_REPLY_STATS),
  'GET /api/auto-reply/activity': () => json(200, { items: [] }),
  // The spam card (features/spam): the defaults, no decisions.
  ...SPAM_ROUTES,
  // The agent-access card (features/mcp): no token.
  ...MCP_ROUTES,
  // The label manager (features/labels): no label yet.
  'GET /api/labels': () => json(200, { labels: [], defaultColor: '#5f6368', palette: ['#1a73e8'], maxLabels: 100, maxName: 40 }),
  'GET /api/push': () => json(200, { enabled: true, publicKey: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8', devices: [] }),
};

/** The household's parts of the mail account card: no global settings, no backup kept. */
export const NO_HOUSEHOLD = {
  'GET /api/oauth/providers': () => json(200, { providers: [] }),
  'GET /api/global-settings/email/exists': () => json(200, { exists: false, lastUpdated: null, updatedBy: null }),
  'GET /api/settings/backup': () => json(200, { exists: false, createdAt: null, sections: [] }),
};

/** Global mail settings an admin saved (as anyone reads them: no password, no key). */
export const GLOBAL_MAIL = {
  email: 'family@home.example',
  imapServer: 'mail.home.example',
  imapPort: 993,
  imapSsl: true,
  smtpServer: 'smtp.home.example',
  smtpPort: 465,
  smtpSsl: true,
  passwordSet: true,
  claudeApiKeySet: false,
  lastUpdated: '2026-11-20T08:30:00Z',
  updatedBy: 'דנה כהן',
};

export const GLOBAL_MAIL_EXISTS = {
  'GET /api/global-settings/email/exists': () =>
    json(200, { exists: true, lastUpdated: GLOBAL_MAIL.lastUpdated, updatedBy: GLOBAL_MAIL.updatedBy }),
  'GET /api/global-settings/email': () => json(200, { hasSettings: true, settings: GLOBAL_MAIL }),
};
