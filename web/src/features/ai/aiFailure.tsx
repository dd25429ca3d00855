// The toast for a failed AI call (the inbox's smart reply, the compose page's AI menu): the server's
// reason after the spec's failure text, and for a missing provider key the server's message as is
// with a link to the settings, where the key is stored.

import { Link } from 'react-router-dom';
import { aiFailureMessage, isKeyMissing } from '../../api/ai';
import type { ToastApi } from '../../session/Toasts';
import { heAi } from '../../i18n/ai';

export function showAiFailure(toast: ToastApi, e: unknown, fixed: string): void {
  const message = aiFailureMessage(e, fixed);
  if (!isKeyMissing(e)) {
    toast.error(message);
    return;
  }
  toast.show('error', message, {
    render: (close) => (
      <p className="ai-key-missing" dir="auto" data-testid="ai-key-missing">
        {message}{' '}
        <Link to="/Settings" className="ai-key-missing__link" onClick={close} data-testid="ai-settings-link">
          {heAi.toSettings}
        </Link>
      </p>
    ),
  });
}
