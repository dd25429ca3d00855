// The spam feature's tests: the server's defaults (spam/settings.rs), an empty activity list, a
// breakdown, and a fake server that keeps the settings as the real one does (a POST merges the
// fields it is given, with the real one's checks and Hebrew messages).

import type { SpamActivity, SpamBreakdown, SpamSettings } from '../../api/spam';
import { json } from '../../test/helpers';

export const SPAM_DEFAULTS: SpamSettings = {
  enabled: true,
  useAI: false,
  autoMoveSpam: true,
  autoMoveAds: true,
  spamThreshold: 4,
  suspiciousThreshold: 2,
  customKeywords: '',
  customDomains: '',
  whitelistDomains: '',
  whitelistSenders: '',
  logActivity: true,
  notifyOnSpam: false,
};

export const NO_ACTIVITY: SpamActivity = { logging: true, decisions: [], trainedSpam: 0, trainedHam: 0 };

export const BREAKDOWN: SpamBreakdown = {
  id: 7,
  score: 9.5,
  storedScore: 9.5,
  verdict: 'spam',
  status: 'spam',
  spamThreshold: 4,
  suspiciousThreshold: 2,
  spamminess: 0.987,
  advertisement: false,
  hits: [
    { rule: 'FROM_BRAND_MISMATCH', label: 'שם תצוגה של מותג מדומיין זר', points: 3, detail: 'Bank Leumi <secure@leumi-verify.example>' },
    { rule: 'URL_IP', label: 'קישור לכתובת IP', points: 2.5, detail: 'http://192.0.2.7/login' },
    { rule: 'CONTACT', label: 'שולח מאנשי הקשר', points: -1, detail: '' },
  ],
};

/** The settings page's spam card reads these (shared with settingsFixtures' NO_MAILBOX). */
export const SPAM_ROUTES = {
  'GET /api/settings/spam-detection': () => json(200, SPAM_DEFAULTS),
  'GET /api/spam/activity': () => json(200, NO_ACTIVITY),
};

/** A server keeping the settings as the real one does. */
export function spamServer(initial: Partial<SpamSettings> = {}, initialActivity: SpamActivity = NO_ACTIVITY) {
  let settings: SpamSettings = { ...SPAM_DEFAULTS, ...initial };
  let activity = initialActivity;
  return {
    'GET /api/settings/spam-detection': () => json(200, settings),
    'POST /api/settings/spam-detection': (init: RequestInit | undefined) => {
      const next = { ...settings, ...(JSON.parse(String(init?.body)) as Partial<SpamSettings>) };
      const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= 10;
      if (!ok(next.spamThreshold) || !ok(next.suspiciousThreshold)) {
        return json(400, { success: false, error: 'bad_request', message: 'ספי הספאם הם מספרים שלמים בין 1 ל-10' });
      }
      if (next.suspiciousThreshold > next.spamThreshold) {
        return json(400, { success: false, error: 'bad_request', message: 'סף החשוד לא יכול להיות גבוה מסף הספאם' });
      }
      settings = next;
      return json(200, { success: true, settings });
    },
    'GET /api/spam/activity': () => json(200, activity),
    'DELETE /api/spam/activity': () => {
      activity = { ...activity, decisions: [] };
      return json(200, { success: true });
    },
  };
}
