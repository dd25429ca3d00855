// The AI auto-reply (spec 001 §2 "Auto-reply card", §3, §7; docs/API.md "Auto-reply"): typed
// calls so the card never spells a path or a body shape. Its SWR keys are in keys.ts.

import { api } from './client';
import type { AutoReplySettings, ClearAutoRepliesResponse, SaveAutoReplyResponse } from './generated';

export type {
  AutoReplyActivity,
  AutoReplyActivityItem,
  AutoReplyLength,
  AutoReplyReason,
  AutoReplySettings,
  AutoReplyStats,
  AutoReplyTone,
  ClearAutoRepliesResponse,
  SaveAutoReplyResponse,
} from './generated';

/** Spec 001 §9: the check interval's options, in minutes. */
export const CHECK_INTERVALS: readonly number[] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60];
/** Below this many minutes the card warns that drafts come before the user can act. */
export const RECOMMENDED_MIN_INTERVAL = 0.5;
/** The server's range for the daily maximum (the spec's default is its ceiling). */
export const MAX_PER_DAY_RANGE = { min: 1, max: 1000, specDefault: 1000 } as const;
export const CREATIVITY_RANGE = { min: 0.1, max: 1, step: 0.1 } as const;

/**
 * Saves the fields given (the server keeps the rest). `apiKey`: a key typed in the card, sent in
 * `x-api-key` so turning auto-reply on can store it (the monitor runs with nobody signed in).
 */
export function saveAutoReply(update: Partial<AutoReplySettings>, apiKey?: string): Promise<SaveAutoReplyResponse> {
  return api<SaveAutoReplyResponse>('/api/auto-reply/settings', {
    method: 'POST',
    body: update,
    headers: apiKey ? { 'x-api-key': apiKey } : undefined,
  });
}

/** Deletes the auto-reply drafts still waiting (in the mailbox too). */
export const clearAutoReplies = () =>
  api<ClearAutoRepliesResponse>('/api/auto-reply/clear', { method: 'POST' });
