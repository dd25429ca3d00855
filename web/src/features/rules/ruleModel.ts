// What the rule form knows about conditions and actions (mirrors src/rules/model.rs): which
// fields take a value, which actions do, the form's starting rows, when it may be saved, and the
// RuleInput it sends. Pure functions, so the form and the summary agree and tests can read them.

import type { Rule, RuleAction, RuleActionKind, RuleCondition, RuleField, RuleInput } from '../../api/rules';

/** The condition fields, in the order the field select offers them. */
export const RULE_FIELDS: readonly RuleField[] = [
  'from',
  'to',
  'subject',
  'body',
  'sender_domain',
  'has_attachment',
  'list_mail',
  'size_above',
  'header',
];

/** How a field's condition is tested, which decides its row's controls and its wording. */
export type FieldKind = 'text' | 'domain' | 'flag' | 'size' | 'header';

export function fieldKind(field: RuleField): FieldKind {
  switch (field) {
    case 'sender_domain':
      return 'domain';
    case 'has_attachment':
    case 'list_mail':
      return 'flag';
    case 'size_above':
      return 'size';
    case 'header':
      return 'header';
    default:
      return 'text';
  }
}

/** The action kinds, in the order the kind select offers them. */
export const RULE_ACTION_KINDS: readonly RuleActionKind[] = [
  'move_to_folder',
  'set_status',
  'add_label',
  'mark_as_read',
  'mark_as_starred',
  'forward_to',
  'delete',
];

/** Actions whose `value` means something (the others send ''). */
export function actionTakesValue(kind: RuleActionKind): boolean {
  return kind === 'set_status' || kind === 'move_to_folder' || kind === 'add_label' || kind === 'forward_to';
}

/** A new condition row: the subject contains … (the most common rule). */
export function newCondition(field: RuleField = 'subject'): RuleCondition {
  return { field, negate: false, value: '', header: '' };
}

/** A condition moved to another field keeps what still fits it (a typed word, a negation). */
export function withField(c: RuleCondition, field: RuleField): RuleCondition {
  const from = fieldKind(c.field);
  const to = fieldKind(field);
  const keepValue = (from === 'text' || from === 'domain' || from === 'header') && (to === 'text' || to === 'domain' || to === 'header');
  return { field, negate: c.negate, value: keepValue ? c.value : '', header: to === 'header' ? c.header : '' };
}

/** A new action row of `kind`; a status starts at the first the inbox offers. */
export function newAction(kind: RuleActionKind = 'move_to_folder'): RuleAction {
  return { kind, value: kind === 'set_status' ? 'needs_reply' : '' };
}

/** At most one forward per rule (the server refuses a second). */
export function hasForward(actions: readonly RuleAction[], except?: number): boolean {
  return actions.some((a, i) => i !== except && a.kind === 'forward_to');
}

/** The address a rule forwards to (trimmed, lower case), if it forwards. */
export function forwardAddress(actions: readonly RuleAction[]): string | null {
  const to = actions.find((a) => a.kind === 'forward_to')?.value.trim().toLowerCase();
  return to ? to : null;
}

/**
 * The forward address the user must confirm before the draft is saved: one the rule did not
 * forward to (confirmed) before — a new rule's, a changed one, or a restored rule's that waits
 * (the server refuses it unconfirmed). Null when there is nothing to confirm.
 */
export function forwardToConfirm(d: RuleDraft, rule: Rule | null): string | null {
  const to = forwardAddress(d.actions);
  if (!to) return null;
  const confirmed = rule && !rule.forward_pending ? forwardAddress(rule.actions) : null;
  return to === confirmed ? null : to;
}

/** The form's state: a RuleInput being edited. */
export type RuleDraft = RuleInput;

/** A new rule: active (spec 001), all conditions, one condition row to fill, no action yet. */
export function blankDraft(): RuleDraft {
  return { name: '', is_active: true, match_all: true, conditions: [newCondition()], actions: [], stop: false };
}

export function draftOf(rule: Rule): RuleDraft {
  return {
    name: rule.name,
    is_active: rule.is_active,
    match_all: rule.match_all,
    conditions: rule.conditions.map((c) => ({ ...c })),
    actions: rule.actions.map((a) => ({ ...a })),
    stop: rule.stop,
  };
}

/** What is missing before the form may be saved (spec: name required, trimmed). */
export interface Missing {
  name: boolean;
  condition: boolean;
  action: boolean;
}

export function missingParts(d: RuleDraft): Missing {
  return { name: d.name.trim() === '', condition: d.conditions.length === 0, action: d.actions.length === 0 };
}

export function canSave(d: RuleDraft): boolean {
  const m = missingParts(d);
  return !m.name && !m.condition && !m.action;
}

/**
 * The RuleInput sent: trimmed, and without what a row's kind ignores (a value left from the kind
 * it had before, a header name on a field that is not a header), so the stored rule says only
 * what it does.
 */
export function toInput(d: RuleDraft): RuleInput {
  return {
    name: d.name.trim(),
    is_active: d.is_active,
    match_all: d.match_all,
    conditions: d.conditions.map((c) => {
      const kind = fieldKind(c.field);
      return {
        field: c.field,
        negate: c.negate,
        value: kind === 'flag' ? '' : c.value.trim(),
        header: kind === 'header' ? c.header.trim() : '',
      };
    }),
    actions: d.actions.map((a) => ({ kind: a.kind, value: actionTakesValue(a.kind) ? a.value.trim() : '' })),
    stop: d.stop,
  };
}
