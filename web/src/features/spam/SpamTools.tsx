// The Spam and Promotions folders' extra buttons (spec 000 §2; issue 18): 'טען וסווג' runs the
// engine over the user's inboxes (POST /api/spam/classify), with a progress bar polled every
// 500 ms while it runs and a summary when it ends (the lists re-read then); 'דיבאג' opens the
// selected mail's breakdown (SpamDebugDialog).

import { useEffect, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { isMailKey, keys } from '../../api/keys';
import { CLASSIFY_POLL_MS, classifyProgress, startClassify, type SpamClassifyProgress } from '../../api/spam';
import { heSpam } from '../../i18n/spam';
import '../../styles/spam.css';
import { SpamDebugDialog } from './SpamDebugDialog';

const t = heSpam;

export function SpamTools({ selectedId }: { selectedId: string | null }) {
  const { mutate } = useSWRConfig();
  const [progress, setProgress] = useState<SpamClassifyProgress | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [debugOpen, setDebugOpen] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    // A run started elsewhere (another tab, before a reload) shows its progress here too.
    void classifyProgress()
      .then((p) => {
        if (alive.current && p.running) {
          setProgress(p);
          poll();
        }
      })
      .catch(() => {});
    return () => {
      alive.current = false;
      window.clearTimeout(timer.current);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function finished(p: SpamClassifyProgress) {
    setProgress(p);
    if (p.error) setFailure(`${t.classifyFailed}: ${p.error}`);
    void mutate(isMailKey);
    void mutate(keys.emailCounts());
  }

  /** A run's progress as the server reported it: still running, look again; otherwise done. */
  function follow(p: SpamClassifyProgress) {
    if (!alive.current) return;
    if (p.running) {
      setProgress(p);
      poll();
    } else finished(p);
  }

  function poll() {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(async () => {
      try {
        follow(await classifyProgress());
      } catch (err) {
        if (!alive.current) return;
        setFailure(`${t.classifyFailed}: ${errorMessage(err)}`);
        setProgress(null);
      }
    }, CLASSIFY_POLL_MS);
  }

  async function start() {
    setFailure(null);
    try {
      follow(await startClassify());
    } catch (err) {
      setFailure(`${t.classifyFailed}: ${errorMessage(err)}`);
    }
  }

  const running = progress?.running ?? false;
  const pct = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;

  return (
    <div className="spam-tools" data-testid="spam-tools">
      <div className="spam-tools__buttons">
        <button type="button" className="button" disabled={running} onClick={() => void start()} title={t.classifyHint} data-testid="spam-classify">
          {running ? t.classifying : t.classify}
        </button>
        <button type="button" className="button" onClick={() => setDebugOpen(true)} title={t.debugHint} data-testid="spam-debug">
          {t.debug}
        </button>
      </div>
      {running && progress && (
        <div className="spam-tools__progress" data-testid="spam-classify-progress">
          <progress
            max={Math.max(progress.total, 1)}
            value={progress.done}
            aria-label={t.progressLabel}
            aria-valuetext={`${pct}%`}
          />
          <span className="muted">{t.classifyProgress(progress.done, progress.total)}</span>
        </div>
      )}
      {!running && progress && !progress.error && (
        <p className="notice notice--success spam-tools__result" role="status" data-testid="spam-classify-result">
          {t.classifyResult(progress.total, progress.spam, progress.suspicious, progress.advertisements)}
          <button type="button" className="link-button" onClick={() => setProgress(null)}>
            {t.classifyDismiss}
          </button>
        </p>
      )}
      {failure && (
        <p className="notice notice--error spam-tools__result" role="alert" data-testid="spam-classify-error">
          {failure}
        </p>
      )}
      {debugOpen && <SpamDebugDialog mailId={selectedId} onClose={() => setDebugOpen(false)} />}
    </div>
  );
}
