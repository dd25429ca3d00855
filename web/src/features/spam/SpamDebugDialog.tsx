// The Spam and Promotions folders' 'דיבאג' (spec 000 §2; issue 18): the selected mail judged now,
// rule by rule (GET /api/spam/debug/{id}): each check that fired with its Hebrew label, detail
// and points, the total against the user's thresholds, the verdict, the score stored when it
// was judged and the learning classifier's opinion. Without a selected mail it says to pick one.

import useSWR from 'swr';
import { spamKeys, type SpamBreakdown } from '../../api/spam';
import { Modal } from '../../components/Modal';
import { heSpam } from '../../i18n/spam';
import { formatScore } from './SpamActivityList';
import { LoadState } from '../../components/LoadState';

const t = heSpam;

function formatPoints(p: number): string {
  const s = formatScore(Math.abs(p));
  return p < 0 ? `−${s}` : `+${s}`;
}

export function SpamBreakdownView({ b }: { b: SpamBreakdown }) {
  return (
    <div className="spam-debug" data-testid="spam-debug-breakdown" data-verdict={b.verdict}>
      <dl className="spam-debug__summary">
        <div>
          <dt>{t.debugScore}</dt>
          <dd data-testid="spam-debug-score">{t.debugOf(formatScore(b.score), b.spamThreshold, b.suspiciousThreshold)}</dd>
        </div>
        <div>
          <dt>{t.debugVerdict}</dt>
          <dd>
            <span className={`label-chip label-chip--${b.verdict === 'clean' ? 'processed' : b.verdict}`} data-testid="spam-debug-verdict">
              {t.verdicts[b.verdict] ?? b.verdict}
            </span>
            {b.advertisement && b.verdict !== 'advertisement' && <span className="muted"> · {t.debugAd}</span>}
          </dd>
        </div>
        <div>
          <dt>{t.debugStored}</dt>
          <dd data-testid="spam-debug-stored">{b.storedScore === null ? t.debugNever : formatScore(b.storedScore)}</dd>
        </div>
        <div>
          <dt>{t.debugSpamminess}</dt>
          <dd data-testid="spam-debug-spamminess">
            {b.spamminess === null ? t.debugNoModel : t.debugSpamminessValue(Math.round(b.spamminess * 100))}
          </dd>
        </div>
      </dl>
      <h3 className="card__subtitle">{t.debugRules}</h3>
      {b.hits.length === 0 ? (
        <p className="muted" data-testid="spam-debug-no-hits">
          {t.debugNoHits}
        </p>
      ) : (
        <div className="spam-debug__table-wrap">
          <table className="spam-debug__table" data-testid="spam-debug-hits">
            <thead>
              <tr>
                <th scope="col">{t.debugRule}</th>
                <th scope="col">{t.debugDetail}</th>
                <th scope="col">{t.debugPoints}</th>
              </tr>
            </thead>
            <tbody>
              {b.hits.map((h, i) => (
                <tr key={`${h.rule}-${i}`} data-testid="spam-debug-hit" data-rule={h.rule}>
                  <td>
                    <span className="spam-debug__label">{h.label}</span>
                    <code className="spam-debug__rule" dir="ltr">
                      {h.rule}
                    </code>
                  </td>
                  <td dir="auto" className="spam-debug__detail">
                    {h.detail}
                  </td>
                  <td className={`spam-debug__points${h.points < 0 ? ' is-negative' : ''}`} dir="ltr">
                    {formatPoints(h.points)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function SpamDebugDialog({ mailId, onClose }: { mailId: string | null; onClose: () => void }) {
  const { data, error, mutate } = useSWR<SpamBreakdown>(mailId ? spamKeys.debug(mailId) : null, {
    revalidateOnFocus: false,
  });
  let content;
  if (!mailId) {
    content = (
      <p className="muted" data-testid="spam-debug-select">
        {t.debugSelect}
      </p>
    );
  } else if (data) {
    content = <SpamBreakdownView b={data} />;
  } else {
    content = <LoadState of={{ error, mutate }} text={{ loadFailed: `${t.debugFailed}:`, loading: t.debugLoading }} testIds={{ error: 'spam-debug-error' }} />;
  }
  return (
    <Modal title={t.debugTitle} closeLabel={t.debugClose} onClose={onClose} testId="spam-debug-dialog" wide>
      {content}
    </Modal>
  );
}
