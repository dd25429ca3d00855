import { describe, expect, it } from 'vitest';
import type { RuleCondition } from '../../api/rules';
import { describeAction, describeCondition, describeRule } from './describe';

const cond = (over: Partial<RuleCondition>): RuleCondition => ({ field: 'subject', negate: false, value: '', header: '', ...over });

describe('describe', () => {
  it('says the spec example in one line: conditions ← actions', () => {
    expect(
      describeRule({
        match_all: true,
        conditions: [cond({ field: 'subject', value: 'חשבונית' })],
        actions: [
          { kind: 'move_to_folder', value: 'Invoices' },
          { kind: 'mark_as_read', value: '' },
        ],
      }),
    ).toBe('אם הנושא מכיל "חשבונית" ← העבר לתיקייה Invoices, סמן כנקרא');
  });

  it('joins conditions with "וגם" when all must hold and "או" when any may', () => {
    const conditions = [cond({ field: 'from', value: 'dana' }), cond({ field: 'body', negate: true, value: 'הסר' })];
    const actions = [{ kind: 'mark_as_starred' as const, value: '' }];
    expect(describeRule({ match_all: true, conditions, actions })).toBe(
      'אם השולח מכיל "dana" וגם התוכן לא מכיל "הסר" ← סמן בכוכב',
    );
    expect(describeRule({ match_all: false, conditions, actions })).toBe(
      'אם השולח מכיל "dana" או התוכן לא מכיל "הסר" ← סמן בכוכב',
    );
  });

  it.each<[Partial<RuleCondition>, string]>([
    [{ field: 'to', value: 'team@' }, 'הנמען מכיל "team@"'],
    [{ field: 'sender_domain', value: 'bank.co.il' }, 'דומיין השולח הוא "bank.co.il"'],
    [{ field: 'sender_domain', negate: true, value: 'bank.co.il' }, 'דומיין השולח אינו "bank.co.il"'],
    [{ field: 'has_attachment' }, 'יש קובץ מצורף'],
    [{ field: 'has_attachment', negate: true }, 'אין קובץ מצורף'],
    [{ field: 'list_mail' }, 'המייל מרשימת תפוצה'],
    [{ field: 'list_mail', negate: true }, 'המייל אינו מרשימת תפוצה'],
    [{ field: 'size_above', value: '500' }, 'הגודל מעל 500 KB'],
    [{ field: 'size_above', negate: true, value: '500' }, 'הגודל עד 500 KB'],
    [{ field: 'header', header: 'X-Mailer' }, 'יש כותרת X-Mailer'],
    [{ field: 'header', header: 'X-Mailer', negate: true }, 'אין כותרת X-Mailer'],
    [{ field: 'header', header: 'X-Spam', value: 'yes' }, 'הכותרת X-Spam מכילה "yes"'],
    [{ field: 'header', header: 'X-Spam', value: 'yes', negate: true }, 'הכותרת X-Spam לא מכילה "yes"'],
  ])('condition %o', (c, text) => {
    expect(describeCondition(cond(c))).toBe(text);
  });

  it('names statuses with the inbox labels and every other action', () => {
    expect(describeAction({ kind: 'set_status', value: 'needs_reply' })).toBe('סמן כ"דורש תשובה"');
    expect(describeAction({ kind: 'set_status', value: 'advertisement' })).toBe('סמן כ"פרסומת"');
    expect(describeAction({ kind: 'add_label', value: 'invoices' })).toBe('הוסף תווית invoices');
    expect(describeAction({ kind: 'forward_to', value: 'noa@example.com' })).toBe('העבר לכתובת noa@example.com');
    expect(describeAction({ kind: 'delete', value: '' })).toBe('העבר לאשפה');
  });
});
