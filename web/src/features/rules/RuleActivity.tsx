// A rule's activity, in a dialog (GET /api/rules/{id}/activity, newest first): each mail the rule
// acted on — its subject, sender and when — and what each action did, 'בוצע' or 'נכשל' with the
// server's reason (in Hebrew). Read through SWR, so a run from the run dialog shows up here.

import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import type { Rule, RuleActivityResponse } from '../../api/rules';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { heRules } from '../../i18n/rules';
import { formatDateTime } from '../../lib/dates';
import { describeAction } from './describe';

const t = heRules.activity;

export interface RuleActivityProps {
  rule: Rule;
  onClose: () => void;
}

export function RuleActivity({ rule, onClose }: RuleActivityProps) {
  const res = useSWR<RuleActivityResponse>(keys.ruleActivity(rule.id));
  const data = res.data;

  let body;
  if (!data && res.error) {
    body = (
      <LoadError
        message={`${t.loadFailed} ${errorMessage(res.error)}`}
        onRetry={() => void res.mutate()}
        testId="rule-activity-error"
        retryTestId="rule-activity-retry"
      />
    );
  } else if (!data) {
    body = (
      <p className="card__status" role="status" data-testid="rule-activity-loading">
        {t.loading}
      </p>
    );
  } else if (data.items.length === 0) {
    body = (
      <p className="rule-activity__empty" data-testid="rule-activity-empty">
        {t.empty}
      </p>
    );
  } else {
    body = (
      <ul className="rule-activity__list" data-testid="rule-activity-list">
        {data.items.map((item, i) => (
          <li key={`${item.at}-${item.email_id}-${i}`} className="rule-activity__item" data-testid="rule-activity-item">
            <div className="rule-activity__mail">
              <span className="rule-activity__subject" dir="auto">
                {item.subject.trim() || t.noSubject}
              </span>
              <span className="rule-activity__from" dir="auto">
                {item.from}
              </span>
              <span className="rule-activity__at">{formatDateTime(item.at)}</span>
            </div>
            <ul className="rule-activity__outcomes">
              {item.outcomes.map((o, j) => (
                <li key={j} className={`rule-activity__outcome${o.ok ? '' : ' is-failed'}`} data-ok={o.ok}>
                  <span className={`rule-activity__badge rule-activity__badge--${o.ok ? 'ok' : 'failed'}`}>
                    {o.ok ? t.ok : t.failed}
                  </span>
                  <span dir="auto">{describeAction(o)}</span>
                  {!o.ok && o.error && (
                    <span className="rule-activity__reason" dir="auto">
                      {o.error}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Modal title={`${t.title}: ${rule.name}`} closeLabel={heRules.form.close} onClose={onClose} testId="rule-activity-dialog" wide>
      <p className="field__hint">{t.hint}</p>
      {res.error && data && (
        <p className="notice notice--error" role="alert">
          {t.loadFailed} {errorMessage(res.error)}
        </p>
      )}
      {body}
    </Modal>
  );
}
