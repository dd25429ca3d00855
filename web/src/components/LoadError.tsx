// "Failed to load, try again": the error notice shown where something could not be loaded (a
// list, a mail, the settings), with the reason and a button that asks again. Used by every
// feature, so a load failure looks and reads the same everywhere.

import type { ReactNode } from 'react';
import { he } from '../i18n/he';

export interface LoadErrorProps {
  /** What failed and why, e.g. `${t.loadFailed}: ${errorMessage(error)}`. */
  message: ReactNode;
  /** Asks again; without it there is no button (nothing to retry). */
  onRetry?: () => void;
  retryLabel?: string;
  /** Classes besides `notice notice--error`. */
  className?: string;
  testId?: string;
  retryTestId?: string;
  /** The message's direction, for text that may not be Hebrew (a server's own words). */
  messageDir?: 'auto';
  /** Anything between the message and the button (a link to where it can be fixed). */
  children?: ReactNode;
}

export function LoadError({
  message,
  onRetry,
  retryLabel = he.app.retry,
  className,
  testId,
  retryTestId,
  messageDir,
  children,
}: LoadErrorProps) {
  return (
    <div className={className ? `notice notice--error ${className}` : 'notice notice--error'} role="alert" data-testid={testId}>
      <p dir={messageDir}>{message}</p>
      {children}
      {onRetry && (
        <button type="button" className="link-button" onClick={onRetry} data-testid={retryTestId}>
          {retryLabel}
        </button>
      )}
    </div>
  );
}
