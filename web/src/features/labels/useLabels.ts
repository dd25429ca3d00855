// The user's labels as every screen shows them: a keyword on a mail becomes its label's name and
// colour; a keyword with no label (another mail client's tag, a label from before labels had
// names) shows as itself in the default colour.

import { useCallback } from 'react';
import useSWR from 'swr';
import { labelKeys, type LabelsResponse } from '../../api/labels';

/** How one keyword reads: its name, its colour (none until the list has loaded), whether a label names it. */
export interface LabelLook {
  keyword: string;
  name: string;
  color: string | null;
  known: boolean;
}

/** The look of `keyword` in `list` (keywords compare without case, as IMAP's do). */
export function lookOf(keyword: string, list: LabelsResponse | undefined): LabelLook {
  const lower = keyword.toLowerCase();
  const label = list?.labels.find((l) => l.keyword.toLowerCase() === lower);
  if (label) return { keyword, name: label.name, color: label.color, known: true };
  return { keyword, name: keyword, color: list?.defaultColor ?? null, known: false };
}

/** The labels list (shared through SWR) and a function from a keyword to its look. */
export function useLabels() {
  const res = useSWR<LabelsResponse>(labelKeys.list());
  const { data } = res;
  const look = useCallback((keyword: string) => lookOf(keyword, data), [data]);
  return { ...res, look };
}
