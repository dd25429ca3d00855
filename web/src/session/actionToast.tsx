// A toast with one action button under its message (spec 000 §9, spec 001 §9: the household's
// settings found, 'go to settings'; a settings conflict, 'resolve now'). The button closes the
// toast and acts; the toast closes by itself after `duration` like any other.

import type { ToastApi, ToastKind } from './Toasts';

export interface ToastAction {
  label: string;
  onAction: () => void;
  /** The toast's content and its button, for tests. */
  testId: string;
  buttonTestId: string;
}

/** Shows `message` with one action button for `duration` ms. */
export function showActionToast(toast: ToastApi, kind: ToastKind, message: string, duration: number, action: ToastAction): number {
  return toast.show(kind, message, {
    duration,
    render: (close) => (
      <div className="action-toast" data-testid={action.testId}>
        <p dir="auto">{message}</p>
        <button
          type="button"
          className="button action-toast__button"
          onClick={() => {
            close();
            action.onAction();
          }}
          data-testid={action.buttonTestId}
        >
          {action.label}
        </button>
      </div>
    ),
  });
}
