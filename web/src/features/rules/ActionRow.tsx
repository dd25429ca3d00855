// One action of the rule form: its kind, and the value that kind needs — a status (the inbox's
// own labels), one of the mailbox's folders, a label (by name, Hebrew too: see LabelInput),
// an address to forward to — or nothing (mark as read, star, delete). A rule forwards at most
// once, so a second row cannot pick "forward" while one has it.

import type { RuleAction, RuleActionKind } from '../../api/rules';
import { RULE_STATUSES } from '../../api/rules';
import { CloseIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { heRules } from '../../i18n/rules';
import { LabelInput } from '../labels/LabelInput';
import { RULE_ACTION_KINDS, newAction } from './ruleModel';
import type { FolderChoice } from './useFolders';

const t = heRules.action;

export interface FolderOptions {
  folders: readonly FolderChoice[];
  loading: boolean;
  failed: boolean;
}

export interface ActionRowProps {
  index: number;
  action: RuleAction;
  onChange: (a: RuleAction) => void;
  onRemove: () => void;
  /** Another row already forwards. */
  forwardTaken: boolean;
  folders: FolderOptions;
  autoFocus?: boolean;
}

function FolderValue({ label, value, onChange, folders }: { label: string; value: string; onChange: (v: string) => void; folders: FolderOptions }) {
  // Without a list (it failed, or no mailbox is connected yet) the name can still be typed.
  if (folders.failed || (!folders.loading && folders.folders.length === 0)) {
    return (
      <input
        className="rule-row__control rule-row__control--value"
        aria-label={label}
        dir="auto"
        autoComplete="off"
        placeholder={t.folderPlaceholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="action-value"
      />
    );
  }
  // A stored folder that is no longer listed stays selectable (and visible) as it is.
  const listed = folders.folders.some((f) => f.name === value);
  return (
    <select
      className="rule-row__control rule-row__control--value"
      aria-label={label}
      value={value}
      disabled={folders.loading}
      onChange={(e) => onChange(e.target.value)}
      data-testid="action-value"
    >
      <option value="" disabled>
        {folders.loading ? t.foldersLoading : t.chooseFolder}
      </option>
      {value !== '' && !listed && <option value={value}>{value}</option>}
      {folders.folders.map((f) => (
        <option key={f.name} value={f.name}>
          {f.label}
        </option>
      ))}
    </select>
  );
}

export function ActionRow({ index, action: a, onChange, onRemove, forwardTaken, folders, autoFocus }: ActionRowProps) {
  const n = index + 1;
  const valueLabel = (what: string) => `${t.row(n)}: ${what}`;
  const setValue = (value: string) => onChange({ ...a, value });

  let value = null;
  let hint = null;
  switch (a.kind) {
    case 'set_status':
      value = (
        <select
          className="rule-row__control rule-row__control--value"
          aria-label={valueLabel(t.status)}
          value={a.value}
          onChange={(e) => setValue(e.target.value)}
          data-testid="action-value"
        >
          {RULE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {he.inbox.statusActions[s]}
            </option>
          ))}
        </select>
      );
      break;
    case 'move_to_folder':
      value = <FolderValue label={valueLabel(t.folder)} value={a.value} onChange={setValue} folders={folders} />;
      if (folders.failed) hint = <small className="field__hint rule-row__hint">{t.foldersFailed}</small>;
      break;
    case 'add_label':
      value = (
        <LabelInput
          className="rule-row__control rule-row__control--value"
          ariaLabel={valueLabel(t.label)}
          placeholder={t.labelPlaceholder}
          value={a.value}
          onChange={setValue}
        />
      );
      hint = <small className="field__hint rule-row__hint">{t.labelHint}</small>;
      break;
    case 'forward_to':
      value = (
        <input
          className="rule-row__control rule-row__control--value"
          aria-label={valueLabel(t.address)}
          type="email"
          dir="ltr"
          autoComplete="off"
          placeholder={t.forwardPlaceholder}
          value={a.value}
          onChange={(e) => setValue(e.target.value)}
          data-testid="action-value"
        />
      );
      hint = <small className="field__hint rule-row__hint">{t.forwardHint}</small>;
      break;
    default:
      break;
  }

  return (
    <li className={`rule-row rule-row--action${value ? '' : ' rule-row--no-value'}`} role="group" aria-label={t.row(n)} data-testid="action-row" data-kind={a.kind}>
      <div className="rule-row__controls">
        <select
          className="rule-row__control rule-row__control--kind"
          aria-label={valueLabel(t.kind)}
          value={a.kind}
          // A new kind starts with its own value: a folder is not a status.
          onChange={(e) => onChange(newAction(e.target.value as RuleActionKind))}
          autoFocus={autoFocus}
          data-testid="action-kind"
        >
          {RULE_ACTION_KINDS.map((k) => (
            <option key={k} value={k} disabled={k === 'forward_to' && forwardTaken}>
              {k === 'forward_to' && forwardTaken ? t.oneForward : t.kinds[k]}
            </option>
          ))}
        </select>
        {value}
        <button
          type="button"
          className="icon-button rule-row__remove"
          aria-label={t.remove(n)}
          title={t.remove(n)}
          onClick={onRemove}
          data-testid="action-remove"
        >
          <CloseIcon />
        </button>
      </div>
      {hint}
    </li>
  );
}
