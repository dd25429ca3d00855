// Spam and advertisement detection (issue 18; spec 001 §3 "Spam-detection settings", §7; spec 000
// the Spam and Promotions folders' 'load and classify' and 'debug'): typed calls and SWR keys so
// the settings card, the folders' tools and the live notice never spell a path or a body shape.

import { api } from './client';
import type { SaveSpamSettingsResponse, SpamClassifyProgress, SpamSettings } from './generated';

export type {
  SaveSpamSettingsResponse,
  SpamActivity,
  SpamBreakdown,
  SpamBreakdownHit,
  SpamClassifyProgress,
  SpamDecision,
  SpamSettings,
  SpamVerdict,
} from './generated';

/** Spec 001 §5, §9: both thresholds are whole numbers 1 to 10; defaults 4 (spam) and 2 (suspicious). */
export const THRESHOLD_RANGE = { min: 1, max: 10 } as const;
/** 'Load and classify' is polled this often while it runs. */
export const CLASSIFY_POLL_MS = 500;

export const spamKeys = {
  settings: () => '/api/settings/spam-detection',
  activity: () => '/api/spam/activity',
  classify: () => '/api/spam/classify',
  debug: (id: string) => `/api/spam/debug/${encodeURIComponent(id)}`,
} as const;

/** Whether an SWR key is the spam card's (re-read after a mail was judged spam). */
export function isSpamKey(key: unknown): boolean {
  return typeof key === 'string' && (key.startsWith('/api/spam/') || key === spamKeys.settings());
}

/**
 * Saves the fields given (the server keeps the rest). `apiKey`: a key typed in the card, sent in
 * `x-api-key` so turning the AI check on can store it.
 */
export function saveSpamSettings(update: Partial<SpamSettings>, apiKey?: string): Promise<SaveSpamSettingsResponse> {
  return api<SaveSpamSettingsResponse>(spamKeys.settings(), {
    method: 'POST',
    body: update,
    headers: apiKey ? { 'x-api-key': apiKey } : undefined,
  });
}

/** Starts 'load and classify' over the user's inboxes; the answer is its first progress. */
export const startClassify = () => api<SpamClassifyProgress>(spamKeys.classify(), { method: 'POST' });

export const classifyProgress = () => api<SpamClassifyProgress>(spamKeys.classify());

export const clearSpamActivity = () => api<{ success: boolean }>(spamKeys.activity(), { method: 'DELETE' });

/** A threshold's text as the server takes it: a whole number 1–10, else null. */
export function parseThreshold(text: string): number | null {
  const v = text.trim();
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n >= THRESHOLD_RANGE.min && n <= THRESHOLD_RANGE.max ? n : null;
}
