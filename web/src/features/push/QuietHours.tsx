// One device's quiet hours: every night (from, to) and Shabbat (Friday from, Saturday to), each
// ticked on or off, saved with the button. The server checks the times again.

import { useId, useState } from 'react';
import type { PushQuiet, PushSpan } from '../../api/push';
import { hePush } from '../../i18n/push';
import { NIGHT_DEFAULT, SHABBAT_DEFAULT, fromClock, sameQuiet, toClock } from './quietTimes';

const t = hePush;

interface SpanProps {
  label: string;
  fromLabel: string;
  toLabel: string;
  span: PushSpan | null;
  preset: PushSpan;
  onChange: (span: PushSpan | null) => void;
  testId: string;
}

function SpanRow({ label, fromLabel, toLabel, span, preset, onChange, testId }: SpanProps) {
  const id = useId();
  const times = span ?? preset;
  const set = (key: 'from' | 'to', value: string) => {
    const minutes = fromClock(value);
    if (minutes !== null) onChange({ ...times, [key]: minutes });
  };
  return (
    <fieldset className="push-quiet__span" data-testid={testId}>
      <label className="push-quiet__toggle">
        <input type="checkbox" checked={span !== null} onChange={(e) => onChange(e.target.checked ? times : null)} />
        {label}
      </label>
      <span className="push-quiet__times">
        <label htmlFor={`${id}-from`}>{fromLabel}</label>
        <input id={`${id}-from`} type="time" dir="ltr" disabled={span === null} value={toClock(times.from)} onChange={(e) => set('from', e.target.value)} />
        <label htmlFor={`${id}-to`}>{toLabel}</label>
        <input id={`${id}-to`} type="time" dir="ltr" disabled={span === null} value={toClock(times.to)} onChange={(e) => set('to', e.target.value)} />
      </span>
    </fieldset>
  );
}

export function QuietHours({ quiet, onSave, busy }: { quiet: PushQuiet; onSave: (q: PushQuiet) => void; busy: boolean }) {
  const [draft, setDraft] = useState<PushQuiet>(quiet);
  return (
    <details className="push-quiet" data-testid="push-quiet">
      <summary>{t.quiet}</summary>
      <p className="card__status">{t.quietIntro}</p>
      <SpanRow
        label={t.night}
        fromLabel={t.from}
        toLabel={t.to}
        span={draft.night}
        preset={NIGHT_DEFAULT}
        onChange={(night) => setDraft({ ...draft, night })}
        testId="push-quiet-night"
      />
      <SpanRow
        label={t.shabbat}
        fromLabel={t.fridayFrom}
        toLabel={t.saturdayTo}
        span={draft.shabbat}
        preset={SHABBAT_DEFAULT}
        onChange={(shabbat) => setDraft({ ...draft, shabbat })}
        testId="push-quiet-shabbat"
      />
      <button type="button" className="button" disabled={busy || sameQuiet(draft, quiet)} onClick={() => onSave(draft)}>
        {t.save}
      </button>
    </details>
  );
}
