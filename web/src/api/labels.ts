// Labels (docs/API.md "Labels"): the user's names and colours for the IMAP keywords on their
// mail. An Email's or Thread's `labels` lists keywords; this list names and colours them. Read
// through SWR with labelKeys.list(); every change answers with the label, and the caller
// re-reads the list.

import { api } from './client';
import type { Label, LabelDeleted, LabelRequest } from './generated';

export type { Label, LabelDeleted, LabelRequest, LabelsResponse } from './generated';

const path = (id: string) => `/api/labels/${encodeURIComponent(id)}`;

export const labelKeys = {
  list: () => '/api/labels',
};

export const createLabel = (body: LabelRequest) => api<Label>('/api/labels', { method: 'POST', body });

/** Rename or recolour (the keyword on the mail stays). */
export const updateLabel = (id: string, body: LabelRequest) => api<Label>(path(id), { method: 'PUT', body });

/** Deletes the label and takes its keyword off the user's mail. */
export const deleteLabel = (id: string) => api<LabelDeleted>(path(id), { method: 'DELETE' });
