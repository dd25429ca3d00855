// Web Push notifications (docs/API.md "Push"): the server's public key and the user's devices.
// Each device subscribes from its settings page (the browser's PushSubscription), is turned on or
// off, gets quiet hours, is sent a test, is removed. Read through SWR with pushKeys.overview().

import { api } from './client';
import type { PushDevice, PushDeviceChange, PushSubscribeRequest, PushTestResponse } from './generated';

export type { PushDevice, PushDeviceChange, PushOverview, PushQuiet, PushSpan } from './generated';

const path = (id: number) => `/api/push/devices/${id}`;

export const pushKeys = {
  overview: () => '/api/push',
};

/** Keeps this browser's subscription for the user (the same push URL again renews it). */
export const subscribeDevice = (body: PushSubscribeRequest) => api<PushDevice>('/api/push/devices', { method: 'POST', body });

/** Turns a device on or off, sets its quiet hours or its name. */
export const changeDevice = (id: number, body: PushDeviceChange) => api<PushDevice>(path(id), { method: 'PATCH', body });

/** Removes a device; answers the devices left. */
export const removeDevice = (id: number) => api<PushDevice[]>(path(id), { method: 'DELETE' });

/** Sends a test notification to a device now (quiet hours or not). */
export const testDevice = (id: number) => api<PushTestResponse>(`${path(id)}/test`, { method: 'POST' });
