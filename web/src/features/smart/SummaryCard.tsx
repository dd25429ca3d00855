// Smart summary of the chosen mail (spec 001 §3 "Smart summary result"): 'סכם' asks
// POST /api/smart/summary and shows the summary with its sentiment and priority badges. Results
// are kept per mail id for the page's lifetime; a failure shows in the card.

import { summarize, type SmartSummary } from '../../api/ai';
import type { Email } from '../../api/types';
import { SparkIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { SmartError } from './SmartError';
import { usePerMail } from './usePerMail';

const t = he.smart.summary;

function Badge({ kind, value, text }: { kind: 'sentiment' | 'priority'; value: string; text: string }) {
  return (
    <span className={`smart-badge smart-badge--${kind}-${value}`} data-testid={`smart-${kind}`} data-value={value}>
      {text}
    </span>
  );
}

export function SummaryCard({ mail }: { mail: Email | null }) {
  const { run, stateOf } = usePerMail<SmartSummary>();
  const { busy, error, data } = stateOf(mail?.id);

  return (
    <section className="card smart-card" data-testid="smart-summary-card" aria-busy={busy} aria-labelledby="smart-summary-title">
      <header className="smart-card__header">
        <h3 className="card__subtitle" id="smart-summary-title">
          {t.title}
        </h3>
        <button
          type="button"
          className="button button--primary"
          disabled={!mail || busy}
          onClick={() => mail && void run(mail.id, () => summarize(mail.id))}
          data-testid="smart-summarize"
        >
          <SparkIcon />
          {busy ? t.busy : t.button}
        </button>
      </header>
      {!mail && <p className="card__status">{he.smart.chooseMail}</p>}
      {busy && (
        <p className="card__status" role="status" data-testid="smart-summary-busy">
          {t.busy}
        </p>
      )}
      {error !== undefined && !busy && <SmartError error={error} fallback={t.failed} />}
      {data && (
        <div className="smart-summary">
          <p className="smart-summary__text" dir="auto" data-testid="smart-summary">
            {data.summary}
          </p>
          <dl className="smart-summary__badges">
            <div>
              <dt>{t.sentiment}</dt>
              <dd>
                <Badge kind="sentiment" value={data.sentiment} text={t.sentiments[data.sentiment] ?? data.sentiment} />
              </dd>
            </div>
            <div>
              <dt>{t.priority}</dt>
              <dd>
                <Badge kind="priority" value={data.priority} text={t.priorities[data.priority] ?? data.priority} />
              </dd>
            </div>
          </dl>
        </div>
      )}
    </section>
  );
}
