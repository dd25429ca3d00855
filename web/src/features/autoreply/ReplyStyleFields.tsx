// How the drafts are written (spec 001 §3): tone, length and creativity (0.1–1.0 in steps of
// 0.1, spec 001 §5). They override the AI-training page's tone, length and creativity for the
// auto-reply only; the training's instructions and examples still apply.

import type { AutoReplyLength, AutoReplyTone } from '../../api/autoReply';
import { CREATIVITY_RANGE } from '../../api/autoReply';
import { SelectField } from '../../components/Field';
import { heAutoReply } from '../../i18n/autoReply';
import type { FieldGroupProps } from './useAutoReplySettings';

const t = heAutoReply;

const TONES: readonly AutoReplyTone[] = ['professional', 'friendly', 'formal'];
const LENGTHS: readonly AutoReplyLength[] = ['short', 'medium', 'long'];

export function ReplyStyleFields({ idBase, values, change }: FieldGroupProps) {
  const creativity = values.autoReplyCreativity;
  return (
    <fieldset className="auto-reply__section" data-testid="auto-reply-style">
      <legend className="card__subtitle">{t.sections.style}</legend>
      <div className="auto-reply__row">
        <SelectField
          id={`${idBase}-tone`}
          label={t.tone}
          value={values.autoReplyTone}
          onValueChange={(v) => change({ autoReplyTone: v as AutoReplyTone })}
          testId="auto-reply-tone"
        >
          {TONES.map((tone) => (
            <option key={tone} value={tone}>
              {t.tones[tone]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id={`${idBase}-length`}
          label={t.length}
          value={values.autoReplyLength}
          onValueChange={(v) => change({ autoReplyLength: v as AutoReplyLength })}
          testId="auto-reply-length"
        >
          {LENGTHS.map((length) => (
            <option key={length} value={length}>
              {t.lengths[length]}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="field auto-reply__range">
        <label htmlFor={`${idBase}-creativity`}>
          {t.creativity}: <output htmlFor={`${idBase}-creativity`} data-testid="auto-reply-creativity-value">{creativity.toFixed(1)}</output>
        </label>
        <input
          id={`${idBase}-creativity`}
          type="range"
          min={CREATIVITY_RANGE.min}
          max={CREATIVITY_RANGE.max}
          step={CREATIVITY_RANGE.step}
          value={creativity}
          aria-describedby={`${idBase}-creativity-hint`}
          // Steps of 0.1 as the server keeps them (no 0.30000000000000004).
          onChange={(e) => change({ autoReplyCreativity: Math.round(Number(e.target.value) * 10) / 10 })}
          data-testid="auto-reply-creativity"
        />
        <small id={`${idBase}-creativity-hint`} className="field__hint">
          {t.creativityHint}
        </small>
      </div>
    </fieldset>
  );
}
