import type { ReactNode } from 'react';

/** A calm, centred placeholder for screens with nothing (yet) to show. */
export function EmptyState({
  icon,
  children,
  action,
  testId = 'empty-state',
}: {
  icon?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="empty-state" data-testid={testId}>
      {icon && <div className="empty-state__icon">{icon}</div>}
      <div className="empty-state__text">{children}</div>
      {action && <div className="empty-state__action">{action}</div>}
    </div>
  );
}

/** Nothing in the list matches its filter: says so, with the way back to the whole list. */
export function NoMatch({ text, actionLabel, onAction, testId }: { text: string; actionLabel: string; onAction: () => void; testId: string }) {
  return (
    <div className="no-match" data-testid={testId}>
      <p>{text}</p>
      <button type="button" className="link-button" onClick={onAction}>
        {actionLabel}
      </button>
    </div>
  );
}
