// A failed smart call, inside the card that made it: the server's Hebrew message (ai_key_missing,
// ai_failed with its reason, or the network message), and a link to the settings when no key is
// stored. The spec only logs these; showing them tells the user what to fix.

import { Link } from 'react-router-dom';
import { isKeyMissing } from '../../api/ai';
import { failureMessage } from '../../api/outgoing';
import { LoadError } from '../../components/LoadError';
import { heSmart } from '../../i18n/smart';

export function SmartError({ error, fallback, message, onRetry }: {
  error: unknown;
  /** The call's own failure text, for an answer that carries no message. */
  fallback: string;
  /** Shown instead of the server's message. */
  message?: string;
  onRetry?: () => void;
}) {
  return (
    <LoadError message={message ?? failureMessage(error, fallback)} onRetry={onRetry} className="smart-error" testId="smart-error">
      {isKeyMissing(error) && (
        <Link className="smart-error__link" to="/Settings" data-testid="smart-error-settings">
          {heSmart.goToSettings}
        </Link>
      )}
    </LoadError>
  );
}
