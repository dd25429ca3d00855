// Smart summary of the chosen mail (spec 001 §3 "Smart summary result"): 'סכם' asks
// POST /api/smart/summary and shows the summary with its sentiment and priority badges. Results
// are kept per mail id for the page's lifetime; a failure shows in the card.

import { summarize, type SmartSummary } from '../../api/ai';
import type { Email } from '../../api/types';
import { heSmart } from '../../i18n/smart';
import { MailAiCard } from './MailAiCard';
import { usePerMail } from './usePerMail';

const t = heSmart.summary;

function Badge({ kind, value, text }: { kind: 'sentiment' | 'priority'; value: string; text: string }) {
  return (
    <span className={`smart-badge smart-badge--${kind}-${value}`} data-testid={`smart-${kind}`} data-value={value}>
      {text}
    </span>
  );
}

export function SummaryCard({ mail }: { mail: Email | null }) {
  const { run, stateOf } = usePerMail<SmartSummary>();
  const state = stateOf(mail?.id);
  const { data } = state;

  return (
    <MailAiCard name="summary" text={t} buttonTestId="smart-summarize" mail={mail} state={state} onRun={(m) => void run(m.id, () => summarize(m.id))}>
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
    </MailAiCard>
  );
}
