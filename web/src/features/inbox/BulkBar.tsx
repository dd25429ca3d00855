// Shown while threads are ticked: how many, the status actions, delete (after the confirmation)
// and move to Trash for every mail of the ticked threads, and a way to clear the selection.

import type { ReactNode } from 'react';
import { he } from '../../i18n/he';
import { STATUS_ACTIONS, type StatusAction } from './triageRules';

const t = he.inbox;

export interface BulkBarProps {
  count: number;
  busy: boolean;
  /** Trash is not offered inside the Trash folder. */
  canTrash: boolean;
  onStatus: (action: StatusAction) => void;
  onDelete: () => void;
  onTrash: () => void;
  onClear: () => void;
  /** More actions on the selection (move to folder). */
  children?: ReactNode;
}

export function BulkBar({ count, busy, canTrash, onStatus, onDelete, onTrash, onClear, children }: BulkBarProps) {
  return (
    <div className="bulk-bar" role="toolbar" aria-label={t.bulk.label} data-testid="bulk-bar">
      <span className="bulk-bar__count" role="status" data-testid="bulk-count">
        {t.bulk.selected(count)}
      </span>
      <div className="bulk-bar__actions">
        {STATUS_ACTIONS.map((a) => (
          <button
            key={a}
            type="button"
            className={`chip-button chip-button--${a}`}
            disabled={busy}
            title={t.statusActionHints[a]}
            onClick={() => onStatus(a)}
            data-testid={`bulk-status-${a}`}
          >
            {t.statusActions[a]}
          </button>
        ))}
        <button
          type="button"
          className="chip-button chip-button--danger"
          disabled={busy}
          onClick={onDelete}
          data-testid="bulk-delete"
        >
          {t.delete}
        </button>
        {canTrash && (
          <button type="button" className="chip-button" disabled={busy} onClick={onTrash} data-testid="bulk-trash">
            {t.trash}
          </button>
        )}
        {children}
        <button type="button" className="link-button bulk-bar__clear" onClick={onClear} data-testid="bulk-clear">
          {t.bulk.clear}
        </button>
      </div>
    </div>
  );
}
