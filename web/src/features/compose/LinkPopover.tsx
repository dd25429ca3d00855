// The toolbar's "add link" box: a small inline form under the toolbar instead of window.prompt
// (which cannot be styled right-to-left or tested). Only http(s) and mailto links are accepted.

import { useState, type KeyboardEvent } from 'react';
import { heEditor } from '../../i18n/editor';
import { safeLinkUrl } from './linkUrl';

export function LinkPopover({ onApply, onCancel }: { onApply: (url: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(e: { preventDefault: () => void }) {
    e.preventDefault();
    const url = safeLinkUrl(value);
    if (!url) {
      setError(heEditor.linkInvalid);
      return;
    }
    onApply(url);
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onCancel();
    }
  }

  // A group, not a form: Enter here adds the link and must never reach anything around it.
  return (
    <div className="link-popover" role="group" aria-label={heEditor.link} onKeyDown={onKeyDown} data-testid="link-popover">
      <label htmlFor="compose-link-url" className="visually-hidden">
        {heEditor.linkUrl}
      </label>
      <input
        id="compose-link-url"
        type="text"
        inputMode="url"
        dir="ltr"
        autoFocus
        placeholder={heEditor.linkPlaceholder}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'compose-link-error' : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          // Adds the link and nothing else (Ctrl+Enter must not also send the mail).
          e.stopPropagation();
          submit(e);
        }}
        data-testid="link-url"
      />
      <button type="button" className="button button--primary" onClick={submit} data-testid="link-apply">
        {heEditor.linkApply}
      </button>
      <button type="button" className="button" onClick={onCancel} data-testid="link-cancel">
        {heEditor.linkCancel}
      </button>
      {error && (
        <p id="compose-link-error" className="link-popover__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
