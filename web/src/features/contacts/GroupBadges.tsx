// A card's groups: the first two as badges, the rest counted in one '+N' badge whose tooltip (and
// accessible name) lists them, so a long list never widens or wraps the card.

import { heContacts } from '../../i18n/contacts';
import { splitGroups } from './groups';

const t = heContacts;

export function GroupBadges({ groups }: { groups: readonly string[] }) {
  if (groups.length === 0) return null;
  const { shown, rest } = splitGroups(groups);
  const more = rest.join(', ');
  return (
    <ul className="group-badges" aria-label={heContacts.form.groups} data-testid="contact-groups">
      {shown.map((g) => (
        <li key={g} className="group-badge pill pill--info" title={g} data-testid="contact-group">
          <bdi dir="auto">{g}</bdi>
        </li>
      ))}
      {rest.length > 0 && (
        <li
          className="group-badge pill pill--info group-badge--more"
          title={t.moreGroupsHint(more)}
          aria-label={t.moreGroupsHint(more)}
          data-testid="contact-groups-more"
        >
          <bdi dir="ltr">{t.moreGroups(rest.length)}</bdi>
        </li>
      )}
    </ul>
  );
}
