// The settings page's push notifications card (issue 39): whether the server offers them, this
// browser's subscription ("turn on notifications on this device"), and the user's devices, each
// with its on/off, quiet hours (the night, Shabbat), a test and removal. "This device" is the one
// whose push URL is this browser's subscription.

import { useEffect, useId, useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { changeDevice, pushKeys, removeDevice, subscribeDevice, testDevice, type PushDevice, type PushOverview, type PushQuiet } from '../../api/push';
import { LoadError } from '../../components/LoadError';
import { hePush } from '../../i18n/push';
import { formatDateTime } from '../../lib/dates';
import { useToast } from '../../session/Toasts';
import '../../styles/push.css';
import { PushDenied, currentSubscription, deviceLabel, pushSupport, subscribeThisBrowser } from './browserPush';
import { QuietHours } from './QuietHours';

const t = hePush;

function DeviceRow({ device, mine, onChanged }: { device: PushDevice; mine: boolean; onChanged: () => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  async function run(work: () => Promise<unknown>, done?: string) {
    setBusy(true);
    try {
      await work();
      if (done) toast.success(done);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
      onChanged();
    }
  }
  const saveQuiet = (quiet: PushQuiet) => void run(() => changeDevice(device.id, { quiet }), t.saved);
  return (
    <li className="push-device" data-testid="push-device" data-mine={mine ? 'true' : 'false'}>
      <div className="push-device__head">
        <span className="push-device__name" dir="auto">
          {device.label || t.unknownBrowser}
        </span>
        {mine && <span className="push-device__mine">{t.thisDevice}</span>}
        <label className="push-device__on">
          <input
            type="checkbox"
            checked={device.enabled}
            disabled={busy}
            onChange={(e) => void run(() => changeDevice(device.id, { enabled: e.target.checked }), t.saved)}
          />
          {t.enabled}
        </label>
      </div>
      {device.lastSent !== null && <p className="card__status">{t.lastSent(formatDateTime(device.lastSent * 1000))}</p>}
      {device.held > 0 && <p className="card__status">{t.held(device.held)}</p>}
      {device.lastError && (
        <p className="card__status push-card__error" role="status">
          {device.lastError}
        </p>
      )}
      <QuietHours key={JSON.stringify(device.quiet)} quiet={device.quiet} onSave={saveQuiet} busy={busy} />
      <div className="push-device__actions">
        <button type="button" className="button" disabled={busy} onClick={() => void run(() => testDevice(device.id), t.testSent)}>
          {t.test}
        </button>
        <button type="button" className="button button--danger" disabled={busy} onClick={() => void run(() => removeDevice(device.id), t.removed)}>
          {t.remove}
        </button>
      </div>
    </li>
  );
}

export function PushCard() {
  const idBase = useId();
  const toast = useToast();
  const { data, error, mutate } = useSWR<PushOverview>(pushKeys.overview());
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const support = pushSupport();

  useEffect(() => {
    let live = true;
    void currentSubscription()
      .then((s) => live && setEndpoint(s?.endpoint ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [data]);

  async function subscribe(publicKey: string) {
    setBusy(true);
    setProblem('');
    try {
      const sub = await subscribeThisBrowser(publicKey);
      await subscribeDevice({
        endpoint: sub.endpoint ?? '',
        keys: { p256dh: sub.keys?.p256dh ?? '', auth: sub.keys?.auth ?? '' },
        label: deviceLabel(navigator.userAgent, navigator.maxTouchPoints),
      });
      setEndpoint(sub.endpoint ?? null);
      toast.success(t.subscribed);
    } catch (err) {
      setProblem(err instanceof PushDenied ? t.denied : errorMessage(err, t.subscribeFailed));
    } finally {
      setBusy(false);
      void mutate();
    }
  }

  let body = null;
  if (data && !data.enabled) {
    body = <p className="card__status">{t.off}</p>;
  } else if (data) {
    const mine = data.devices.some((d) => d.endpoint === endpoint);
    body = (
      <>
        {support === 'ok' && !mine && (
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void subscribe(data.publicKey)} data-testid="push-subscribe">
            {busy ? t.subscribing : t.subscribe}
          </button>
        )}
        {support === 'insecure' && <p className="card__status">{t.insecure}</p>}
        {support === 'unsupported' && <p className="card__status">{t.unsupported}</p>}
        {problem && (
          <p className="card__status push-card__error" role="alert">
            {problem}
          </p>
        )}
        <h3 className="push-card__subtitle">{t.devices}</h3>
        {data.devices.length ? (
          <ul className="push-card__devices">
            {data.devices.map((d) => (
              <DeviceRow key={d.id} device={d} mine={d.endpoint === endpoint} onChanged={() => void mutate()} />
            ))}
          </ul>
        ) : (
          <p className="card__status">{t.noDevices}</p>
        )}
      </>
    );
  } else if (error !== undefined) {
    body = <LoadError message={`${t.loadFailed} ${errorMessage(error)}`} onRetry={() => void mutate()} testId="push-load-error" />;
  }

  return (
    <section className="card push-card" aria-labelledby={`${idBase}-title`} data-testid="push-card">
      <h2 id={`${idBase}-title`} className="card__title">
        {t.title}
      </h2>
      <p className="card__status">{t.intro}</p>
      {body}
    </section>
  );
}
