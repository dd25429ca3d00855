// Smart replies for the chosen mail: 'הצע תשובות' asks POST /api/smart/replies for three short
// answers; choosing one opens Compose with the recipient, the 'Re:' subject and the answer filled
// in (format.ts replyComposeHref, read by compose/prefill.ts). Kept per mail id like the summary.

import { useNavigate } from 'react-router-dom';
import { suggestReplies, type SuggestedReply } from '../../api/ai';
import type { Email } from '../../api/types';
import { SparkIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { replyComposeHref } from './format';
import { SmartError } from './SmartError';
import { usePerMail } from './usePerMail';

const t = he.smart.replies;

export function RepliesCard({ mail }: { mail: Email | null }) {
  const navigate = useNavigate();
  const { run, stateOf } = usePerMail<SuggestedReply[]>();
  const { busy, error, data } = stateOf(mail?.id);
  const load = (m: Email) =>
    run(m.id, async () => {
      const res = await suggestReplies(m.id);
      return (Array.isArray(res?.replies) ? res.replies : []).filter((r) => r && typeof r.text === 'string' && r.text.trim());
    });

  return (
    <section className="card smart-card" data-testid="smart-replies-card" aria-busy={busy} aria-labelledby="smart-replies-title">
      <header className="smart-card__header">
        <h3 className="card__subtitle" id="smart-replies-title">
          {t.title}
        </h3>
        <button
          type="button"
          className="button button--primary"
          disabled={!mail || busy}
          onClick={() => mail && void load(mail)}
          data-testid="smart-replies-generate"
        >
          <SparkIcon />
          {busy ? t.busy : t.button}
        </button>
      </header>
      {!mail && <p className="card__status">{he.smart.chooseMail}</p>}
      {busy && (
        <p className="card__status" role="status" data-testid="smart-replies-busy">
          {t.busy}
        </p>
      )}
      {error !== undefined && !busy && <SmartError error={error} fallback={t.failed} />}
      {mail && data && data.length > 0 && (
        <>
          <p className="smart-card__hint">{t.hint}</p>
          <ul className="smart-replies">
            {data.map((r, i) => (
              <li key={i}>
                <button
                  type="button"
                  className="smart-suggestion"
                  data-testid="smart-reply-option"
                  onClick={() => navigate(replyComposeHref(mail, r))}
                >
                  <span className="smart-suggestion__label" dir="auto">
                    {r.label}
                  </span>
                  <span className="smart-suggestion__text" dir="auto">
                    {r.text}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
