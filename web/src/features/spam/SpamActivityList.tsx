// The spam card's recent decisions (issue 18 `logActivity`; GET/DELETE /api/spam/activity): what
// the engine, 'load and classify', the AI and the user's own markings decided lately, newest
// first, with how many examples the learning classifier was trained on, and a button that
// clears the list (spec 001 §8 "Clear list failure").

import { useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { clearSpamActivity, spamKeys, type SpamActivity, type SpamDecision } from '../../api/spam';
import { useToast } from '../../session/Toasts';
import { heSpam } from '../../i18n/spam';
import { formatDateTime } from '../../lib/dates';
import { LoadState } from '../../components/LoadState';

const t = heSpam.activity;

/** A score as shown: one decimal. */
export function formatScore(score: number): string {
  return (Math.round(score * 10) / 10).toLocaleString('he-IL', { maximumFractionDigits: 1 });
}

function Decision({ d }: { d: SpamDecision }) {
  return (
    <li className={`spam-activity__item spam-activity__item--${d.verdict}`} data-testid="spam-activity-item" data-verdict={d.verdict}>
      <div className="spam-activity__head">
        <span className={`label-chip label-chip--${d.verdict === 'clean' || d.verdict === 'ham' ? 'processed' : d.verdict}`}>
          {heSpam.verdicts[d.verdict] ?? d.verdict}
        </span>
        <span className="spam-activity__score">{t.score(formatScore(d.score))}</span>
        <span className="spam-activity__source muted">{t.sources[d.source] ?? d.source}</span>
        <time className="spam-activity__time muted" dateTime={new Date(d.at * 1000).toISOString()}>
          {formatDateTime(new Date(d.at * 1000).toISOString())}
        </time>
      </div>
      {/* bdi: an address or a Latin subject keeps its own direction in the RTL row. */}
      <span className="spam-activity__from">
        <bdi>{d.from}</bdi>
      </span>
      <span className="spam-activity__subject">
        <bdi>{d.subject || t.noSubject}</bdi>
      </span>
    </li>
  );
}

export function SpamActivityList() {
  const toast = useToast();
  const { data, error, mutate } = useSWR<SpamActivity>(spamKeys.activity());
  const [clearing, setClearing] = useState(false);

  async function clear() {
    setClearing(true);
    try {
      await clearSpamActivity();
      await mutate();
      toast.success(t.cleared);
    } catch (err) {
      toast.error(`${t.clearFailed}: ${errorMessage(err)}`);
    } finally {
      setClearing(false);
    }
  }

  let content;
  if (data) {
    content = (
      <>
        <p className="muted" data-testid="spam-trained">
          {t.trained(data.trainedSpam, data.trainedHam)}
        </p>
        {!data.logging && (
          <p className="muted" data-testid="spam-logging-off">
            {t.loggingOff}
          </p>
        )}
        {data.decisions.length === 0 ? (
          <p className="muted" data-testid="spam-activity-empty">
            {t.empty}
          </p>
        ) : (
          <ol className="spam-activity__list list-box" data-testid="spam-activity-list">
            {data.decisions.map((d) => (
              <Decision key={`${d.at}-${d.message}-${d.source}`} d={d} />
            ))}
          </ol>
        )}
      </>
    );
  } else {
    content = <LoadState of={{ error, mutate }} text={{ loadFailed: t.loadFailed }} testIds={{ error: 'spam-activity-error' }} />;
  }

  return (
    <section className="spam-activity" aria-labelledby="spam-activity-title" data-testid="spam-activity">
      <div className="spam-activity__header">
        <h3 id="spam-activity-title" className="card__subtitle">
          {t.title}
        </h3>
        {data && data.decisions.length > 0 && (
          <button type="button" className="button" disabled={clearing} onClick={() => void clear()} data-testid="spam-activity-clear">
            {clearing ? t.clearing : t.clear}
          </button>
        )}
      </div>
      {content}
    </section>
  );
}
