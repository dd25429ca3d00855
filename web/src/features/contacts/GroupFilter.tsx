// The group filter: every group the user has (the server lists them whatever is filtered), or all
// of them. A chosen group that no contact holds any more stays listed while chosen, so the select
// never shows a value it does not offer.

import { heContacts } from '../../i18n/contacts';

const t = heContacts;

export interface GroupFilterProps {
  id: string;
  groups: readonly string[];
  value: string;
  onChange: (group: string) => void;
}

export function GroupFilter({ id, groups, value, onChange }: GroupFilterProps) {
  const options = value && !groups.includes(value) ? [...groups, value] : groups;
  return (
    <div className="contacts-toolbar__group">
      <label htmlFor={id} className="visually-hidden">
        {t.group}
      </label>
      <select
        id={id}
        className="contacts-select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="contacts-group-filter"
      >
        <option value="">{t.allGroups}</option>
        {options.map((g) => (
          <option key={g} value={g}>
            {g}
          </option>
        ))}
      </select>
    </div>
  );
}
