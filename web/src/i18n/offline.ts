// The Hebrew strings of offline reading (issue 39; its own file so the inbox's first chunk carries
// only the few the status line needs). The same rules as he.ts.

import { he } from './he';

const count = (n: number) => n.toLocaleString('he-IL');

export const heOffline = {
  /** The no-connection banner's text when the mail kept in the browser is shown. */
  bannerText: 'מוצג הדואר שנשמר במכשיר. פעולות שתעשה יישלחו לשרת כשיחזור.',
  pending: (n: number) => (n === 1 ? 'פעולה אחת ממתינה לשרת.' : `${count(n)} פעולות ממתינות לשרת.`),
  queueFull: 'יותר מדי פעולות ממתינות לשרת (עד 200, מהן עד 20 טיוטות). נסה שוב כשהחיבור יחזור.',
  refused: 'השרת דחה את הפעולה.',
  /** A reply saved as a draft without the server (the toast). */
  draftQueued: 'אין חיבור לשרת: הטיוטה נשמרה במכשיר ותישמר בתיבה כשהשרת יחזור.',
  problems: (n: number) =>
    n === 1 ? 'פעולה שעשית בלי חיבור לא הוחלה: המייל השתנה בינתיים במקום אחר.' : `${count(n)} פעולות שעשית בלי חיבור לא הוחלו: המיילים השתנו בינתיים במקום אחר.`,
  show: 'הצגה והחלטה',
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
