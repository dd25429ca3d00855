// The Hebrew strings of tasks (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

import { he } from './he';
import { count } from './count';

export const heTasks = {
  pageLabel: 'משימות',
  add: 'משימה חדשה',
  summary: (open: number, overdue: number) =>
    `${open === 1 ? 'משימה פתוחה אחת' : `${count(open)} משימות פתוחות`}${overdue > 0 ? `, ${count(overdue)} באיחור` : ''}`,
  filtersLabel: 'סינון המשימות',
  filters: { all: 'הכל', open: 'פתוחות', done: 'הושלמו', overdue: 'באיחור' } as Record<
    'all' | 'open' | 'done' | 'overdue',
    string
  >,
  loading: 'טוען משימות...',
  loadFailed: 'לא ניתן לטעון את המשימות.',
  empty: 'אין משימות',
  emptyHint: 'משימה חדשה אפשר ליצור כאן, או מכל מייל בלחיצה על "צור משימה".',
  emptyFiltered: {
    open: 'אין משימות פתוחות. כל הכבוד!',
    done: 'עדיין לא הושלמו משימות.',
    overdue: 'אין משימות באיחור.',
  } as Record<string, string>,
  showAll: 'הצגת כל המשימות',
  listLabel: 'רשימת המשימות',
  priority: 'עדיפות',
  priorities: { low: 'נמוכה', medium: 'בינונית', high: 'גבוהה', urgent: 'דחופה' } as Record<
    'low' | 'medium' | 'high' | 'urgent',
    string
  >,
  priorityOf: (p: string) => `עדיפות ${p}`,
  due: (date: string) => `יעד: ${date}`,
  completedAt: (date: string) => `הושלמה ${date}`,
  overdue: 'באיחור',
  fromMail: 'מהמייל:',
  openMail: (subject: string) => `פתיחת המייל ${subject}`,
  markDone: (title: string) => `סימון "${title}" כהושלמה`,
  markOpen: (title: string) => `החזרת "${title}" למשימות הפתוחות`,
  toggleFailed: 'עדכון המשימה נכשל',
  edit: 'עריכה',
  delete: 'מחיקה',
  editOf: (title: string) => `עריכת ${title}`,
  deleteOf: (title: string) => `מחיקת ${title}`,
  form: {
    newTitle: 'משימה חדשה',
    editTitle: 'עריכת משימה',
    close: 'סגירה',
    title: 'כותרת',
    required: 'שדה חובה',
    description: 'תיאור',
    priority: 'עדיפות',
    due: 'מועד יעד',
    dueHint: 'אפשר להשאיר ריק. במועד תופיע תזכורת.',
    clearDue: 'ללא מועד',
    fromMail: 'מהמייל:',
    save: 'שמירה',
    saving: 'שומר...',
    cancel: 'ביטול',
  },
  created: 'המשימה נוצרה',
  updated: 'המשימה עודכנה',
  saveFailed: 'שמירת המשימה נכשלה',
  deleteTitle: 'מחיקת משימה',
  deleteQuestion: (title: string) => `למחוק את המשימה "${title}"?`,
  deleteYes: 'מחיקה',
  deleteNo: 'ביטול',
  deleted: 'המשימה נמחקה',
  deleteFailed: 'מחיקת המשימה נכשלה',
  /** The reading pane's button. */
  fromMailButton: 'צור משימה',
  fromMailHint: 'משימה חדשה מהמייל הזה',
  untitled: he.alerts.taskUntitled,
} as const;
