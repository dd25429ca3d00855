// The AI training page's form state (spec 001 §3 "AI training settings", §5 "AI training"): the
// server's object as edited on the page (both tabs). Any field the page does not show (anything
// newer) rides along untouched, so saving sends the whole object back.

import { MAX_LENGTH_RANGE, type AiTemplate, type AiTrainingSettings } from '../../api/ai';

export type TrainingBody = Omit<AiTrainingSettings, 'updatedAt'>;

/** As edited: the maximum length is the text in its field until it is saved. */
export type TrainingForm = Omit<TrainingBody, 'maxLength'> & { maxLength: string };

export const CREATIVITY = { min: 0, max: 1, step: 0.1 } as const;

export function toForm(s: AiTrainingSettings): TrainingForm {
  const { updatedAt: _updatedAt, maxLength, ...rest } = s;
  return { ...rest, maxLength: String(maxLength) };
}

/**
 * The form with the household's settings over it (spec 001 §7: null fields are "not set" and
 * skipped). Only the fields the form has are taken; the maximum length becomes its field's text.
 */
export function withGlobal(form: TrainingForm, global: Partial<Record<keyof AiTrainingSettings, unknown>>): TrainingForm {
  const out: Record<string, unknown> = { ...form };
  for (const key of Object.keys(form) as (keyof TrainingForm)[]) {
    const value = global[key];
    if (value === null || value === undefined) continue;
    out[key] = key === 'maxLength' ? String(value) : value;
  }
  return out as TrainingForm;
}

/** A whole number of words within 50–5000, else null. */
export function parseMaxLength(text: string): number | null {
  const v = text.trim();
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n >= MAX_LENGTH_RANGE.min && n <= MAX_LENGTH_RANGE.max ? n : null;
}

/** The body of POST /api/settings/ai-training, or null while a field is invalid. */
export function toBody(f: TrainingForm): TrainingBody | null {
  const maxLength = parseMaxLength(f.maxLength);
  if (maxLength === null) return null;
  return { ...f, maxLength };
}

/** One decimal, within 0–1 (a range input can report 0.30000000000000004). */
export function roundCreativity(v: number): number {
  if (!Number.isFinite(v)) return CREATIVITY.min;
  return Math.min(CREATIVITY.max, Math.max(CREATIVITY.min, Math.round(v * 10) / 10));
}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Equal regardless of key order (edits rebuild objects). */
export function sameForm(a: TrainingForm, b: TrainingForm): boolean {
  return JSON.stringify(stable(a)) === JSON.stringify(stable(b));
}

let counter = 0;

/** A fresh template id, unique among `existing`. */
export function newTemplateId(existing: readonly AiTemplate[]): string {
  const taken = new Set(existing.map((t) => t.id));
  let id: string;
  do {
    counter += 1;
    id = `custom-${Date.now().toString(36)}-${counter}`;
  } while (taken.has(id));
  return id;
}
