// The real-time sync card (spec 001 §2): whether the live channel is up, the save state, the
// history button, the resolve-conflicts button with the pending count, and the last two
// updates (who, which keys, when).

import { useState } from 'react';
import useSWR from 'swr';
import { settingsKeys, type SettingsHistoryResponse } from '../../../api/settings';
import { useLiveStatus } from '../../../session/liveStatus';
import { heSettingsSync } from '../../../i18n/settingsSync';
import { formatDateTime } from '../../../lib/dates';
import { ConflictsDialog } from './ConflictsDialog';
import { HistoryDialog } from './HistoryDialog';
import { keysLabel } from './format';
import { useSettingsSync } from './SettingsProvider';

const t = heSettingsSync.card;
/** Spec 001 §9: the last 2 are shown. */
export const RECENT_SHOWN = 2;

export function SyncStatusCard() {
  const sync = useSettingsSync();
  const live = useLiveStatus();
  const connected = live.status === 'connected';
  const { data } = useSWR<SettingsHistoryResponse>(settingsKeys.history(RECENT_SHOWN));
  const recent = Array.isArray(data?.history) ? data.history : [];
  const [open, setOpen] = useState<'history' | 'conflicts' | null>(null);

  return (
    <section className="card sync-card" aria-labelledby="sync-card-title" data-testid="sync-card">
      <div className="sync-card__header">
        <h2 id="sync-card-title" className="card__title">
          {t.title}
        </h2>
        <span className="sync-card__version" data-testid="sync-version">
          {t.version(sync.version)}
        </span>
      </div>
      <p
        className={`sync-card__live${connected ? ' is-connected' : ''}`}
        role="status"
        data-testid="sync-live"
        data-connected={connected}
      >
        <span className="status-dot" aria-hidden="true" />
        {connected ? t.connected : t.disconnected}
      </p>
      <p className={`sync-card__state sync-card__state--${sync.status}`} data-testid="sync-state" data-state={sync.status}>
        {t.states[sync.status]}
        {sync.status === 'error' && sync.lastError ? ` — ${sync.lastError}` : ''}
      </p>
      <div className="sync-card__actions">
        <button type="button" className="button" onClick={() => setOpen('history')} data-testid="sync-history">
          {t.history}
        </button>
        <button
          type="button"
          className={`button${sync.conflicts.length ? ' button--warning' : ''}`}
          disabled={sync.conflicts.length === 0}
          onClick={() => setOpen('conflicts')}
          data-testid="sync-conflicts"
        >
          {t.conflicts(sync.conflicts.length)}
        </button>
      </div>
      <h3 className="card__subtitle">{t.recent}</h3>
      {recent.length === 0 ? (
        <p className="muted" data-testid="sync-recent-empty">
          {t.noRecent}
        </p>
      ) : (
        <ul className="sync-card__recent" data-testid="sync-recent">
          {recent.map((e) => (
            <li key={e.version} data-testid="sync-recent-item">
              <span dir="auto">{t.update(e.changedBy, keysLabel(e.settingsUpdate))}</span>
              <time className="muted" dateTime={e.timestamp}>
                {formatDateTime(e.timestamp)}
              </time>
            </li>
          ))}
        </ul>
      )}
      {open === 'history' && <HistoryDialog onClose={() => setOpen(null)} />}
      {open === 'conflicts' && <ConflictsDialog onClose={() => setOpen(null)} />}
    </section>
  );
}
