// The Hebrew strings of offline reading's layer and conflicts dialog (issue 39; loaded with them,
// not with the first chunk). The same rules as he.ts.

import { he } from './he';

export const heOfflineActions = {
  queueFull: 'יותר מדי פעולות ממתינות לשרת (עד 200, מהן עד 20 טיוטות). נסה שוב כשהחיבור יחזור.',
  refused: 'השרת דחה את הפעולה.',
  /** A reply saved as a draft without the server (the toast). */
  draftQueued: 'אין חיבור לשרת: הטיוטה נשמרה במכשיר ותישמר בתיבה כשהשרת יחזור.',
  dialog: {
    title: 'פעולות שעשית בלי חיבור',
    intro: 'המיילים האלה השתנו במקום אחר בזמן שלא היה חיבור. בחר לכל אחד אם להחיל את הפעולה שלך או להשאיר את מה שנעשה שם.',
    mine: 'החל את שלי',
    theirs: 'השאר את שלהם',
    close: 'סגירה',
    none: 'אין עוד פעולות שממתינות להחלטה.',
    yours: 'אתה:',
    there: 'בשרת עכשיו:',
    gone: 'המייל כבר לא נמצא בתיקייה (נמחק או הועבר במקום אחר).',
    refusedWith: (message: string) => `השרת דחה את הפעולה: ${message}`,
  },
  actions: {
    read: 'סימון כנקרא',
    unread: 'סימון כלא נקרא',
    star: 'סימון בכוכב',
    unstar: 'הסרת הכוכב',
    status: (label: string) => `סטטוס: ${label}`,
    noStatus: 'הסרת הסטטוס',
    delete: 'מחיקה מהאתר',
    trash: 'העברה לאשפה',
    draft: 'שמירת תשובה כטיוטה',
  },
  state: {
    noStatus: 'ללא סטטוס',
    read: 'נקרא',
    unread: 'לא נקרא',
    starred: 'מסומן בכוכב',
    folder: (name: string) => `בתיקייה ${name}`,
  },
  statusLabel: (status: string) => he.inbox.labels[status] ?? status,
} as const;
