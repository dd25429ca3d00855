// Toasts (spec 000 §2/§9: a viewport, each closable, at most 20) and the session's notification
// log that the bell reads: every toast shown is also recorded as a notification, newest first,
// keeping the last 20, so a message that vanished while the user looked away is not lost.

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { he } from '../i18n/he';
import { CloseIcon } from '../components/icons';
import { IconButton } from '../components/IconButton';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** Milliseconds before it closes by itself; 0 keeps it until closed. */
  duration: number;
  /**
   * Live content in place of the plain message (a countdown, an action button); `message` is
   * still what the notification log keeps. Rendered in the app-level viewport, so it outlives the
   * screen that showed it; `close` dismisses this toast.
   */
  render?: (close: () => void) => ReactNode;
}

export interface ToastOptions {
  duration?: number;
  render?: Toast['render'];
}

export interface AppNotification {
  id: number;
  kind: ToastKind;
  message: string;
  at: Date;
  read: boolean;
}

export const TOAST_LIMIT = 20;
export const NOTIFICATION_LIMIT = 20;
/** The spec's notification toast display time (spec 000 §9: 3 s). */
export const SPEC_TOAST_MS = 3000;
/**
 * How long each kind stays by itself (the pointer or focus on a toast pauses it; every toast is
 * also kept in the bell's log, so nothing is lost when it goes):
 * - success, info: the spec's 3 s. They confirm what the user just did or saw; noticing is enough.
 * - warning: 6 s. A warning asks the user to do something different next time (a rejected
 *   setting, a partly failed action); its sentence is longer and must be read, not just noticed.
 * - error: 8 s. Errors usually carry the server's own message (often two lines of Hebrew) and
 *   the user may need to copy or act on it; screen readers announce them at once (role alert),
 *   and a sighted user who looked away must still catch them.
 * Toasts with an action (undo, "resolve now", a countdown) pass their own duration.
 */
export const TOAST_DURATION: Record<ToastKind, number> = {
  success: SPEC_TOAST_MS,
  info: SPEC_TOAST_MS,
  warning: 6000,
  error: 8000,
};

export interface ToastApi {
  show: (kind: ToastKind, message: string, options?: ToastOptions) => number;
  success: (message: string) => number;
  error: (message: string) => number;
  warning: (message: string) => number;
  info: (message: string) => number;
  dismiss: (id: number) => void;
  /** Drops every toast and notification: they belong to the session that is ending. */
  clearAll: () => void;
}

export interface NotificationsApi {
  items: AppNotification[];
  unreadCount: number;
  markAllRead: () => void;
}

const ToastContext = createContext<ToastApi | null>(null);
const NotificationsContext = createContext<NotificationsApi | null>(null);

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast outside ToastProvider');
  return ctx;
}

export function useNotifications(): NotificationsApi {
  const ctx = useContext(NotificationsContext);
  if (!ctx) throw new Error('useNotifications outside ToastProvider');
  return ctx;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [notifications, setNotifications] = useState<AppNotification[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((ts) => ts.filter((t) => t.id !== id));
  }, []);

  const show = useCallback((kind: ToastKind, message: string, options?: ToastOptions) => {
    const id = nextId.current++;
    const duration = options?.duration ?? TOAST_DURATION[kind];
    const render = options?.render;
    // Oldest go first when over the limit.
    setToasts((ts) => [...ts, { id, kind, message, duration, render }].slice(-TOAST_LIMIT));
    setNotifications((ns) =>
      [{ id, kind, message, at: new Date(), read: false }, ...ns].slice(0, NOTIFICATION_LIMIT),
    );
    return id;
  }, []);

  const clearAll = useCallback(() => {
    setToasts([]);
    setNotifications([]);
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      show,
      dismiss,
      clearAll,
      success: (m) => show('success', m),
      error: (m) => show('error', m),
      warning: (m) => show('warning', m),
      info: (m) => show('info', m),
    }),
    [show, dismiss, clearAll],
  );

  const markAllRead = useCallback(() => {
    setNotifications((ns) => (ns.some((n) => !n.read) ? ns.map((n) => ({ ...n, read: true })) : ns));
  }, []);

  const notificationsApi = useMemo<NotificationsApi>(
    () => ({
      items: notifications,
      unreadCount: notifications.filter((n) => !n.read).length,
      markAllRead,
    }),
    [notifications, markAllRead],
  );

  return (
    <ToastContext.Provider value={api}>
      <NotificationsContext.Provider value={notificationsApi}>
        {children}
        <ToastViewport toasts={toasts} onDismiss={dismiss} />
      </NotificationsContext.Provider>
    </ToastContext.Provider>
  );
}

function ToastViewport({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <section className="toast-viewport" aria-label={he.toasts.region} data-testid="toast-viewport">
      <ol className="toast-list">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onDismiss={onDismiss} />
        ))}
      </ol>
    </section>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const [paused, setPaused] = useState(false);

  // Auto-dismiss, paused while the pointer or keyboard focus is on the toast so it can be read.
  useEffect(() => {
    if (paused || toast.duration <= 0) return;
    const t = window.setTimeout(() => onDismiss(toast.id), toast.duration);
    return () => window.clearTimeout(t);
  }, [paused, toast.id, toast.duration, onDismiss]);

  return (
    <li
      className={`toast toast--${toast.kind}`}
      // Errors interrupt the screen reader; the rest wait politely.
      role={toast.kind === 'error' ? 'alert' : 'status'}
      data-testid="toast"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span className="toast__kind">{he.toasts.kinds[toast.kind]}</span>
      {toast.render ? (
        <div className="toast__message">{toast.render(() => onDismiss(toast.id))}</div>
      ) : (
        <p className="toast__message" dir="auto">
          {toast.message}
        </p>
      )}
      <IconButton label={he.toasts.close} className="toast__close" onClick={() => onDismiss(toast.id)}>
        <CloseIcon />
      </IconButton>
    </li>
  );
}
