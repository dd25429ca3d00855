// Work hours (spec 001 §3): the "only in work hours" switch, from/to times and the work days —
// seven toggles, Sunday first as the Israeli week is read, and two presets: the Israeli week
// (Sunday–Thursday) and the spec's default (Monday–Friday). The times and days stay editable
// with the switch off, so they can be set up before it is turned on.

import { Switch } from '../../components/Switch';
import { heAutoReply } from '../../i18n/autoReply';
import { ISRAELI_WORK_WEEK } from '../../lib/dates';
import { CheckedInput } from './CheckedInput';
import type { FieldGroupProps } from './useAutoReplySettings';

const t = heAutoReply;

/** The spec's default work days (autoReplyWorkDays [1,2,3,4,5]). */
export const SPEC_WORK_WEEK: readonly number[] = [1, 2, 3, 4, 5];

const PRESETS = [
  { id: 'israel', label: t.presetIsrael, days: ISRAELI_WORK_WEEK },
  { id: 'spec', label: t.presetSpec, days: SPEC_WORK_WEEK },
] as const;

// The times as text, HH:MM on the 24-hour clock: a browser's time picker would show AM/PM in
// some locales, which Hebrew readers do not use (spec 000 §1: HH:mm).
const TIMES = [
  { field: 'autoReplyWorkStart', label: t.workStart, testId: 'auto-reply-work-start' },
  { field: 'autoReplyWorkEnd', label: t.workEnd, testId: 'auto-reply-work-end' },
] as const;

/** '8:30' or '08:30' → '08:30'; anything else null. */
export function parseTime(text: string): string | null {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return m ? `${m[1].padStart(2, '0')}:${m[2]}` : null;
}

const sorted = (days: readonly number[]) => [...days].sort((x, y) => x - y);

function sameDays(a: readonly number[], b: readonly number[]): boolean {
  const [x, y] = [sorted(a), sorted(b)];
  return x.length === y.length && x.every((d, i) => d === y[i]);
}

export function WorkHoursFields({ idBase, values, change }: FieldGroupProps) {
  const days = values.autoReplyWorkDays;

  function toggleDay(day: number) {
    const next = days.includes(day) ? days.filter((d) => d !== day) : sorted([...days, day]);
    change({ autoReplyWorkDays: next });
  }

  return (
    <fieldset className="auto-reply__section" data-testid="auto-reply-hours">
      <legend className="card__subtitle">{t.sections.hours}</legend>
      <Switch
        id={`${idBase}-work-hours`}
        label={t.onlyWorkHours}
        hint={t.onlyWorkHoursHint}
        checked={values.autoReplyOnlyWorkHours}
        onChange={(on) => change({ autoReplyOnlyWorkHours: on })}
        testId="auto-reply-only-work-hours"
      />
      <div className="auto-reply__row">
        {TIMES.map(({ field, label, testId }) => (
          <CheckedInput
            key={field}
            id={`${idBase}-${field}`}
            label={label}
            dir="ltr"
            inputMode="numeric"
            maxLength={5}
            placeholder="09:00"
            value={values[field]}
            parse={parseTime}
            onValid={(v) => change({ [field]: v })}
            hint={t.timeHint}
            invalidHint={t.timeInvalid}
            testId={testId}
          />
        ))}
      </div>
      <div className="auto-reply__days" role="group" aria-labelledby={`${idBase}-days`}>
        <span id={`${idBase}-days`} className="auto-reply__label">
          {t.workDays}
        </span>
        <div className="auto-reply__day-toggles">
          {t.days.map((label, day) => (
            <button
              key={day}
              type="button"
              className="auto-reply__day"
              aria-pressed={days.includes(day)}
              aria-label={t.dayNames[day]}
              title={t.dayNames[day]}
              onClick={() => toggleDay(day)}
              data-testid={`auto-reply-day-${day}`}
            >
              {label}
            </button>
          ))}
        </div>
        <div className="auto-reply__presets">
          {PRESETS.map((p) => (
            <button
              key={p.id}
              type="button"
              className="link-button auto-reply__preset"
              aria-pressed={sameDays(days, p.days)}
              onClick={() => change({ autoReplyWorkDays: [...p.days] })}
              data-testid={`auto-reply-preset-${p.id}`}
            >
              {p.label}
            </button>
          ))}
        </div>
      </div>
      {days.length === 0 && values.autoReplyOnlyWorkHours && (
        <p className="notice notice--warning auto-reply__notice" role="status" data-testid="auto-reply-no-days">
          {t.noDays}
        </p>
      )}
    </fieldset>
  );
}
