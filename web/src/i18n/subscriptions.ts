// The Hebrew strings of subscriptions (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

import { count } from './count';

export const heSubscriptions = {
  pageLabel: 'מינויים ודיוור',
  summary: (n: number) => (n === 1 ? 'שולח אחד של דיוור' : `${count(n)} שולחים של דיוור`),
  loading: 'טוען את רשימת המינויים...',
  loadFailed: 'לא ניתן לטעון את רשימת המינויים.',
  empty: 'לא נמצא דיוור בתיבה',
  emptyHint: 'כאן יופיעו רשימות תפוצה ושולחי פרסומות מ-90 הימים האחרונים, עם הסרה בלחיצה.',
  listLabel: 'רשימת השולחים',
  select: (name: string) => `בחירת ${name}`,
  selectAll: 'בחירת הכל',
  selected: (n: number) => `${count(n)} נבחרו`,
  counts: (d30: number, d90: number) => `${count(d30)} ב-30 יום · ${count(d90)} ב-90 יום`,
  opened: (pct: number) => `נפתחו ${pct}%`,
  verdicts: { ads: 'פרסומת', mixed: 'חלקן פרסומות', list: 'רשימת תפוצה' } as Record<string, string>,
  oneClick: 'הסרה בלחיצה',
  byMail: 'הסרה במייל',
  byPage: 'הסרה בדף השולח',
  byBodyLink: 'קישור הסרה במייל',
  noMethod: 'אין דרך הסרה',
  unsubscribe: 'הסרה',
  block: 'חסימה',
  blockToPromotions: 'חסימה (לקידומי מכירות)',
  blockToTrash: 'חסימה (לאשפה)',
  archive: 'העברת הכל לארכיון',
  blocked: 'חסום',
  unsubscribed: 'הוסרת',
  openLink: 'פתיחת דף ההסרה',
  openLinks: 'יש להשלים את ההסרה בדפים האלה (לא נפתחו אוטומטית):',
  actionFailed: 'הפעולה נכשלה',
  bulkDone: (ok: number, failed: number) =>
    failed === 0 ? `הפעולה בוצעה עבור ${count(ok)} שולחים` : `בוצע עבור ${count(ok)}, נכשל עבור ${count(failed)}`,
  attempts: 'ניסיונות הסרה',
  states: { done: 'הושלם', waiting: 'נשלח מתיבת הדואר', opened: 'ממתין להשלמה בדף השולח', failed: 'נכשל' } as Record<string, string>,
} as const;
