// The rule modal (spec 001 "Rules and filters page", §4, §5): 'כלל חדש' or 'עריכת כלל', with the
// name (required, trimmed), whether all conditions must hold or any one, the condition rows and the
// action rows (each added and removed here), and 'stop further rules'. Save stays disabled while the
// name is blank or there is no condition or no action, and says what is missing. A new rule is
// active (ruleModel's blankDraft); an edited one keeps its switch. The server's 400 messages (in
// Hebrew) show here and everything typed stays; closing discards it (spec §4: "closing resets the
// form" — the page unmounts the modal).

import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { createRule, updateRule, type Rule, type RuleAction, type RuleCondition } from '../../api/rules';
import { CheckboxField, TextField } from '../../components/Field';
import { PlusIcon } from '../../components/icons';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Modal } from '../../components/Modal';
import { heRules } from '../../i18n/rules';
import { ActionRow } from './ActionRow';
import { ConditionRow } from './ConditionRow';
import {
  blankDraft,
  canSave,
  draftOf,
  forwardToConfirm,
  hasForward,
  missingParts,
  newAction,
  newCondition,
  toInput,
  type RuleDraft,
} from './ruleModel';
import { useFolders } from './useFolders';

const t = heRules.form;

export interface RuleFormProps {
  /** The rule to edit; null for a new one. */
  rule: Rule | null;
  onClose: () => void;
  onSaved: (saved: Rule, created: boolean) => void;
}

/** The row just added, whose first control takes the focus. */
type Added = { list: 'condition' | 'action'; index: number } | null;

/** `list` with the item at `index` replaced, or removed when `item` is null. */
function changed<T>(list: readonly T[], index: number, item: T | null): T[] {
  return item === null ? list.filter((_, i) => i !== index) : list.map((x, i) => (i === index ? item : x));
}

