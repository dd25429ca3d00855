// The notification bell (spec 000 §2). The spec's bell shows a fixed 3; this one is real: it counts
// unread entries of the session's notification log (every toast shown is logged, last 20 kept).

import { useCallback, useId, useRef, useState } from 'react';
import { BellIcon } from '../components/icons';
import { useDismiss } from '../components/useDismiss';
import { he } from '../i18n/he';
import { formatTime } from '../lib/dates';
import { useNotifications } from '../session/Toasts';

export function NotificationBell() {
  const { items, unreadCount, markAllRead } = useNotifications();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);

  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className="icon-button bell"
        aria-label={unreadCount > 0 ? he.notifications.bellWithCount(unreadCount) : he.notifications.bell}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="notification-bell"
      >
        <BellIcon />
        {unreadCount > 0 && (
          <span className="badge badge--alert bell__badge" aria-hidden="true" data-testid="notification-count">
            {unreadCount > 99 ? '99+' : unreadCount}
          </span>
        )}
      </button>
      {open && (
        <div id={panelId} className="popover popover--end notifications" role="dialog" aria-label={he.notifications.title}>
          <div className="popover__header">
            <h2 className="popover__title">{he.notifications.title}</h2>
            <button
              type="button"
              className="link-button"
              onClick={markAllRead}
              disabled={unreadCount === 0}
              data-testid="notifications-mark-all-read"
            >
              {he.notifications.markAllRead}
            </button>
          </div>
          {items.length === 0 ? (
            <p className="popover__empty">{he.notifications.empty}</p>
          ) : (
            <ul className="notifications__list">
              {items.map((n) => (
                <li key={n.id} className={`notification notification--${n.kind}${n.read ? '' : ' is-unread'}`}>
                  <span className={`dot dot--${n.kind}`} aria-hidden="true" />
                  <span className="notification__message" dir="auto">
                    {n.message}
                  </span>
                  <time className="notification__time" dateTime={n.at.toISOString()}>
                    {formatTime(n.at)}
                  </time>
                  {!n.read && <span className="visually-hidden">{he.notifications.unread}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
