// Google's sign-in without a public address (`paste`): Google's page opened in a new tab (a link
// here in case the browser blocked it), the explanation of the page that will not load at
// 127.0.0.1, and the field the user pastes that address into. A bad paste says why in Hebrew
// and the flow stays open for another try.

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { TextField } from '../../components/Field';
import { heOauth } from '../../i18n/oauth';
import type { OAuthFlow } from './useOAuthSignIn';

const t = heOauth;
const tp = heOauth.paste;

type PasteFlow = Extract<OAuthFlow, { kind: 'paste' }>;

export function PastePanel({
  flow,
  onSubmit,
  onCancel,
}: {
  flow: PasteFlow;
  onSubmit: (url: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState('');
  const errorId = useId();
  const input = useRef<HTMLDivElement>(null);

  // A new flow (a restart) starts with an empty field.
  useEffect(() => setValue(''), [flow.flowId]);

  // After a refused paste the field is where the user fixes it.
  useEffect(() => {
    if (flow.error) input.current?.querySelector('input')?.focus();
  }, [flow.error]);

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    // Inside the mail form: Enter finishes this sign-in, never submits the password form.
    if (e.key === 'Enter') {
      e.preventDefault();
      onSubmit(value);
    }
  }

  return (
    <div className="oauth-flow" data-testid="oauth-paste">
      <ol className="oauth-steps">
        <li>
          <span>{tp.step1}</span>
          <span className="oauth-flow__open">
            <a
              href={flow.authorizeUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="oauth-flow__link"
              data-testid="oauth-paste-link"
            >
              {tp.openLink}
              <span className="visually-hidden"> {heOauth.device.newTab}</span>
            </a>
          </span>
        </li>
        <li>{tp.step2}</li>
        <li>
          {tp.step3}
          <span className="oauth-flow__url">
            <bdi dir="ltr">{flow.redirectUri}…</bdi>
          </span>
        </li>
      </ol>
      <div ref={input}>
        <TextField
          id="oauth-paste-url"
          label={tp.field}
          hint={tp.fieldHint}
          type="url"
          dir="ltr"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={`${flow.redirectUri}?state=…&code=…`}
          maxLength={8192}
          disabled={flow.submitting}
          aria-invalid={flow.error ? true : undefined}
          aria-errormessage={flow.error ? errorId : undefined}
          value={value}
          onValueChange={setValue}
          onKeyDown={onKeyDown}
        />
      </div>
      {flow.error && (
        <p id={errorId} className="notice notice--error" role="alert" data-testid="oauth-paste-error">
          {flow.error}
        </p>
      )}
      <p className="oauth-flow__status" role="status" data-testid="oauth-paste-status">
        {flow.submitting ? tp.submitting : ''}
      </p>
      <div className="form__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={flow.submitting}
          onClick={() => onSubmit(value)}
          data-testid="oauth-paste-submit"
        >
          {flow.submitting ? tp.submitting : tp.submit}
        </button>
        <button type="button" className="button" onClick={onCancel} data-testid="oauth-cancel">
          {t.cancel}
        </button>
      </div>
    </div>
  );
}