export function RuleForm({ rule, onClose, onSaved }: RuleFormProps) {
  const idBase = useId();
  const [draft, setDraft] = useState<RuleDraft>(() => (rule ? draftOf(rule) : blankDraft()));
  const [added, setAdded] = useState<Added>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A forward to an address not confirmed for this rule: the confirm step shows it first.
  const [confirming, setConfirming] = useState<string | null>(null);
  const folders = useFolders();

  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setCondition = (i: number, c: RuleCondition | null) => setDraft((d) => ({ ...d, conditions: changed(d.conditions, i, c) }));
  const setAction = (i: number, a: RuleAction | null) => setDraft((d) => ({ ...d, actions: changed(d.actions, i, a) }));

  function addCondition() {
    setAdded({ list: 'condition', index: draft.conditions.length });
    set({ conditions: [...draft.conditions, newCondition()] });
  }

  function addAction() {
    setAdded({ list: 'action', index: draft.actions.length });
    set({ actions: [...draft.actions, newAction()] });
  }

  const complete = canSave(draft);
  const missing = missingParts(draft);
  const missingText = (['name', 'condition', 'action'] as const).filter((k) => missing[k]).map((k) => t.missing[k]);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!complete || busy) return;
    const to = forwardToConfirm(draft, rule);
    if (to) {
      setConfirming(to);
      return;
    }
    void save(null);
  }

  /** Saves the draft; `confirmed` is the forward address the user just confirmed. */
  async function save(confirmed: string | null) {
    setConfirming(null);
    setBusy(true);
    setError(null);
    const input = confirmed ? { ...toInput(draft), confirm_forward: confirmed } : toInput(draft);
    try {
      const saved = rule ? await updateRule(rule.id, input) : await createRule(input);
      onSaved(saved, !rule);
    } catch (err) {
      // The server's own words (a value missing, a label it cannot store); nothing typed is lost.
      setError(errorMessage(err, t.saveFailed));
      setBusy(false);
    }
  }

  const id = (name: string) => `${idBase}-${name}`;

  return (
    <Modal title={rule ? t.editTitle : t.newTitle} closeLabel={t.close} onClose={onClose} busy={busy} testId="rule-form" wide>
      <form className="form rule-form" onSubmit={submit} noValidate>
        <TextField
          id={id('name')}
          label={
            <>
              {t.name}
              <span className="field__required" aria-hidden="true">
                {' *'}
              </span>
            </>
          }
          placeholder={t.namePlaceholder}
          value={draft.name}
          onValueChange={(name) => set({ name })}
          autoComplete="off"
          aria-required="true"
          data-autofocus
          testId="rule-form-name"
        />

        <fieldset className="rule-form__match">
          <legend>{t.match}</legend>
          {([true, false] as const).map((all) => (
            <label key={String(all)} className="rule-form__radio">
              <input
                type="radio"
                name={id('match')}
                checked={draft.match_all === all}
                onChange={() => set({ match_all: all })}
                data-testid={all ? 'rule-form-match-all' : 'rule-form-match-any'}
              />
              {all ? t.matchAll : t.matchAny}
            </label>
          ))}
        </fieldset>

        <fieldset className="rule-form__section" data-testid="rule-form-conditions">
          <legend>{t.conditions}</legend>
          {draft.conditions.length === 0 ? (
            <p className="rule-form__none">{t.noConditions}</p>
          ) : (
            <ul className="rule-form__rows">
              {draft.conditions.map((c, i) => (
                <ConditionRow
                  key={i}
                  index={i}
                  condition={c}
                  onChange={(next) => setCondition(i, next)}
                  onRemove={() => setCondition(i, null)}
                  autoFocus={added?.list === 'condition' && added.index === i}
                />
              ))}
            </ul>
          )}
          <button type="button" className="link-button rule-form__add" onClick={addCondition} data-testid="rule-form-add-condition">
            <PlusIcon />
            {t.addCondition}
          </button>
        </fieldset>

        <fieldset className="rule-form__section" data-testid="rule-form-actions">
          <legend>{t.actions}</legend>
          {draft.actions.length === 0 ? (
            <p className="rule-form__none">{t.noActions}</p>
          ) : (
            <ul className="rule-form__rows">
              {draft.actions.map((a, i) => (
                <ActionRow
                  key={i}
                  index={i}
                  action={a}
                  onChange={(next) => setAction(i, next)}
                  onRemove={() => setAction(i, null)}
                  forwardTaken={hasForward(draft.actions, i)}
                  folders={folders}
                  autoFocus={added?.list === 'action' && added.index === i}
                />
              ))}
            </ul>
          )}
          <button type="button" className="link-button rule-form__add" onClick={addAction} data-testid="rule-form-add-action">
            <PlusIcon />
            {t.addAction}
          </button>
        </fieldset>

        <CheckboxField
          id={id('stop')}
          label={t.stop}
          hint={t.stopHint}
          checked={draft.stop}
          onCheckedChange={(stop) => set({ stop })}
          testId="rule-form-stop"
        />

        {error && (
          <p className="notice notice--error" role="alert" dir="auto" data-testid="rule-form-error">
            {error}
          </p>
        )}
        <div className="form__actions rule-form__actions">
          {!complete && (
            <small id={id('missing')} className="field__hint rule-form__missing" data-testid="rule-form-missing">
              {t.missingHint(missingText)}
            </small>
          )}
          <button
            type="submit"
            className="button button--primary"
            disabled={!complete || busy}
            aria-describedby={complete ? undefined : id('missing')}
            data-testid="rule-form-save"
          >
            {busy ? t.saving : t.save}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={busy} data-testid="rule-form-cancel">
            {t.cancel}
          </button>
        </div>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t.confirmForwardTitle}
          confirmLabel={t.confirmForwardYes}
          cancelLabel={t.confirmForwardNo}
          onConfirm={() => void save(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p data-testid="rule-forward-confirm">
            {t.confirmForwardBefore} <bdi dir="ltr">{confirming}</bdi>
          </p>
          <p>{t.confirmForwardAfter}</p>
        </ConfirmDialog>
      )}
    </Modal>
  );
}
