// Snooze and follow-ups (docs/API.md "Snooze, follow-ups, subscriptions"): typed calls for the
// reading pane's snooze menu and the "snoozed and awaiting" page.

import { api } from './client';
import type { FollowUpResponse, NudgeResponse, SnoozeRequest, SnoozeResponse } from './generated';

export type { FollowUpItem, FollowUpsResponse, SnoozeItem, SnoozeListResponse, SnoozeOptions } from './generated';

/** The presets the menu offers, as the server names them. */
export const SNOOZE_PRESETS = ['laterToday', 'tomorrow', 'weekend', 'nextWeek'] as const;
export type SnoozePreset = (typeof SNOOZE_PRESETS)[number];

const id = (value: string) => encodeURIComponent(value);

/** Snoozes the thread of mail `emailId` until a preset or a time (`YYYY-MM-DDTHH:MM`, the user's zone). */
export const snooze = (emailId: string, when: Pick<SnoozeRequest, 'preset' | 'until'>) =>
  api<SnoozeResponse>('/api/snooze', { method: 'POST', body: { emailId, ...when } });

export const wakeNow = (snoozeId: string) => api<SnoozeResponse>(`/api/snooze/${id(snoozeId)}/wake`, { method: 'POST' });

/** Awaits a reply to sent mail `emailId` for `days` from its sending; a tracked one (`followUpId`) gets the new wait. */
export const markFollowUp = (emailId: string, followUpId: string | undefined, days: number) =>
  followUpId
    ? api<FollowUpResponse>(`/api/followups/${id(followUpId)}`, { method: 'PUT', body: { days } })
    : api<FollowUpResponse>('/api/followups', { method: 'POST', body: { emailId, days } });

export const stopFollowUp = (followUpId: string) =>
  api<FollowUpResponse>(`/api/followups/${id(followUpId)}`, { method: 'DELETE' });

/** A polite nudge draft in the sent mail's language, saved to Drafts. */
export const nudge = (followUpId: string) => api<NudgeResponse>(`/api/followups/${id(followUpId)}/nudge`, { method: 'POST' });
