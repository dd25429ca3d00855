// What a card or list shows while its data is not there: the loading line, and once loading
// failed the load error (what failed, the reason) with a retry. The same two states were written
// out in every card and page; this is the one place they look and read alike.

import { errorMessage } from '../api/client';
import { he } from '../i18n/he';
import { LoadError } from './LoadError';

export interface LoadStateProps {
  /** The SWR answer (or anything with its error and mutate): the error's reason, and the retry. */
  of: { error?: unknown; mutate: () => unknown };
  /** `loadFailed`: what failed (a trailing colon, if wanted, is the caller's); `loading`: the line
   *  while loading, the app's 'טוען...' when absent. A feature's strings usually fit as they are. */
  text: { loadFailed: string; loading?: string };
  /** Whether loading failed; by default whether there is an error (a 2xx that is not the data is one too). */
  failed?: boolean;
  /** The error notice's data-testid, its retry button's and the loading line's. */
  testIds?: { error?: string; retry?: string; loading?: string };
}

export function LoadState({ of, text, failed = of.error !== undefined, testIds = {} }: LoadStateProps) {
  if (failed) {
    const message = `${text.loadFailed} ${errorMessage(of.error)}`;
    return <LoadError message={message} onRetry={() => void of.mutate()} testId={testIds.error} retryTestId={testIds.retry} />;
  }
  return (
    <p className="card__status" role="status" data-testid={testIds.loading}>
      {text.loading ?? he.app.loading}
    </p>
  );
}

/** A list that did load once and then failed to refresh: it stays, with this notice above it. */
export function RefreshFailed({ error, text }: { error: unknown; text: { loadFailed: string } }) {
  return (
    <p className="notice notice--error" role="alert">
      {text.loadFailed} {errorMessage(error)}
    </p>
  );
}
