// The settings page's auto-reply card (spec 001 §2 "Auto-reply card", §3, §4, §5, §8, §9;
// docs/API.md "Auto-reply"): the enable switch, then the settings (work hours, reply style,
// senders, limits and the check interval), beside the stats, the clear-list action and what the
// monitor decided lately. Every setting stays editable while auto-reply is off and is saved
// 100 ms after it changes (useAutoReplySettings).
//
// Turning it on needs an AI key the server can use with nobody signed in: one stored, or a
// provider that needs none (an OpenAI-compatible local model: `keyRequired` false), or one typed
// here — sent with the save in `x-api-key`, and then stored by the server. Without any, the
// switch stays off with the spec's message; the server refuses too and its message is shown.

import { useId, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { aiKeys, type AiSettings, type KeyExists } from '../../api/ai';
import type { AutoReplyActivity, AutoReplyStats } from '../../api/autoReply';
import { keys } from '../../api/keys';
import { TextField } from '../../components/Field';
import { Switch } from '../../components/Switch';
import { heAutoReply } from '../../i18n/autoReply';
import '../../styles/autoreply.css';
import { ActivityList } from './ActivityList';
import { ClearDrafts } from './ClearDrafts';
import { LimitsFields } from './LimitsFields';
import { ReplyStyleFields } from './ReplyStyleFields';
import { SendersFields } from './SendersFields';
import { AUTO_REPLY_STATS_POLL_MS, StatsPanel } from './StatsPanel';
import { useAutoReplySettings } from './useAutoReplySettings';
import { WorkHoursFields } from './WorkHoursFields';
import { LoadState } from '../../components/LoadState';

const t = heAutoReply;

export function AutoReplyCard() {
  const idBase = useId();
  const { mutate } = useSWRConfig();
  const [typedKey, setTypedKey] = useState('');
  const keyExists = useSWR<KeyExists>(aiKeys.keyExists());
  const ai = useSWR<AiSettings>(aiKeys.settings());
  const stats = useSWR<AutoReplyStats>(keys.autoReplyStats(), { refreshInterval: AUTO_REPLY_STATS_POLL_MS });
  const activity = useSWR<AutoReplyActivity>(keys.autoReplyActivity(), { refreshInterval: AUTO_REPLY_STATS_POLL_MS });

  const settings = useAutoReplySettings(
    () => typedKey,
    () => {
      // The server stored the typed key: the AI card's status and this card follow.
      setTypedKey('');
      void mutate(aiKeys.keyExists());
      void mutate(aiKeys.settings());
    },
  );
  const { values, change, error, setError } = settings;

  // Known to have no key the server could use (while unknown, the server decides).
  const keyMissing = keyExists.data?.exists === false && !keyExists.data.household && ai.data?.keyRequired === true;
  const keyState = keyMissing ? 'missing' : keyExists.data && ai.data ? 'usable' : 'unknown';

  function setEnabled(on: boolean) {
    if (on && keyMissing && !typedKey.trim()) {
      setError(t.keyMissing);
      return;
    }
    change({ autoReplyEnabled: on });
  }

  let form;
  if (values) {
    form = (
      <div className="auto-reply__settings">
        <WorkHoursFields idBase={idBase} values={values} change={change} />
        <ReplyStyleFields idBase={idBase} values={values} change={change} />
        <SendersFields idBase={idBase} values={values} change={change} />
        <LimitsFields idBase={idBase} values={values} change={change} />
      </div>
    );
  } else {
    const load = { error: settings.loadError, mutate: settings.reload };
    form = <LoadState of={load} text={t} testIds={{ error: 'auto-reply-load-error' }} />;
  }

  return (
    <section className="card auto-reply-card" aria-labelledby={`${idBase}-title`} data-testid="auto-reply-card">
      <div className="auto-reply-card__header">
        <h2 id={`${idBase}-title`} className="card__title">
          {t.title}
        </h2>
        {settings.saving && (
          <span className="auto-reply-card__saving" role="status" data-testid="auto-reply-saving">
            {t.saving}
          </span>
        )}
      </div>
      <p className="card__status">{t.intro}</p>

      <div className="auto-reply__enable" data-testid="auto-reply-enable" data-key={keyState}>
        <Switch
          id={`${idBase}-enabled`}
          label={t.enabled}
          hint={t.enabledHint}
          checked={values?.autoReplyEnabled ?? false}
          disabled={!values}
          onChange={setEnabled}
          testId="auto-reply-enabled"
        />
        {keyMissing && !values?.autoReplyEnabled && (
          <TextField
            id={`${idBase}-key`}
            label={t.keyLabel}
            hint={t.keyHint}
            type="password"
            autoComplete="off"
            dir="ltr"
            placeholder={t.keyPlaceholder}
            value={typedKey}
            onValueChange={(v) => {
              setTypedKey(v);
              if (error === t.keyMissing) setError(null);
            }}
            testId="auto-reply-key"
          />
        )}
        {error && (
          <p className="notice notice--error auto-reply__notice" role="alert" data-testid="auto-reply-error">
            {error}
          </p>
        )}
      </div>

      <div className="auto-reply__layout">
        {form}
        <div className="auto-reply__side">
          <StatsPanel stats={stats} />
          <ClearDrafts waiting={stats.data?.totalAutoReplyDrafts} />
          <ActivityList activity={activity} />
        </div>
      </div>
    </section>
  );
}
