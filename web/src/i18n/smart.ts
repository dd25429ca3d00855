// The Hebrew strings of smart (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

import { count } from './count';

/** The smart features page. */
export const heSmart = {
  list: {
    title: 'המיילים האחרונים',
    loading: 'טוען מיילים...',
    loadFailed: 'טעינת המיילים נכשלה',
    empty: 'אין עדיין מיילים בדואר הנכנס.',
    emptyHint: 'עשרת המיילים האחרונים יופיעו כאן לאחר הסנכרון.',
  },
  chooseMail: 'בחרו מייל מהרשימה כדי לסכם אותו או לקבל הצעות תשובה.',
  chosen: 'המייל שנבחר:',
  goToSettings: 'מעבר להגדרות',
  summary: {
    title: 'סיכום חכם',
    button: 'סכם',
    busy: 'מסכם...',
    sentiment: 'טון',
    priority: 'עדיפות',
    sentiments: { positive: 'חיובי', negative: 'שלילי', neutral: 'ניטרלי' } as Record<string, string>,
    priorities: { low: 'נמוכה', medium: 'בינונית', high: 'גבוהה', urgent: 'דחופה' } as Record<string, string>,
    failed: 'שגיאה ביצירת סיכום',
  },
  replies: {
    title: 'תשובות חכמות',
    button: 'הצע תשובות',
    busy: 'מכין הצעות...',
    hint: 'בחירה בהצעה פותחת את חלון הכתיבה עם התשובה.',
    failed: 'שגיאה ביצירת הצעות תשובה',
  },
  compose: {
    title: 'כתיבה חכמה',
    label: 'על מה המייל?',
    placeholder: 'לדוגמה: בקשה מהספק להקדים את המשלוח לשבוע הבא',
    button: 'כתוב מייל',
    busy: 'כותב...',
    blank: 'יש לכתוב כמה מילים על המייל הרצוי',
    failed: 'שגיאה בכתיבת המייל',
  },
  insights: {
    title: 'תובנות פרודוקטיביות',
    period: (days: number) => `ב-${count(days)} הימים האחרונים`,
    loading: 'מחשב תובנות...',
    loadFailed: 'טעינת התובנות נכשלה',
    none: '—',
    received: 'התקבלו',
    sent: 'נשלחו',
    mails: (n: number) => (n === 1 ? 'מייל אחד' : `${count(n)} מיילים`),
    medianReply: 'זמן תשובה חציוני',
    averageReply: 'זמן תשובה ממוצע',
    samples: (n: number) => (n === 1 ? 'על סמך תשובה אחת' : `על סמך ${count(n)} תשובות`),
    noReplyTime: 'אין עדיין תשובות שלך בתקופה הזו',
    replyRate: 'שיעור מענה',
    replyRateHint: 'מתוך המיילים שדרשו תשובה',
    noReplyRate: 'לא היו מיילים שדרשו תשובה',
    needsReply: 'ממתינים לתשובה',
    urgent: (n: number) => (n === 1 ? 'אחד דחוף' : `${count(n)} דחופים`),
    oldest: (days: number) => (days <= 0 ? 'הוותיק שבהם מהיום' : `הוותיק שבהם ממתין ${days === 1 ? 'יום' : days === 2 ? 'יומיים' : `${count(days)} ימים`}`),
    nothingWaiting: 'אין מיילים שממתינים לתשובה',
    busiestSenders: 'השולחים הפעילים ביותר',
    noSenders: 'אין עדיין שולחים בתקופה הזו',
    busiestDay: 'היום העמוס ביותר',
    noBusiestDay: 'אין עדיין דואר בתקופה הזו',
    weekdays: ['יום ראשון', 'יום שני', 'יום שלישי', 'יום רביעי', 'יום חמישי', 'יום שישי', 'שבת'] as readonly string[],
  },
  /** Durations, from the insights' hours. */
  duration: {
    lessThanMinute: 'פחות מדקה',
    minutes: (n: number) => (n === 1 ? 'דקה' : `${count(n)} דקות`),
    hours: (n: string) => (n === '1' ? 'שעה' : n === '2' ? 'שעתיים' : `${n} שעות`),
    days: (n: number) => (n === 1 ? 'יום' : n === 2 ? 'יומיים' : `${count(n)} ימים`),
  },
} as const;
