// The Hebrew strings of settingsSync (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

import { count } from './count';

// Preferences synced between sessions (spec 001 §4, §8).
export const heSettingsSync = {
  saveFailed: 'שגיאה בשמירת ההגדרה, נסה שוב',
  noConnection: 'אין חיבור לשרת',
  syncFailed: (detail: string) => `שגיאה בסנכרון ההגדרות: ${detail}`,
  restored: 'ההגדרות שוחזרו בהצלחה',
  restoreFailed: 'שגיאה בשחזור ההגדרות',
  acceptedTheirs: 'התקבלו ההגדרות מהמשתמש האחר',
  card: {
    title: 'סנכרון הגדרות בזמן אמת',
    connected: 'מחובר — שינויים מגיעים מיד מכל מכשיר',
    disconnected: 'מנותק — השינויים יישמרו ויסונכרנו כשהחיבור יחזור',
    states: {
      idle: 'מסונכרן',
      syncing: 'שומר...',
      conflict: 'יש התנגשות שממתינה להחלטה',
      error: 'השמירה האחרונה נכשלה',
    } as Record<'idle' | 'syncing' | 'conflict' | 'error', string>,
    version: (v: number) => `גרסה ${count(v)}`,
    history: 'היסטוריה',
    conflicts: (n: number) => `פתרון התנגשויות (${count(n)})`,
    recent: 'עדכונים אחרונים',
    noRecent: 'עדיין לא שונו הגדרות',
    update: (who: string, keys: string) => `${who} שינה: ${keys}`,
  },
  historyDialog: {
    title: 'היסטוריית הגדרות',
    empty: 'אין עדיין גרסאות שמורות',
    loadFailed: 'טעינת ההיסטוריה נכשלה',
    rollback: 'שחזור',
    rollingBack: 'משחזר...',
    current: 'נוכחית',
    close: 'סגירה',
    more: 'הצגת גרסאות קודמות',
  },
  /** Spec 000 §9: 'Settings conflict' with 'resolve now', else 'settings rejected'. */
  conflictToast: {
    title: 'התנגשות בהגדרות',
    resolveNow: 'לפתרון עכשיו',
    rejected: 'ההגדרות נדחו: נשמרו הערכים שכבר היו בשרת',
  },
  conflictsDialog: {
    title: 'התנגשויות בהגדרות',
    intro: 'ההגדרות שונו במקביל ממקום אחר. בחר לכל הגדרה איזה ערך לשמור.',
    changedBy: (who: string) => `שונה על ידי ${who}`,
    mine: 'שלי',
    theirs: 'שלהם',
    acceptMine: 'קבל את שלי',
    acceptTheirs: 'קבל את שלהם',
    merge: 'מיזוג',
    close: 'סגירה',
    none: 'אין התנגשויות ממתינות',
  },
  on: 'פועל',
  off: 'כבוי',
} as const;
