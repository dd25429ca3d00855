// "Run now on existing mail": first asks the server which inbox mails the rule matches now
// (POST /api/rules/{id}/preview, which changes nothing) and shows how many and the first of them,
// then, once confirmed, applies it (POST /api/rules/{id}/run) and says on how many mails it went
// through and on how many some action failed (the details are in the rule's activity, a click
// away). Afterwards the mail lists, the folder counts and the rule's activity are re-read, as
// after any triage change.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { previewRule, runRule, type Rule, type RulePreview, type RuleRunResult } from '../../api/rules';
import { revalidateMailData } from '../../session/revalidateMail';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { heRules } from '../../i18n/rules';
import { formatMailDate } from '../../lib/dates';

const t = heRules.run;

export interface RunRuleDialogProps {
  rule: Rule;
  onClose: () => void;
  /** Opens the rule's activity (where a failed action says why). */
  onShowActivity: (rule: Rule) => void;
}

type Step =
  | { kind: 'checking' }
  | { kind: 'previewFailed'; message: string }
  | { kind: 'preview'; preview: RulePreview; running: boolean; error: string | null }
  | { kind: 'done'; result: RuleRunResult };

export function RunRuleDialog({ rule, onClose, onShowActivity }: RunRuleDialogProps) {
  const { cache, mutate } = useSWRConfig();
  const [step, setStep] = useState<Step>({ kind: 'checking' });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const check = useCallback(async () => {
    setStep({ kind: 'checking' });
    try {
      const preview = await previewRule(rule.id);
      if (mounted.current) setStep({ kind: 'preview', preview, running: false, error: null });
    } catch (err) {
      if (mounted.current) setStep({ kind: 'previewFailed', message: errorMessage(err) });
    }
  }, [rule.id]);

  useEffect(() => {
    void check();
  }, [check]);

  async function run(preview: RulePreview) {
    setStep({ kind: 'preview', preview, running: true, error: null });
    let result: RuleRunResult;
    try {
      result = await runRule(rule.id);
    } catch (err) {
      if (mounted.current) setStep({ kind: 'preview', preview, running: false, error: `${t.failed}: ${errorMessage(err)}` });
      return;
    }
    if (mounted.current) setStep({ kind: 'done', result });
    // The mail it moved, marked or labelled; a list that fails to re-read says so itself.
    void mutate(keys.ruleActivity(rule.id));
    void revalidateMailData(cache, mutate, { counts: true, allPages: true }).catch(() => undefined);
  }

  const running = step.kind === 'preview' && step.running;
  const closeButton = (
    <button type="button" className="button" onClick={onClose} disabled={running} data-testid="rule-run-close">
      {step.kind === 'preview' && step.preview.count > 0 ? t.cancel : t.close}
    </button>
  );

  let body;
  switch (step.kind) {
    case 'checking':
      body = (
        <>
          <p className="card__status" role="status" data-testid="rule-run-checking">
            {t.checking}
          </p>
          <div className="form__actions rule-run__actions">{closeButton}</div>
        </>
      );
      break;
    case 'previewFailed':
      body = (
        <>
          <LoadError
            message={`${t.previewFailed} ${step.message}`}
            onRetry={() => void check()}
            testId="rule-run-preview-error"
            retryTestId="rule-run-retry"
          />
          <div className="form__actions rule-run__actions">{closeButton}</div>
        </>
      );
      break;
    case 'preview': {
      const { preview, error } = step;
      const more = preview.count - preview.sample.length;
      body = (
        <>
          {preview.count === 0 ? (
            <p data-testid="rule-run-none">{t.none}</p>
          ) : (
            <p className="rule-run__question" data-testid="rule-run-question">
              {t.question(preview.count)}
            </p>
          )}
          <p className="field__hint">{t.scanned(preview.scanned)}</p>
          {preview.sample.length > 0 && (
            <ul className="rule-run__sample" aria-label={t.sampleLabel} data-testid="rule-run-sample">
              {preview.sample.map((m) => (
                <li key={m.id} className="rule-run__mail">
                  <span className="rule-run__subject" dir="auto">
                    {m.subject.trim() || heRules.activity.noSubject}
                  </span>
                  <span className="rule-run__from" dir="auto">
                    {m.from}
                  </span>
                  <span className="rule-run__date">{formatMailDate(m.date)}</span>
                </li>
              ))}
            </ul>
          )}
          {more > 0 && <p className="field__hint">{t.more(more)}</p>}
          {error && (
            <p className="notice notice--error" role="alert" dir="auto" data-testid="rule-run-error">
              {error}
            </p>
          )}
          <div className="form__actions rule-run__actions">
            {preview.count > 0 && (
              <button
                type="button"
                className="button button--primary"
                disabled={running}
                onClick={() => void run(preview)}
                data-testid="rule-run-confirm"
              >
                {running ? t.running : t.run}
              </button>
            )}
            {closeButton}
          </div>
        </>
      );
      break;
    }
    case 'done': {
      const { matched, applied } = step.result;
      const failed = matched - applied;
      body = (
        <>
          <div role="status" data-testid="rule-run-done">
            {matched === 0 ? (
              <p>{t.none}</p>
            ) : (
              <>
                {applied > 0 && <p className="notice notice--success">{t.done(applied)}</p>}
                {failed > 0 && (
                  <p className="notice notice--warning" data-testid="rule-run-partial">
                    {t.partial(failed)}
                  </p>
                )}
              </>
            )}
          </div>
          <div className="form__actions rule-run__actions">
            {failed > 0 && (
              <button type="button" className="button" onClick={() => onShowActivity(rule)} data-testid="rule-run-activity">
                {heRules.activity.title}
              </button>
            )}
            {closeButton}
          </div>
        </>
      );
      break;
    }
  }

  return (
    <Modal title={t.title(rule.name)} closeLabel={t.close} onClose={onClose} busy={running} testId="rule-run-dialog" wide>
      <div className="rule-run">{body}</div>
    </Modal>
  );
}
