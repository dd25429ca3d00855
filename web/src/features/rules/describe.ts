// A rule in Hebrew words, for its card and its activity: 'אם הנושא מכיל "חשבונית" ← העבר
// לתיקייה Invoices, סמן כנקרא'. The wording follows what the server tests (src/rules/matching.rs):
// a header with no value only has to exist, a size is in KB, a domain is the sender's.

import type { Rule, RuleAction, RuleCondition } from '../../api/rules';
import { heRules } from '../../i18n/rules';
import { labelText } from '../../lib/mailLabels';
import { fieldKind } from './ruleModel';

const t = heRules.describe;

const TEXT_SUBJECTS = { from: t.from, to: t.to, subject: t.subject, body: t.body } as const;

export function describeCondition(c: RuleCondition): string {
  switch (fieldKind(c.field)) {
    case 'text': {
      const who = TEXT_SUBJECTS[c.field as keyof typeof TEXT_SUBJECTS];
      return `${who} ${c.negate ? t.notContains : t.contains} "${c.value}"`;
    }
    case 'domain':
      return c.negate ? t.domainIsNot(c.value) : t.domainIs(c.value);
    case 'flag':
      if (c.field === 'has_attachment') return c.negate ? t.noAttachment : t.attachment;
      return c.negate ? t.notList : t.list;
    case 'size':
      return c.negate ? t.sizeNotAbove(c.value) : t.sizeAbove(c.value);
    case 'header':
      if (c.value === '') return c.negate ? t.headerMissing(c.header) : t.headerExists(c.header);
      return c.negate ? t.headerNotContains(c.header, c.value) : t.headerContains(c.header, c.value);
  }
}

/** A label's keyword → its name (the labels list); without one, the keyword as it is. */
export type LabelName = (keyword: string) => string;

export function describeAction(a: Pick<RuleAction, 'kind' | 'value'>, labelName?: LabelName): string {
  switch (a.kind) {
    case 'set_status':
      return t.setStatus(labelText(a.value));
    case 'move_to_folder':
      return t.moveTo(a.value);
    case 'add_label':
      return t.addLabel(labelName ? labelName(a.value) : a.value);
    case 'mark_as_read':
      return t.markRead;
    case 'mark_as_starred':
      return t.markStarred;
    case 'forward_to':
      return t.forwardTo(a.value);
    case 'delete':
      return t.delete;
  }
}

/** 'אם … וגם … ' (all) or 'אם … או …' (any). */
export function describeConditions(rule: Pick<Rule, 'conditions' | 'match_all'>): string {
  return `${t.if} ${rule.conditions.map(describeCondition).join(rule.match_all ? t.and : t.or)}`;
}

export function describeActions(rule: Pick<Rule, 'actions'>, labelName?: LabelName): string {
  return rule.actions.map((a) => describeAction(a, labelName)).join(', ');
}

/** The whole rule on one line: conditions ← actions. */
export function describeRule(rule: Pick<Rule, 'conditions' | 'match_all' | 'actions'>): string {
  return `${describeConditions(rule)}${t.then}${describeActions(rule)}`;
}
