// The settings history (spec 001 §4 "Rollback"): the kept versions, newest first, each with who
// changed which keys and when; any but the current one can be restored (as a new version). The
// first 20 show at once (spec 001 §9); "earlier versions" asks for 20 more, up to all the server
// keeps (200).

import { useState } from 'react';
import useSWR from 'swr';
import { settingsKeys, type SettingsHistoryResponse } from '../../../api/settings';
import { LoadError } from '../../../components/LoadError';
import { Modal } from '../../../components/Modal';
import { he } from '../../../i18n/he';
import { heSettingsSync } from '../../../i18n/settingsSync';
import { formatDateTime } from '../../../lib/dates';
import { keysLabel } from './format';
import { useSettingsSync } from './SettingsProvider';

const t = heSettingsSync.historyDialog;
/** Spec 001 §9: the history's default limit, and how many more each "earlier versions" shows. */
export const HISTORY_LIMIT = 20;
/** Versions the server keeps per user (src/settings/versions.rs KEEP_VERSIONS). */
export const HISTORY_KEPT = 200;

export function HistoryDialog({ onClose }: { onClose: () => void }) {
  const sync = useSettingsSync();
  const [limit, setLimit] = useState(HISTORY_LIMIT);
  // The shorter list stays on screen while the longer one loads.
  const { data, error, mutate, isLoading } = useSWR<SettingsHistoryResponse>(settingsKeys.history(limit), {
    keepPreviousData: true,
  });
  const [restoring, setRestoring] = useState<number | null>(null);
  const entries = Array.isArray(data?.history) ? data.history : null;
  // A full page means the server may keep more.
  const more = entries !== null && entries.length >= limit && limit < HISTORY_KEPT;

  async function restore(version: number) {
    setRestoring(version);
    try {
      await sync.rollback(version);
    } finally {
      setRestoring(null);
    }
  }

  return (
    <Modal title={t.title} closeLabel={t.close} onClose={onClose} testId="settings-history" busy={restoring !== null} wide>
      {error && !entries ? (
        <LoadError message={t.loadFailed} onRetry={() => void mutate()} />
      ) : !entries ? (
        <p role="status">{he.app.loading}</p>
      ) : entries.length === 0 ? (
        <p className="muted">{t.empty}</p>
      ) : (
        <ol className="settings-history">
          {entries.map((e) => (
            <li key={e.version} className="settings-history__item" data-testid="history-entry" data-version={e.version}>
              <div className="settings-history__text">
                <strong>{heSettingsSync.card.version(e.version)}</strong>
                <span dir="auto">{heSettingsSync.card.update(e.changedBy, keysLabel(e.settingsUpdate))}</span>
                <time className="muted" dateTime={e.timestamp}>
                  {formatDateTime(e.timestamp)}
                </time>
              </div>
              {e.version === sync.version ? (
                <span className="badge">{t.current}</span>
              ) : (
                <button
                  type="button"
                  className="button"
                  // Not `disabled`: that would drop the focus, and with it Escape.
                  aria-disabled={restoring !== null}
                  onClick={() => restoring === null && void restore(e.version)}
                  data-testid="history-rollback"
                >
                  {restoring === e.version ? t.rollingBack : t.rollback}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {more && (
        <button
          type="button"
          className="button settings-history__more"
          disabled={isLoading}
          onClick={() => setLimit((n) => Math.min(n + HISTORY_LIMIT, HISTORY_KEPT))}
          data-testid="history-more"
        >
          {isLoading ? he.app.loading : t.more}
        </button>
      )}
    </Modal>
  );
}
