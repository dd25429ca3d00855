// Mail rules (src/rules/): typed calls for the rules page so it never spells a path or a body
// shape. The list (in the order the rules run) and each rule's activity are read through SWR with
// keys.rules() and keys.ruleActivity(id); every change answers with the rule (or the whole list),
// which the page puts straight into the cache.

import { api } from './client';
import type {
  Rule,
  RuleActiveRequest,
  RuleDeleted,
  RuleInput,
  RulePreview,
  RuleRunResult,
  RulesOrderRequest,
  RulesResponse,
} from './generated';

export type {
  Rule,
  RuleAction,
  RuleActionKind,
  RuleActionOutcome,
  RuleActivityItem,
  RuleActivityResponse,
  RuleCondition,
  RuleDeleted,
  RuleField,
  RuleInput,
  RulePreview,
  RulePreviewMail,
  RuleRunResult,
  RulesResponse,
} from './generated';

/** The statuses a rule can set, in the order the inbox's status buttons show them. */
export const RULE_STATUSES = ['needs_reply', 'processed', 'info', 'spam', 'advertisement', 'urgent'] as const;

const path = (id: string) => `/api/rules/${encodeURIComponent(id)}`;

/** A new rule: active, and last in the order. */
export const createRule = (input: RuleInput) => api<Rule>('/api/rules', { method: 'POST', body: input });

export const updateRule = (id: string, input: RuleInput) => api<Rule>(path(id), { method: 'PUT', body: input });

export const deleteRule = (id: string) => api<RuleDeleted>(path(id), { method: 'DELETE' });

/** The list's switch. */
export const setRuleActive = (id: string, isActive: boolean) =>
  api<Rule>(`${path(id)}/active`, { method: 'PUT', body: { is_active: isActive } satisfies RuleActiveRequest });

/** Every rule's id in the new order; answers with the list as it now runs. */
export const orderRules = (ids: string[]) =>
  api<RulesResponse>('/api/rules/order', { method: 'PUT', body: { ids } satisfies RulesOrderRequest });

/** How many inbox mails the rule matches now (and the first of them). Changes nothing. */
export const previewRule = (id: string) => api<RulePreview>(`${path(id)}/preview`, { method: 'POST' });

/** Applies the rule to the inbox mail it matches now. */
export const runRule = (id: string) => api<RuleRunResult>(`${path(id)}/run`, { method: 'POST' });

/** The ids with the one at `index` moved one place (`step` -1 earlier, +1 later); null at an end. */
export function movedIds(ids: readonly string[], index: number, step: -1 | 1): string[] | null {
  const to = index + step;
  if (index < 0 || index >= ids.length || to < 0 || to >= ids.length) return null;
  const next = [...ids];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}
