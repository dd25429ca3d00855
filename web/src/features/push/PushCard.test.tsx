import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PushDevice, PushOverview } from '../../api/push';
import { hePush } from '../../i18n/push';
import { bodyOf, calls, DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { followOpen } from '../pwa/serviceWorker';
import { deviceLabel, fromBase64Url } from './browserPush';
import { PushCard } from './PushCard';
import { fromClock, sameQuiet, toClock } from './quietTimes';

const KEY = 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8';
const MINE = 'https://fcm.googleapis.com/fcm/send/mine';
const PHONE: PushDevice = {
  id: 1,
  endpoint: MINE,
  label: 'Chrome, Android',
  enabled: true,
  quiet: { night: null, shabbat: null },
  created: 1_700_000_000,
  lastSent: null,
  lastError: null,
  held: 0,
};
const LAPTOP: PushDevice = { ...PHONE, id: 2, endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/x', label: 'Firefox, Linux', held: 3 };

function server(overview: PushOverview) {
  let devices = overview.devices;
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/push': () => json(200, { ...overview, devices }),
    'POST /api/push/devices': (init) => {
      const body = JSON.parse(String(init?.body));
      const made = { ...PHONE, id: 9, endpoint: body.endpoint, label: body.label };
      devices = [...devices, made];
      return json(200, made);
    },
    'PATCH /api/push/devices/1': (init) => {
      devices = devices.map((d) => (d.id === 1 ? { ...d, ...JSON.parse(String(init?.body)) } : d));
      return json(200, devices[0]);
    },
    'DELETE /api/push/devices/2': () => {
      devices = devices.filter((d) => d.id !== 2);
      return json(200, devices);
    },
  });
}

