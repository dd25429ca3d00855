// Smart replies for the chosen mail: 'הצע תשובות' asks POST /api/smart/replies for three short
// answers; choosing one opens Compose with the recipient, the 'Re:' subject and the answer filled
// in (format.ts replyComposeHref, read by compose/prefill.ts). Kept per mail id like the summary.

import { useNavigate } from 'react-router-dom';
import { suggestReplies, type SuggestedReply } from '../../api/ai';
import type { Email } from '../../api/types';
import { heSmart } from '../../i18n/smart';
import { replyComposeHref } from './format';
import { MailAiCard } from './MailAiCard';
import { usePerMail } from './usePerMail';

const t = heSmart.replies;

export function RepliesCard({ mail }: { mail: Email | null }) {
  const navigate = useNavigate();
  const { run, stateOf } = usePerMail<SuggestedReply[]>();
  const state = stateOf(mail?.id);
  const { data } = state;
  const load = (m: Email) =>
    run(m.id, async () => {
      const res = await suggestReplies(m.id);
      return (Array.isArray(res?.replies) ? res.replies : []).filter((r) => r && typeof r.text === 'string' && r.text.trim());
    });

  return (
    <MailAiCard name="replies" text={t} buttonTestId="smart-replies-generate" mail={mail} state={state} onRun={(m) => void load(m)}>
      {mail && data && data.length > 0 && (
        <>
          <p className="smart-card__hint">{t.hint}</p>
          <ul className="smart-replies stack-list">
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
    </MailAiCard>
  );
}
