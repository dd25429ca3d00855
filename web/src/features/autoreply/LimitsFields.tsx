// Limits and checking (spec 001 §3, §5, §9): the daily maximum (1–1000: the server's range, the
// spec's default 1000 being its ceiling), no repeats, the notification, and the check interval
// with the spec's options (below 30 s a warning about the load).

import { CHECK_INTERVALS, MAX_PER_DAY_RANGE, RECOMMENDED_MIN_INTERVAL } from '../../api/autoReply';
import { SelectField } from '../../components/Field';
import { Switch } from '../../components/Switch';
import { heAutoReply } from '../../i18n/autoReply';
import { CheckedInput } from './CheckedInput';
import type { FieldGroupProps } from './useAutoReplySettings';

const t = heAutoReply;
const { min, max, specDefault } = MAX_PER_DAY_RANGE;

/** A whole number in the server's range, or null. */
function parseMax(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

function intervalLabel(minutes: number): string {
  const label = t.intervalOption(minutes);
  return minutes === RECOMMENDED_MIN_INTERVAL ? `${label} ${t.recommended}` : label;
}

export function LimitsFields({ idBase, values, change }: FieldGroupProps) {
  const interval = values.autoReplyCheckInterval;
  // A value saved elsewhere that is not one of the options is still shown as it is.
  const intervals = CHECK_INTERVALS.includes(interval) ? CHECK_INTERVALS : [...CHECK_INTERVALS, interval].sort((a, b) => a - b);

  return (
    <fieldset className="auto-reply__section" data-testid="auto-reply-limits">
      <legend className="card__subtitle">{t.sections.limits}</legend>
      <div className="auto-reply__row">
        <CheckedInput
          id={`${idBase}-max`}
          label={t.maxPerDay}
          type="number"
          inputMode="numeric"
          dir="ltr"
          min={min}
          max={max}
          step={1}
          value={String(values.autoReplyMaxPerDay)}
          parse={parseMax}
          onValid={(n) => change({ autoReplyMaxPerDay: n })}
          hint={t.maxPerDayHint(min, max, specDefault)}
          invalidHint={t.maxPerDayInvalid(min, max)}
          testId="auto-reply-max-per-day"
        />
        <SelectField
          id={`${idBase}-interval`}
          label={t.interval}
          hint={t.intervalHint}
          value={String(interval)}
          onValueChange={(v) => change({ autoReplyCheckInterval: Number(v) })}
          testId="auto-reply-interval"
        >
          {intervals.map((m) => (
            <option key={m} value={String(m)}>
              {intervalLabel(m)}
            </option>
          ))}
        </SelectField>
      </div>
      {interval < RECOMMENDED_MIN_INTERVAL && (
        <p className="notice notice--warning auto-reply__notice" role="status" data-testid="auto-reply-interval-warning">
          {t.intervalWarning}
        </p>
      )}
      <Switch
        id={`${idBase}-no-repeat`}
        label={t.noRepeat}
        hint={t.noRepeatHint}
        checked={values.autoReplyNoRepeat}
        onChange={(on) => change({ autoReplyNoRepeat: on })}
        testId="auto-reply-no-repeat"
      />
      <Switch
        id={`${idBase}-notifications`}
        label={t.notifications}
        hint={t.notificationsHint}
        checked={values.autoReplyNotifications}
        onChange={(on) => change({ autoReplyNotifications: on })}
        testId="auto-reply-notifications"
      />
    </fieldset>
  );
}
