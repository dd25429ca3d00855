// One recipient list (to, cc or bcc) as chips with a text input (spec 000 §2, §5). An address
// becomes a chip on Enter, a comma or leaving the field; an invalid one stays in the input with
// the error shown by the page, so nothing typed is thrown away. Backspace in the empty input
// removes the last chip, like every mail client's address field.

import { useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { CloseIcon } from '../../components/icons';
import { heCompose } from '../../i18n/compose';
import { addRecipients } from './recipients';

export interface RecipientFieldProps {
  id: string;
  label: string;
  emails: string[];
  onChange: (emails: string[]) => void;
  /** A validation message for the page to show, or null when the last change was fine. */
  onError: (message: string | null) => void;
  testId: string;
  autoFocus?: boolean;
  /** Shown at the row's end (the To row holds the cc/bcc toggles there). */
  after?: ReactNode;
}

export function RecipientField({ id, label, emails, onChange, onError, testId, autoFocus, after }: RecipientFieldProps) {
  const [text, setText] = useState('');

  /** Turns `value` into chips; what is invalid stays in the input and the problem is reported. */
  function commit(value: string): void {
    if (!value.trim()) return;
    const result = addRecipients(value, emails);
    if (result.list.length !== emails.length) onChange(result.list);
    setText(result.rest);
    onError(result.error);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.nativeEvent.isComposing) return;
    // Ctrl/Cmd+Enter sends the mail (the form's shortcut): the address being typed must not be
    // left behind, so it is not sent until it became a chip (or was reported invalid).
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && text.trim()) {
      e.preventDefault();
      e.stopPropagation();
      commit(text);
      return;
    }
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) return;
    if (e.key === 'Enter' || e.key === ',' || e.key === ';') {
      // Enter must not submit anything, and the separator is not part of the address.
      e.preventDefault();
      commit(text);
    } else if (e.key === 'Backspace' && text === '' && emails.length > 0) {
      e.preventDefault();
      onChange(emails.slice(0, -1));
      onError(null);
    }
  }

  function onPaste(e: ClipboardEvent<HTMLInputElement>) {
    const pasted = e.clipboardData.getData('text');
    // A pasted list of addresses becomes chips at once; a single word is just typed text.
    if (/[,;\s]/.test(pasted.trim())) {
      e.preventDefault();
      commit(text + pasted);
    }
  }

  return (
    <div className="recipient-row">
      <label className="recipient-row__label" htmlFor={id}>
        {label}
      </label>
      <ul className="chips" aria-label={heCompose.recipientsHint(label, emails.length)}>
        {emails.map((email) => (
          <li key={email} className="chip" data-testid="recipient-chip" data-email={email}>
            <bdi dir="ltr" className="chip__text">
              {email}
            </bdi>
            <button
              type="button"
              className="chip__remove"
              aria-label={heCompose.removeRecipient(email)}
              onClick={() => {
                onChange(emails.filter((x) => x !== email));
                onError(null);
              }}
            >
              <CloseIcon />
            </button>
          </li>
        ))}
        <li className="chips__input">
          <input
            id={id}
            // type=text, not email: an email input trims and rewrites what is being typed.
            type="text"
            inputMode="email"
            // Addresses read left to right; the (Hebrew) placeholder right to left.
            dir={text ? 'ltr' : 'rtl'}
            autoComplete="email"
            // autoFocus on a fresh mail only: the page decides which field the user starts in.
            autoFocus={autoFocus}
            placeholder={emails.length === 0 ? heCompose.recipientsPlaceholder : undefined}
            title={heCompose.recipientsHelp}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value === '') onError(null);
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onBlur={() => commit(text)}
            data-testid={testId}
          />
        </li>
      </ul>
      {after}
    </div>
  );
}
