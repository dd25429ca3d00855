// The training page's general settings (spec 001 §3, §5 "AI training", §9): system prompt, tone,
// language, creativity (0–1 in steps of 0.1, its value shown), maximum length in words (50–5000,
// an inline message when out of range), thread context and auto-correct.

import { AI_LANGUAGES, AI_TONES, MAX_LENGTH_RANGE, type AiLanguage, type AiTone } from '../../api/ai';
import { CheckboxField, SelectField, TextAreaField } from '../../components/Field';
import { heAiTraining } from '../../i18n/aiTraining';
import { CREATIVITY, parseMaxLength, roundCreativity, type TrainingForm } from './trainingForm';
import { Card } from '../../components/Card';

const t = heAiTraining;

interface Props {
  form: TrainingForm;
  onChange: (values: Partial<TrainingForm>) => void;
  disabled: boolean;
}

export function GeneralSettings({ form, onChange, disabled }: Props) {
  const maxLengthValid = parseMaxLength(form.maxLength) !== null;
  return (
    <Card id="training-general" title={t.general} testId="training-general">
      <div className="form">
        <TextAreaField
          id="training-system-prompt"
          label={t.systemPrompt}
          hint={t.systemPromptHint}
          rows={6}
          disabled={disabled}
          value={form.systemPrompt}
          onValueChange={(systemPrompt) => onChange({ systemPrompt })}
        />
        <div className="form-grid">
          <SelectField
            id="training-tone"
            label={t.tone}
            disabled={disabled}
            value={form.tone}
            onValueChange={(v) => onChange({ tone: v as AiTone })}
          >
            {AI_TONES.map((tone) => (
              <option key={tone} value={tone}>
                {t.tones[tone] ?? tone}
              </option>
            ))}
          </SelectField>
          <SelectField
            id="training-language"
            label={t.language}
            disabled={disabled}
            value={form.language}
            onValueChange={(v) => onChange({ language: v as AiLanguage })}
          >
            {AI_LANGUAGES.map((lang) => (
              <option key={lang} value={lang}>
                {t.languages[lang] ?? lang}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="form-grid">
          <div className="field ai-range">
            <label htmlFor="training-creativity">
              {t.creativity}{' '}
              <output htmlFor="training-creativity" className="ai-range__value" data-testid="training-creativity-value">
                {form.creativity.toFixed(1)}
              </output>
            </label>
            <input
              id="training-creativity"
              type="range"
              dir="ltr"
              min={CREATIVITY.min}
              max={CREATIVITY.max}
              step={CREATIVITY.step}
              disabled={disabled}
              aria-describedby="training-creativity-hint"
              value={form.creativity}
              onChange={(e) => onChange({ creativity: roundCreativity(Number(e.target.value)) })}
              data-testid="training-creativity"
            />
            <small id="training-creativity-hint" className="field__hint">
              {t.creativityHint}
            </small>
          </div>
          <div className="field">
            <label htmlFor="training-max-length">{t.maxLength}</label>
            <input
              id="training-max-length"
              type="number"
              dir="ltr"
              inputMode="numeric"
              min={MAX_LENGTH_RANGE.min}
              max={MAX_LENGTH_RANGE.max}
              step={1}
              disabled={disabled}
              aria-invalid={!maxLengthValid}
              aria-describedby="training-max-length-hint"
              value={form.maxLength}
              onChange={(e) => onChange({ maxLength: e.target.value })}
              data-testid="training-max-length"
            />
            {maxLengthValid ? (
              <small id="training-max-length-hint" className="field__hint">
                {t.maxLengthHint}
              </small>
            ) : (
              <small id="training-max-length-hint" className="field__error" role="alert" data-testid="training-max-length-error">
                {t.maxLengthInvalid}
              </small>
            )}
          </div>
        </div>
        <CheckboxField
          id="training-include-context"
          label={t.includeContext}
          disabled={disabled}
          checked={form.includeContext}
          onCheckedChange={(includeContext) => onChange({ includeContext })}
        />
        <CheckboxField
          id="training-auto-correct"
          label={t.autoCorrect}
          disabled={disabled}
          checked={form.autoCorrect}
          onCheckedChange={(autoCorrect) => onChange({ autoCorrect })}
        />
      </div>
    </Card>
  );
}
