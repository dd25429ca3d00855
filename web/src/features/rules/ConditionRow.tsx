// One condition of the rule form: the field, its test ('מכיל / לא מכיל', 'הוא / אינו', 'כן / לא'
// — the condition's `negate`), and what the field needs: a word, a domain, a size in KB, a header's
// name and an optional value, or nothing (attachment, mailing list). A row is a group of labelled
// controls; on a phone they stack (rules-dialogs.css).

import type { RuleCondition, RuleField } from '../../api/rules';
import { CloseIcon } from '../../components/icons';
import { heRules } from '../../i18n/rules';
import { RULE_FIELDS, fieldKind, withField, type FieldKind } from './ruleModel';

const t = heRules.condition;

/** The two choices of the test select: [not negated, negated]. */
function operators(kind: FieldKind, headerValue: string): [string, string] {
  switch (kind) {
    case 'text':
      return [t.ops.contains, t.ops.notContains];
    case 'domain':
      return [t.ops.is, t.ops.isNot];
    case 'flag':
      return [t.ops.yes, t.ops.no];
    case 'size':
      return [t.ops.above, t.ops.notAbove];
    case 'header':
      // With no value the header only has to exist (or not).
      return headerValue.trim() === ''
        ? [t.ops.exists, t.ops.notExists]
        : [t.ops.headerContains, t.ops.headerNotContains];
  }
}

export interface ConditionRowProps {
  /** The row's place, from 0. */
  index: number;
  condition: RuleCondition;
  onChange: (c: RuleCondition) => void;
  onRemove: () => void;
  /** Focus the field select when the row was just added. */
  autoFocus?: boolean;
}

export function ConditionRow({ index, condition: c, onChange, onRemove, autoFocus }: ConditionRowProps) {
  const kind = fieldKind(c.field);
  const [yes, no] = operators(kind, c.value);
  const n = index + 1;
  const set = (patch: Partial<RuleCondition>) => onChange({ ...c, ...patch });

  return (
    <li className={`rule-row rule-row--${kind}`} role="group" aria-label={t.row(n)} data-testid="condition-row" data-field={c.field}>
      <div className="rule-row__controls">
        <select
          className="rule-row__control rule-row__control--field"
          aria-label={`${t.row(n)}: ${t.field}`}
          value={c.field}
          onChange={(e) => onChange(withField(c, e.target.value as RuleField))}
          autoFocus={autoFocus}
          data-testid="condition-field"
        >
          {RULE_FIELDS.map((f) => (
            <option key={f} value={f}>
              {t.fields[f]}
            </option>
          ))}
        </select>

        {kind === 'header' && (
          <input
            className="rule-row__control rule-row__control--header"
            aria-label={`${t.row(n)}: ${t.headerName}`}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            placeholder={t.placeholders.header}
            value={c.header}
            onChange={(e) => set({ header: e.target.value })}
            data-testid="condition-header"
          />
        )}

        <select
          className="rule-row__control rule-row__control--op"
          aria-label={`${t.row(n)}: ${t.operator}`}
          value={c.negate ? 'no' : 'yes'}
          onChange={(e) => set({ negate: e.target.value === 'no' })}
          data-testid="condition-op"
        >
          <option value="yes">{yes}</option>
          <option value="no">{no}</option>
        </select>

        {(kind === 'text' || kind === 'domain' || kind === 'header') && (
          <input
            className="rule-row__control rule-row__control--value"
            aria-label={`${t.row(n)}: ${t.value}`}
            dir={kind === 'domain' ? 'ltr' : 'auto'}
            autoComplete="off"
            placeholder={kind === 'header' ? t.placeholders.headerValue : t.placeholders[c.field as keyof typeof t.placeholders]}
            value={c.value}
            onChange={(e) => set({ value: e.target.value })}
            data-testid="condition-value"
          />
        )}

        {kind === 'size' && (
          <span className="rule-row__size">
            <input
              className="rule-row__control rule-row__control--value"
              aria-label={`${t.row(n)}: ${t.value} (${t.kb})`}
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              dir="ltr"
              placeholder={t.placeholders.size_above}
              value={c.value}
              onChange={(e) => set({ value: e.target.value })}
              data-testid="condition-value"
            />
            <span className="rule-row__unit" aria-hidden="true">
              {t.kb}
            </span>
          </span>
        )}

        <button
          type="button"
          className="icon-button rule-row__remove"
          aria-label={t.remove(n)}
          title={t.remove(n)}
          onClick={onRemove}
          data-testid="condition-remove"
        >
          <CloseIcon />
        </button>
      </div>
      {kind === 'header' && <small className="field__hint rule-row__hint">{t.hints.header}</small>}
    </li>
  );
}
