import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { UpdatePrompt } from './UpdatePrompt';

/** A stand-in for the browser's worker objects: enough of them for the prompt's hook. */
class FakeTarget extends EventTarget {}

function fakeWorker(state: ServiceWorkerState = 'installed') {
  const w = new FakeTarget() as unknown as ServiceWorker & { state: ServiceWorkerState };
  (w as { state: ServiceWorkerState }).state = state;
  (w as unknown as { postMessage: (m: unknown) => void }).postMessage = vi.fn();
  return w;
}

function fakeContainer({ controlled, waiting = null }: { controlled: boolean; waiting?: ServiceWorker | null }) {
  const registration = new FakeTarget() as unknown as ServiceWorkerRegistration & {
    waiting: ServiceWorker | null;
    installing: ServiceWorker | null;
  };
  Object.assign(registration, { waiting, installing: null, update: vi.fn(() => Promise.resolve()) });
  const container = new FakeTarget() as unknown as ServiceWorkerContainer;
  Object.assign(container, {
    controller: controlled ? fakeWorker('activated') : null,
    ready: Promise.resolve(registration),
  });
  return { container, registration };
}

describe('UpdatePrompt', () => {
  it('offers a waiting new version in Hebrew; the click activates it and reloads once it controls the page', async () => {
    const waiting = fakeWorker();
    const { container } = fakeContainer({ controlled: true, waiting });
    const reload = vi.fn();
    render(<UpdatePrompt container={container} reload={reload} />);
    const button = await screen.findByTestId('pwa-update-reload');
    expect(screen.getByTestId('pwa-update')).toHaveTextContent('גרסה חדשה של האפליקציה מוכנה');
    expect(button).toHaveTextContent('רענון לגרסה החדשה');
    await userEvent.click(button);
    expect(waiting.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
    // Never a reload before the new worker took over.
    expect(reload).not.toHaveBeenCalled();
    act(() => void container.dispatchEvent(new Event('controllerchange')));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('says nothing on the first install (nothing to replace) nor without a new version', async () => {
    const first = fakeContainer({ controlled: false, waiting: fakeWorker() });
    const { unmount } = render(<UpdatePrompt container={first.container} />);
    await act(() => Promise.resolve());
    expect(screen.queryByTestId('pwa-update')).toBeNull();
    unmount();
    const none = fakeContainer({ controlled: true });
    render(<UpdatePrompt container={none.container} />);
    await act(() => Promise.resolve());
    expect(screen.queryByTestId('pwa-update')).toBeNull();
  });

  it('shows up when a version deployed while the page is open finishes installing', async () => {
    const { container, registration } = fakeContainer({ controlled: true });
    render(<UpdatePrompt container={container} />);
    await act(() => Promise.resolve());
    expect(screen.queryByTestId('pwa-update')).toBeNull();
    const installing = fakeWorker('installing');
    registration.installing = installing;
    act(() => void registration.dispatchEvent(new Event('updatefound')));
    expect(screen.queryByTestId('pwa-update')).toBeNull();
    (installing as { state: ServiceWorkerState }).state = 'installed';
    act(() => void installing.dispatchEvent(new Event('statechange')));
    expect(await screen.findByTestId('pwa-update')).toBeInTheDocument();
  });
});
