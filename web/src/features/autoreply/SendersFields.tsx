// Whom to answer (spec 001 §3): personal mail only, the exclusions (robots, spam), and the black
// and white lists — addresses or @domains separated by commas or newlines, as the server splits
// them (autoreply/settings.rs `entries`).

import { Switch } from '../../components/Switch';
import { heAutoReply } from '../../i18n/autoReply';
import type { FieldGroupProps } from './useAutoReplySettings';

const t = heAutoReply;

type BoolField = 'autoReplyOnlyPersonal' | 'autoReplyExcludeAutomated' | 'autoReplyExcludeSpam';
type ListField = 'autoReplyBlacklist' | 'autoReplyWhitelist';

const SWITCHES: readonly { field: BoolField; label: string; hint: string; testId: string }[] = [
  { field: 'autoReplyOnlyPersonal', label: t.onlyPersonal, hint: t.onlyPersonalHint, testId: 'auto-reply-only-personal' },
  { field: 'autoReplyExcludeAutomated', label: t.excludeAutomated, hint: t.excludeAutomatedHint, testId: 'auto-reply-exclude-automated' },
  { field: 'autoReplyExcludeSpam', label: t.excludeSpam, hint: t.excludeSpamHint, testId: 'auto-reply-exclude-spam' },
];

const LISTS: readonly { field: ListField; label: string; hint: string; testId: string }[] = [
  { field: 'autoReplyBlacklist', label: t.blacklist, hint: t.blacklistHint, testId: 'auto-reply-blacklist' },
  { field: 'autoReplyWhitelist', label: t.whitelist, hint: t.whitelistHint, testId: 'auto-reply-whitelist' },
];

export function SendersFields({ idBase, values, change }: FieldGroupProps) {
  return (
    <fieldset className="auto-reply__section" data-testid="auto-reply-senders">
      <legend className="card__subtitle">{t.sections.senders}</legend>
      {SWITCHES.map((s) => (
        <Switch
          key={s.field}
          id={`${idBase}-${s.field}`}
          label={s.label}
          hint={s.hint}
          checked={values[s.field]}
          onChange={(on) => change({ [s.field]: on })}
          testId={s.testId}
        />
      ))}
      <div className="auto-reply__row auto-reply__lists">
        {LISTS.map((l) => (
          <div key={l.field} className="field">
            <label htmlFor={`${idBase}-${l.field}`}>{l.label}</label>
            <textarea
              id={`${idBase}-${l.field}`}
              className="textbox auto-reply__list"
              dir="ltr"
              rows={3}
              spellCheck={false}
              placeholder={t.listPlaceholder}
              aria-describedby={`${idBase}-${l.field}-hint`}
              value={values[l.field]}
              onChange={(e) => change({ [l.field]: e.target.value })}
              data-testid={l.testId}
            />
            <small id={`${idBase}-${l.field}-hint`} className="field__hint">
              {l.hint}
            </small>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
