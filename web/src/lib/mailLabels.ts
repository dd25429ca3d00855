// How a mail's labels and priority read (spec 000 §4, §9): the Hebrew name of a status or
// priority label, and which priorities are worth showing at all. Shared by the inbox's rows and
// buttons, the search results and the rules' descriptions.

import { he } from '../i18n/he';

/** Priorities worth showing (spec 000 §4: urgent and high are shown, others are not). */
export function shownPriority(priority: string | null | undefined): 'urgent' | 'high' | null {
  return priority === 'urgent' || priority === 'high' ? priority : null;
}

/** A label's Hebrew name (statuses and priorities), or the IMAP label as it is. */
export function labelText(label: string): string {
  return he.inbox.labels[label] ?? label;
}
