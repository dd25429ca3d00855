// The settings page's spam and ad detection card (spec 001 §2 "Spam and ad detection card", §3
// "Spam-detection settings", §5, §8, §9; issue 18): detection on/off, the AI check (disabled
// without an AI key the server could use), moving spam and ads, the two thresholds (whole
// numbers 1–10, suspicious not above spam), the four lists, activity logging and the spam
// notice. Edited here and saved with the card's button: a failure shows the server's Hebrew
// reason, a lost connection its own message. Below: the recent decisions (SpamActivityList).

import { useId, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { aiKeys, type AiSettings, type KeyExists } from '../../api/ai';
import { ApiError } from '../../api/client';
import { withReason } from '../../api/outgoing';
import {
  THRESHOLD_RANGE,
  parseThreshold,
  saveSpamSettings,
  spamKeys,
  type SpamSettings,
} from '../../api/spam';
import { TextAreaField, TextField } from '../../components/Field';
import { Switch } from '../../components/Switch';
import { heSpam } from '../../i18n/spam';
import '../../styles/spam.css';
import { SpamActivityList } from './SpamActivityList';
import { LoadState } from '../../components/LoadState';

const t = heSpam;

/** As edited: the thresholds are their fields' text until saved. */
export type SpamForm = Omit<SpamSettings, 'spamThreshold' | 'suspiciousThreshold'> & {
  spamThreshold: string;
  suspiciousThreshold: string;
};

export function toSpamForm(s: SpamSettings): SpamForm {
  return { ...s, spamThreshold: String(s.spamThreshold), suspiciousThreshold: String(s.suspiciousThreshold) };
}

/** The body to save, or the Hebrew reason the form cannot be saved. */
export function spamBody(f: SpamForm): { body: SpamSettings } | { error: string } {
  const spam = parseThreshold(f.spamThreshold);
  const suspicious = parseThreshold(f.suspiciousThreshold);
  if (spam === null || suspicious === null) return { error: t.thresholdInvalid };
  if (suspicious > spam) return { error: t.thresholdOrder };
  return { body: { ...f, spamThreshold: spam, suspiciousThreshold: suspicious } };
}

/** Spec 001 §8 "Spam save": the connection-failure message, else the failure with the server's reason. */
export function spamSaveError(err: unknown): string {
  if (err instanceof ApiError && err.isNetworkError) return t.network;
  if (err instanceof TypeError) return t.network;
  return withReason(t.saveFailed, err);
}

const LISTS = ['customKeywords', 'customDomains', 'whitelistDomains', 'whitelistSenders'] as const;
/** The two score thresholds, with their fields' test ids. */
const THRESHOLDS = [
  ['spamThreshold', 'spam-threshold'],
  ['suspiciousThreshold', 'spam-suspicious-threshold'],
] as const;

export function SpamCard() {
  const idBase = useId();
  const { mutate } = useSWRConfig();
  const settings = useSWR<SpamSettings>(spamKeys.settings());
  const keyExists = useSWR<KeyExists>(aiKeys.keyExists());
  const ai = useSWR<AiSettings>(aiKeys.settings());
  const [draft, setDraft] = useState<SpamForm | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const server = settings.data ? toSpamForm(settings.data) : null;
  const form = draft ?? server;
  // Known to have no key the server could use (while unknown, the server decides).
  const keyMissing = keyExists.data?.exists === false && !keyExists.data.household && ai.data?.keyRequired === true;

  function change(values: Partial<SpamForm>) {
    if (!form) return;
    setDraft({ ...form, ...values });
    setSaved(false);
    setError(null);
  }

  async function save() {
    if (!form || saving) return;
    const checked = spamBody(form);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      const res = await saveSpamSettings(checked.body);
      await mutate(spamKeys.settings(), res.settings, { revalidate: false });
      void mutate(spamKeys.activity());
      setDraft(null);
      setSaved(true);
    } catch (err) {
      setError(spamSaveError(err));
    } finally {
      setSaving(false);
    }
  }

  let body;
  if (form) {
    const id = (name: string) => `${idBase}-${name}`;
    body = (
      <form
        className="spam-card__form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <div className="spam-card__switches">
          <Switch id={id('enabled')} label={t.enabled} hint={t.enabledHint} checked={form.enabled} onChange={(v) => change({ enabled: v })} testId="spam-enabled" />
          <div data-testid="spam-use-ai-row" data-key={keyMissing ? 'missing' : 'usable'}>
            <Switch
              id={id('useAI')}
              label={t.useAI}
              hint={keyMissing ? t.useAIKeyMissing : t.useAIHint}
              checked={form.useAI}
              // Spec 001 §5: disabled without an AI key (one already on can still be turned off).
              disabled={keyMissing && !form.useAI}
              onChange={(v) => change({ useAI: v })}
              testId="spam-use-ai"
            />
          </div>
          <Switch id={id('autoMoveSpam')} label={t.autoMoveSpam} checked={form.autoMoveSpam} onChange={(v) => change({ autoMoveSpam: v })} testId="spam-auto-move-spam" />
          <Switch id={id('autoMoveAds')} label={t.autoMoveAds} checked={form.autoMoveAds} onChange={(v) => change({ autoMoveAds: v })} testId="spam-auto-move-ads" />
          <Switch id={id('logActivity')} label={t.logActivity} checked={form.logActivity} onChange={(v) => change({ logActivity: v })} testId="spam-log-activity" />
          <Switch id={id('notifyOnSpam')} label={t.notifyOnSpam} checked={form.notifyOnSpam} onChange={(v) => change({ notifyOnSpam: v })} testId="spam-notify" />
        </div>
        <div className="spam-card__thresholds">
          {THRESHOLDS.map(([name, testId]) => (
            <TextField
              key={name}
              id={id(name)}
              label={t[name]}
              hint={t.thresholdHint}
              type="number"
              inputMode="numeric"
              min={THRESHOLD_RANGE.min}
              max={THRESHOLD_RANGE.max}
              step={1}
              dir="ltr"
              value={form[name]}
              onValueChange={(v) => change({ [name]: v })}
              testId={testId}
            />
          ))}
        </div>
        <div className="spam-card__lists">
          {LISTS.map((name) => (
            <TextAreaField
              key={name}
              id={id(name)}
              label={t[name]}
              hint={name === 'whitelistSenders' ? t.whitelistSendersHint : t.listHint}
              rows={3}
              value={form[name]}
              onValueChange={(v) => change({ [name]: v })}
              testId={`spam-${name}`}
            />
          ))}
        </div>
        <div className="spam-card__bar">
          <button type="submit" className="button button--primary" disabled={saving} data-testid="spam-save">
            {saving ? t.saving : t.save}
          </button>
          {error && (
            <p className="notice notice--error" role="alert" data-testid="spam-error">
              {error}
            </p>
          )}
          {saved && !error && (
            <p className="notice notice--success" role="status" data-testid="spam-saved">
              {t.saved}
            </p>
          )}
          {draft && !saving && !error && (
            <p className="muted" data-testid="spam-dirty">
              {t.unsaved}
            </p>
          )}
        </div>
      </form>
    );
  } else {
    body = <LoadState of={settings} text={t} testIds={{ error: 'spam-load-error' }} />;
  }

  return (
    <section className="card spam-card" aria-labelledby={`${idBase}-title`} data-testid="spam-card" id="spam-detection">
      <h2 id={`${idBase}-title`} className="card__title">
        {t.title}
      </h2>
      <p className="card__status">{t.intro}</p>
      {body}
      <SpamActivityList />
    </section>
  );
}
