// The status buttons of the reading pane (spec 000 §4 "Setting a status"): processed, needs reply
// (priority high), info, spam, advertisement and urgent (keeps the status). The mail's current
// status shows as a pressed button and, with an urgent or high priority, as chips.

import type { Email } from '../../api/types';
import { he } from '../../i18n/he';
import { labelText, shownPriority } from '../../lib/mailLabels';
import { STATUS_ACTIONS, hasStatus, type StatusAction } from './triageRules';

const t = he.inbox;

export interface StatusButtonsProps {
  email: Pick<Email, 'status' | 'priority'>;
  busy: boolean;
  onStatus: (action: StatusAction) => void;
}

/** The mail's status and (urgent or high) priority as chips; nothing when it has neither. */
export function StatusChips({ email }: { email: Pick<Email, 'status' | 'priority'> }) {
  const priority = shownPriority(email.priority);
  if (!email.status && !priority) return null;
  return (
    <span className="status-chips" aria-label={t.currentStatus} role="group">
      {email.status && (
        <span className={`label-chip label-chip--${email.status}`} data-testid="reading-status" data-status={email.status}>
          {labelText(email.status)}
        </span>
      )}
      {priority && (
        <span className={`label-chip label-chip--${priority}`} data-testid="reading-priority" data-priority={priority}>
          {labelText(priority)}
        </span>
      )}
    </span>
  );
}

export function StatusButtons({ email, busy, onStatus }: StatusButtonsProps) {
  return (
    <div className="status-buttons" role="group" aria-label={t.statusGroup}>
      {STATUS_ACTIONS.map((a: StatusAction) => {
        const active = hasStatus(email, a);
        return (
          <button
            key={a}
            type="button"
            className={`chip-button chip-button--${a}${active ? ' is-active' : ''}`}
            aria-pressed={active}
            disabled={busy}
            title={t.statusActionHints[a]}
            onClick={() => onStatus(a)}
            data-testid={`status-${a}`}
          >
            {t.statusActions[a]}
          </button>
        );
      })}
    </div>
  );
}
