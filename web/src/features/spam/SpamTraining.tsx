// The AI training page's spam detection tab (spec 001 §2 "AI training page", §3 "AI training
// settings", §5 "AI training", §9): training on/off, spam and legitimate examples (each added
// with Ctrl+Enter, ignored when blank, listed with a 100-character preview and removable, the
// list scrolling at height 60 units), keywords, domains and patterns (one regular expression per
// line). The fields belong to the page's form and are saved with its 'שמור לשרת'; a bad pattern
// comes back as the server's Hebrew error naming its line, shown by the page, and nothing is saved.

import { useId, useState, type KeyboardEvent } from 'react';
import type { AiTrainingSettings, TrainingExample } from '../../api/ai';
import { Switch } from '../../components/Switch';
import { heSpam } from '../../i18n/spam';
import '../../styles/spam.css';
import { TextAreaField } from '../../components/Field';

const t = heSpam;

/** Spec 001 §9: an example's preview is 100 characters. */
export const EXAMPLE_PREVIEW_CHARS = 100;

export function examplePreview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXAMPLE_PREVIEW_CHARS ? `${flat.slice(0, EXAMPLE_PREVIEW_CHARS)}…` : flat;
}

let counter = 0;

/** A new example (the text as typed, trimmed), or null when it is blank. */
export function newExample(text: string, now: Date = new Date()): TrainingExample | null {
  const v = text.trim();
  if (!v) return null;
  counter += 1;
  return { id: `ex-${now.getTime().toString(36)}-${counter}`, text: v, date: now.toISOString() };
}

function ExamplesEditor({
  kind,
  examples,
  onChange,
  disabled,
}: {
  kind: 'spam' | 'ham';
  examples: TrainingExample[];
  onChange: (next: TrainingExample[]) => void;
  disabled: boolean;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const title = kind === 'spam' ? t.spamExamples : t.hamExamples;

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    const ex = newExample(text);
    if (!ex) return;
    onChange([ex, ...examples]);
    setText('');
  }

  return (
    <section className="spam-examples" aria-labelledby={`${id}-title`} data-testid={`spam-examples-${kind}`}>
      <h3 id={`${id}-title`} className="card__subtitle">
        {title} <span className="muted">({t.examplesCount(examples.length)})</span>
      </h3>
      <TextAreaField
        id={`${id}-new`}
        label={kind === 'spam' ? t.exampleSpamLabel : t.exampleHamLabel}
        hint={t.exampleHint}
        rows={3}
        value={text}
        disabled={disabled}
        onValueChange={setText}
        onKeyDown={onKeyDown}
        testId={`spam-example-input-${kind}`}
      />
      {examples.length === 0 ? (
        <p className="muted" data-testid={`spam-examples-empty-${kind}`}>
          {t.examplesEmpty}
        </p>
      ) : (
        <ul className="spam-examples__list list-box" data-testid={`spam-examples-list-${kind}`}>
          {examples.map((ex) => {
            const preview = examplePreview(ex.text);
            return (
              <li key={ex.id} className="spam-examples__item" data-testid="spam-example">
                <span className="spam-examples__preview" dir="auto" title={ex.text}>
                  {preview}
                </span>
                <button
                  type="button"
                  className="chip-button chip-button--danger"
                  disabled={disabled}
                  aria-label={t.exampleRemoveLabel(preview)}
                  onClick={() => onChange(examples.filter((x) => x.id !== ex.id))}
                  data-testid="spam-example-remove"
                >
                  {t.exampleRemove}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The spam fields of the AI training settings, as the AI training page edits them. */
export type SpamTrainingFields = Pick<
  AiTrainingSettings,
  'spamTrainingEnabled' | 'spamExamples' | 'hamExamples' | 'spamKeywords' | 'spamDomains' | 'spamPatterns'
>;

export function SpamTraining({
  form,
  onChange,
  disabled,
}: {
  form: SpamTrainingFields;
  onChange: (values: Partial<SpamTrainingFields>) => void;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <div className="card spam-training" data-testid="spam-training">
      <p className="muted">{t.saveHint}</p>
      <Switch
        id={`${id}-enabled`}
        label={t.trainingEnabled}
        hint={t.trainingEnabledHint}
        checked={form.spamTrainingEnabled}
        disabled={disabled}
        onChange={(v) => onChange({ spamTrainingEnabled: v })}
        testId="spam-training-enabled"
      />
      <div className="spam-training__examples">
        <ExamplesEditor kind="spam" examples={form.spamExamples} onChange={(spamExamples) => onChange({ spamExamples })} disabled={disabled} />
        <ExamplesEditor kind="ham" examples={form.hamExamples} onChange={(hamExamples) => onChange({ hamExamples })} disabled={disabled} />
      </div>
      <div className="spam-training__lists">
        <TextAreaField
          id={`${id}-keywords`}
          label={t.keywords}
          hint={t.keywordsHint}
          rows={5}
          value={form.spamKeywords}
          disabled={disabled}
          onValueChange={(spamKeywords) => onChange({ spamKeywords })}
          testId="spam-training-keywords"
        />
        <TextAreaField
          id={`${id}-domains`}
          label={t.domains}
          hint={t.domainsHint}
          rows={5}
          dir="ltr"
          value={form.spamDomains}
          disabled={disabled}
          onValueChange={(spamDomains) => onChange({ spamDomains })}
          testId="spam-training-domains"
        />
        <TextAreaField
          id={`${id}-patterns`}
          label={t.patterns}
          hint={t.patternsHint}
          rows={5}
          dir="ltr"
          spellCheck={false}
          value={form.spamPatterns}
          disabled={disabled}
          onValueChange={(spamPatterns) => onChange({ spamPatterns })}
          testId="spam-training-patterns"
        />
      </div>
    </div>
  );
}
