// The auto-reply card's tests: a server that keeps the settings as the real one does (a POST
// merges the fields it is given), the AI key's status, stats and activity as given, and helpers
// to find the saves a test made.

import type { AiSettings } from '../../api/ai';
import type { AutoReplyActivityItem, AutoReplySettings, AutoReplyStats } from '../../api/autoReply';
import { calls, DANA, json, mockFetch } from '../../test/helpers';
import { AI_SETTINGS } from '../ai/aiFixtures';

export { calls };

export type Fetch = ReturnType<typeof mockFetch>;
export type Handler = Parameters<typeof mockFetch>[0][string];

/** The server's defaults (autoreply/settings.rs). */
export const DEFAULTS: AutoReplySettings = {
  autoReplyEnabled: false,
  autoReplyOnlyWorkHours: false,
  autoReplyWorkStart: '09:00',
  autoReplyWorkEnd: '17:00',
  autoReplyWorkDays: [1, 2, 3, 4, 5],
  autoReplyOnlyPersonal: true,
  autoReplyTone: 'professional',
  autoReplyLength: 'medium',
  autoReplyCreativity: 0.7,
  autoReplyBlacklist: '',
  autoReplyWhitelist: '',
  autoReplyMaxPerDay: 1000,
  autoReplyNoRepeat: true,
  autoReplyExcludeAutomated: true,
  autoReplyExcludeSpam: true,
  autoReplyNotifications: true,
  autoReplyCheckInterval: 2,
};

export const STATS: AutoReplyStats = {
  todayCount: 0,
  totalAutoReplyDrafts: 0,
  isMonitoring: false,
  lastCheck: null,
  remainingToday: 1000,
  maxPerDay: 1000,
  waiting: 0,
};

const AI: AiSettings = AI_SETTINGS;

export function activityItem(over: Partial<AutoReplyActivityItem> = {}): AutoReplyActivityItem {
  return {
    at: '2026-03-05T12:30:00Z',
    from: 'noa@example.test',
    fromName: 'נועה לוי',
    subject: 'תיאום פגישה',
    reason: 'answered',
    text: 'נכתבה טיוטת תשובה',
    detail: null,
    replyToElsewhere: null,
    ...over,
  };
}

export interface ServerOptions {
  settings?: Partial<AutoReplySettings>;
  /** Whether an AI key is stored; `keyRequired` false is a provider that needs none. */
  keyStored?: boolean;
  keyRequired?: boolean;
  stats?: Partial<AutoReplyStats>;
  activity?: AutoReplyActivityItem[];
  routes?: Record<string, Handler>;
}

export function autoReplyServer(options: ServerOptions = {}) {
  let settings: AutoReplySettings = { ...DEFAULTS, ...options.settings };
  let keyStored = options.keyStored ?? false;
  const keyRequired = options.keyRequired ?? true;
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/settings/claude-api-key/exists': () => json(200, { exists: keyStored }),
    'GET /api/settings/ai': () => json(200, { ...AI, keyStored, keyRequired }),
    'GET /api/auto-reply/settings': () => json(200, settings),
    'POST /api/auto-reply/settings': (init) => {
      const body = JSON.parse(String(init?.body)) as Partial<AutoReplySettings>;
      const typed = new Headers(init?.headers).get('x-api-key');
      const turningOn = body.autoReplyEnabled === true && !settings.autoReplyEnabled;
      if (turningOn && typed) keyStored = true;
      if (turningOn && !keyStored && keyRequired) {
        return json(400, {
          success: false,
          error: 'bad_request',
          message: 'חסר מפתח API של AI, הזן מפתח לפני הפעלת המענה האוטומטי',
        });
      }
      settings = { ...settings, ...body };
      return json(200, { success: true, settings });
    },
    'GET /api/auto-reply/stats': () => json(200, { ...STATS, ...options.stats }),
    'GET /api/auto-reply/activity': () => json(200, { items: options.activity ?? [] }),
    ...options.routes,
  });
}

/** The bodies of the settings saves, in order. */
export function saves(fetch: Fetch): Partial<AutoReplySettings>[] {
  return calls(fetch, 'POST', '/api/auto-reply/settings').map(([, init]) => JSON.parse(String(init?.body)));
}
