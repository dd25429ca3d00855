// Smart compose (spec 001 §5 "smart compose needs non-blank text"): a few words about the mail,
// 'כתוב מייל' asks POST /api/smart/compose and opens Compose with the written body. A blank
// prompt is stopped here with the spec's message; the server's own refusal shows the same way.

import { useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { smartCompose } from '../../api/ai';
import { PenIcon } from '../../components/icons';
import { heSmart } from '../../i18n/smart';
import { composeHref } from './format';
import { SmartError } from './SmartError';

const t = heSmart.compose;

export function ComposeCard() {
  const navigate = useNavigate();
  const id = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const [prompt, setPrompt] = useState('');
  const [blank, setBlank] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    if (busy) return;
    if (!prompt.trim()) {
      setBlank(true);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const res = await smartCompose(prompt.trim());
      navigate(composeHref(res.content ?? ''));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  }

  return (
    <section className="card smart-card" data-testid="smart-compose-card" aria-busy={busy} aria-labelledby={`${id}-title`}>
      <h3 className="card__subtitle" id={`${id}-title`}>
        {t.title}
      </h3>
      <form className="smart-compose" onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={`${id}-prompt`}>{t.label}</label>
        <textarea
          ref={input}
          id={`${id}-prompt`}
          className="textbox smart-compose__input"
          dir="auto"
          rows={3}
          value={prompt}
          placeholder={t.placeholder}
          aria-invalid={blank || undefined}
          aria-describedby={blank ? `${id}-blank` : undefined}
          onChange={(e) => {
            setPrompt(e.target.value);
            if (e.target.value.trim()) setBlank(false);
          }}
          data-testid="smart-compose-input"
        />
        {blank && (
          <p className="smart-compose__invalid" id={`${id}-blank`} role="alert" data-testid="smart-compose-blank">
            {t.blank}
          </p>
        )}
        {error !== undefined && <SmartError error={error} fallback={t.failed} />}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy} data-testid="smart-compose-submit">
            <PenIcon />
            {busy ? t.busy : t.button}
          </button>
        </div>
      </form>
    </section>
  );
}
