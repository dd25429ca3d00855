// The AI card's provider choice (docs/API.md "The key and the provider"): Anthropic or an
// OpenAI-compatible server, a model and a base URL. Empty fields mean the server's default, which
// the placeholders show; saving is PUT /api/settings/ai, whose answer (what is now in effect)
// replaces the cached settings. The server's 400 messages show under the form.
// Only who may set the base URL (`baseUrlEditable`: admins, unless the server allows all) gets
// its field; others see the address in effect, read-only, and every save sends their saved base
// URL unchanged (the server refuses any change with 403).

import { useState, type FormEvent } from 'react';
import type { KeyedMutator } from 'swr';
import { saveAiSettings, type AiProvider, type AiProviderChoice, type AiSettings } from '../../api/ai';
import { errorMessage } from '../../api/client';
import { SelectField, TextField } from '../../components/Field';
import { heAiSettings } from '../../i18n/aiSettings';

const t = heAiSettings;

const PROVIDERS: readonly AiProvider[] = ['anthropic', 'openai'];

/**
 * What the server falls back to for a provider other than its configured one (mirrors
 * ProviderKind::default_model / default_base_url in src/ai/provider.rs): model names and URLs.
 */
const PROVIDER_DEFAULTS: Record<AiProvider, { model: string; baseUrl: string }> = {
  anthropic: { model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com' },
  openai: { model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' },
};

function choiceOf(s: AiSettings): AiProviderChoice {
  return { provider: s.provider, model: s.model, baseUrl: s.baseUrl };
}

/** The value an empty field stands for: what the server uses when it is left empty. */
function placeholderFor(field: 'model' | 'baseUrl', provider: AiProvider, s: AiSettings): string {
  // The saved choice already leaves this field empty: the server says what that resolves to.
  if (s.provider === provider && !s[field] && s.effective.provider === provider) return s.effective[field];
  if (s.defaults.provider === provider) return s.defaults[field];
  return PROVIDER_DEFAULTS[provider][field];
}

export function providerLabel(p: AiProvider): string {
  return t.providers[p] ?? p;
}

export function AiProviderForm({
  settings,
  mutate,
  onSaved,
}: {
  settings: AiSettings;
  mutate: KeyedMutator<AiSettings>;
  /** After a save: the settings before it and the server's answer. */
  onSaved?: (before: AiSettings, after: AiSettings) => void;
}) {
  // null: untouched, the form shows the saved choice.
  const [draft, setDraft] = useState<AiProviderChoice | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = draft ?? choiceOf(settings);
  // Missing (an older server): editable, as before.
  const urlEditable = settings.baseUrlEditable !== false;

  function change(values: Partial<AiProviderChoice>) {
    setSaved(false);
    setDraft({ ...form, ...values });
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      const baseUrl = urlEditable ? form.baseUrl.trim() : settings.baseUrl;
      const res = await saveAiSettings({ provider: form.provider, model: form.model.trim(), baseUrl });
      await mutate(res, { revalidate: false });
      setDraft(null);
      setSaved(true);
      onSaved?.(settings, res);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }

  const { effective } = settings;
  return (
    <form className="form ai-provider" onSubmit={onSubmit} noValidate aria-labelledby="ai-provider-title">
      <h3 id="ai-provider-title" className="card__subtitle">
        {t.providerTitle}
      </h3>
      <SelectField
        id="ai-provider"
        label={t.provider}
        disabled={saving}
        value={form.provider}
        // Model names and addresses belong to one provider: a new provider starts from its defaults
        // (the address only for who may change it).
        onValueChange={(v) => change({ provider: v as AiProvider, model: '', baseUrl: urlEditable ? '' : settings.baseUrl })}
      >
        {PROVIDERS.map((p) => (
          <option key={p} value={p}>
            {providerLabel(p)}
          </option>
        ))}
      </SelectField>
      <div className="form-grid">
        <TextField
          id="ai-model"
          verbatim
          label={t.model}
          autoComplete="off"
          placeholder={placeholderFor('model', form.provider, settings)}
          disabled={saving}
          value={form.model}
          onValueChange={(model) => change({ model })}
        />
        {urlEditable ? (
          <TextField
            id="ai-base-url"
            verbatim
            label={t.baseUrl}
            type="url"
            autoComplete="off"
            hint={form.provider === 'openai' ? t.localExample : undefined}
            placeholder={placeholderFor('baseUrl', form.provider, settings)}
            disabled={saving}
            value={form.baseUrl}
            onValueChange={(baseUrl) => change({ baseUrl })}
          />
        ) : (
          <div className="field ai-base-url-locked" data-testid="ai-base-url-locked">
            <span className="ai-base-url-locked__label">{t.baseUrl}</span>
            <bdi dir="ltr" className="ai-base-url-locked__value" data-testid="ai-base-url-locked-value">
              {/* The saved provider's address in effect; for another one, what saving it would use. */}
              {form.provider === settings.provider
                ? effective.baseUrl
                : form.baseUrl || placeholderFor('baseUrl', form.provider, settings)}
            </bdi>
            <small className="field__hint">{t.baseUrlAdminOnly}</small>
          </div>
        )}
      </div>
      <p className="field__hint">{t.defaultsHint}</p>

      <p className="ai-effective" data-testid="ai-effective">
        <span className="ai-effective__label">{t.effective}</span>{' '}
        <span data-testid="ai-effective-provider">{providerLabel(effective.provider)}</span>
        {' · '}
        <bdi dir="ltr" data-testid="ai-effective-model">
          {effective.model}
        </bdi>
        {' · '}
        <bdi dir="ltr" data-testid="ai-effective-url">
          {effective.baseUrl}
        </bdi>
      </p>

      {error && (
        <p className="notice notice--error" role="alert" data-testid="ai-settings-error">
          {error}
        </p>
      )}
      {saved && (
        <p className="notice notice--success" role="status" data-testid="ai-settings-saved">
          {t.saved}
        </p>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving} data-testid="ai-settings-save">
          {saving ? t.saving : t.save}
        </button>
      </div>
    </form>
  );
}
