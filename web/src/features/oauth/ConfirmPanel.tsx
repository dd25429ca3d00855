// Back from Google's redirect: before anything is connected, the user sees the address this
// sign-in connects and confirms it. (Only a flow this session started gets here: useOAuthReturn
// asked the server.) Someone who sent the user a consent link of their own cannot get this far.

import { heOauth } from '../../i18n/oauth';
import type { OAuthFlow } from './useOAuthSignIn';

const t = heOauth.confirm;

type ConfirmFlow = Extract<OAuthFlow, { kind: 'confirm' }>;

export function ConfirmPanel({ flow, onConfirm, onCancel }: { flow: ConfirmFlow; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div className="oauth-flow" data-testid="oauth-confirm">
      <p className="oauth-flow__status" data-testid="oauth-confirm-question">
        {t.question} <bdi dir="ltr">{flow.email}</bdi>
      </p>
      <p className="field__hint">{t.hint}</p>
      {flow.error && (
        <p className="notice notice--error" role="alert" data-testid="oauth-confirm-error">
          {flow.error}
        </p>
      )}
      <div className="form__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={onConfirm}
          disabled={flow.submitting}
          data-testid="oauth-confirm-connect"
        >
          {flow.submitting ? t.connecting : t.connect}
        </button>
        <button type="button" className="button" onClick={onCancel} data-testid="oauth-cancel">
          {heOauth.cancel}
        </button>
      </div>
    </div>
  );
}