/** A secure page whose browser has push, with `endpoint` as its subscription (or none). */
function browserWithPush(endpoint: string | null, permission: NotificationPermission = 'granted') {
  let sub: unknown =
    endpoint === null ? null : { endpoint, options: { applicationServerKey: fromBase64Url(KEY).buffer }, toJSON: () => ({ endpoint, keys: { p256dh: 'p', auth: 'a' } }) };
  const pushManager = {
    getSubscription: vi.fn(async () => sub),
    subscribe: vi.fn(async () => {
      sub = { endpoint: MINE, options: {}, toJSON: () => ({ endpoint: MINE, keys: { p256dh: 'pk', auth: 'au' } }) };
      return sub;
    }),
  };
  const registration = { pushManager };
  vi.stubGlobal('isSecureContext', true);
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', { permission: 'default', requestPermission: vi.fn(async () => permission) });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
  return pushManager;
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('quiet hours and the device name', () => {
  it('reads and writes times of the day, and names the browser and system', () => {
    expect(toClock(420)).toBe('07:00');
    expect(toClock(22 * 60 + 5)).toBe('22:05');
    expect(fromClock('07:30')).toBe(450);
    expect(fromClock('24:00')).toBeNull();
    expect(fromClock('7')).toBeNull();
    expect(sameQuiet({ night: { from: 1, to: 2 }, shabbat: null }, { night: { from: 1, to: 2 }, shabbat: null })).toBe(true);
    expect(sameQuiet({ night: null, shabbat: null }, { night: { from: 1, to: 2 }, shabbat: null })).toBe(false);
    const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
    expect(deviceLabel(android)).toBe('Chrome, Android');
    expect(fromBase64Url(KEY)).toHaveLength(65);
  });

  it("opens a notification's page of this app only", () => {
    const location = { hash: '', assign: vi.fn() };
    followOpen({ type: 'OPEN', path: '/#/Inbox?mail=12' }, location);
    expect(location.hash).toBe('#/Inbox?mail=12');
    for (const bad of ['//evil.example/#/x', '/\\evil.example', 'https://evil.example/', 12]) {
      followOpen({ type: 'OPEN', path: bad }, location);
    }
    followOpen({ type: 'OTHER', path: '/#/Tasks' }, location);
    expect(location.hash).toBe('#/Inbox?mail=12');
    expect(location.assign).not.toHaveBeenCalled();
  });
});

describe('PushCard', () => {
  it('says so when the server does not offer notifications', async () => {
    server({ enabled: false, publicKey: KEY, devices: [] });
    signInAs(DANA);
    renderWithProviders(<PushCard />, { route: '/Settings' });
    expect(await screen.findByText(hePush.off)).toBeInTheDocument();
    expect(screen.queryByTestId('push-subscribe')).toBeNull();
  });

  it('subscribes this browser with the server key and lists it as this device', async () => {
    const fetch = server({ enabled: true, publicKey: KEY, devices: [LAPTOP] });
    const pushManager = browserWithPush(null);
    signInAs(DANA);
    renderWithProviders(<PushCard />, { route: '/Settings' });
    await userEvent.click(await screen.findByTestId('push-subscribe'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/push/devices')).toHaveLength(1));
    expect(pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: fromBase64Url(KEY) });
    expect(bodyOf(calls(fetch, 'POST', '/api/push/devices')[0])).toMatchObject({ endpoint: MINE, keys: { p256dh: 'pk', auth: 'au' } });
    await waitFor(() => expect(screen.getAllByTestId('push-device')).toHaveLength(2));
    const mine = screen.getAllByTestId('push-device').find((r) => r.dataset.mine === 'true');
    expect(mine).toHaveTextContent(hePush.thisDevice);
    expect(screen.queryByTestId('push-subscribe')).toBeNull();
    expect(screen.getAllByTestId('push-device')[0]).toHaveTextContent(hePush.held(3));
  });

  it('says in Hebrew when the browser refuses the permission, and subscribes nothing', async () => {
    const fetch = server({ enabled: true, publicKey: KEY, devices: [] });
    browserWithPush(null, 'denied');
    signInAs(DANA);
    renderWithProviders(<PushCard />, { route: '/Settings' });
    await userEvent.click(await screen.findByTestId('push-subscribe'));
    expect(await screen.findByRole('alert')).toHaveTextContent(hePush.denied);
    expect(calls(fetch, 'POST', '/api/push/devices')).toHaveLength(0);
  });

  it('turns a device off, saves the Shabbat preset and removes another device', async () => {
    const fetch = server({ enabled: true, publicKey: KEY, devices: [PHONE, LAPTOP] });
    browserWithPush(MINE);
    signInAs(DANA);
    renderWithProviders(<PushCard />, { route: '/Settings' });
    await waitFor(() => expect(screen.getAllByTestId('push-device')[0].dataset.mine).toBe('true'));
    const phone = screen.getAllByTestId('push-device')[0];
    await userEvent.click(within(phone).getByRole('checkbox', { name: hePush.enabled }));
    await waitFor(() => expect(calls(fetch, 'PATCH', '/api/push/devices/1')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PATCH', '/api/push/devices/1')[0])).toEqual({ enabled: false });

    const row = screen.getAllByTestId('push-device')[0];
    await userEvent.click(within(row).getByText(hePush.quiet));
    await userEvent.click(within(within(row).getByTestId('push-quiet-shabbat')).getByRole('checkbox'));
    await userEvent.click(within(row).getByRole('button', { name: hePush.save }));
    await waitFor(() => expect(calls(fetch, 'PATCH', '/api/push/devices/1')).toHaveLength(2));
    expect(bodyOf(calls(fetch, 'PATCH', '/api/push/devices/1')[1])).toEqual({ quiet: { night: null, shabbat: { from: 960, to: 1200 } } });

    await userEvent.click(within(screen.getAllByTestId('push-device')[1]).getByRole('button', { name: hePush.remove }));
    await waitFor(() => expect(screen.getAllByTestId('push-device')).toHaveLength(1));
  });
});
