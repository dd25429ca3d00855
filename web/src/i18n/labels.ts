// The Hebrew strings of labels (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

import { count } from './count';

export const heLabels = {
  title: 'תוויות',
  intro:
    'תוויות עם שם וצבע, גם בעברית. התווית נשמרת על המייל בתיבת הדואר עצמה (כמילת מפתח IMAP), כך שתוכנות דואר אחרות רואות אותה; שם בעברית נשמר שם כמפתח באנגלית, והשם והצבע נשמרים כאן. כללים יכולים להוסיף תוויות.',
  empty: 'אין עדיין תוויות.',
  loadFailed: 'לא ניתן לטעון את התוויות.',
  newName: 'שם תווית חדשה',
  add: 'הוסף תווית',
  color: 'צבע',
  customColor: 'צבע אחר',
  colorNames: ['אדום', 'כתום', 'צהוב', 'ירוק', 'כחול', 'סגול', 'ורוד', 'אפור'],
  renameLabel: (name: string) => `שם התווית ${name}`,
  rename: 'שמור שם',
  savedToast: 'התווית נשמרה',
  delete: 'מחק',
  deleteTitle: 'למחוק את התווית?',
  deleteYes: 'מחק תווית',
  deleteNo: 'השאר',
  deleteQuestion: (name: string) =>
    `התווית '${name}' תוסר מכל המיילים שלך, גם בתיבת הדואר שבשרת. כלל שמוסיף אותה ימשיך להוסיף את מילת המפתח שלה עד שתשנו אותו.`,
  deletedToast: (n: number) => (n === 0 ? 'התווית נמחקה' : `התווית נמחקה והוסרה מ-${count(n)} מיילים`),
} as const;
