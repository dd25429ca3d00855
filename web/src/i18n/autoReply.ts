// The Hebrew strings of autoReply (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

import { count } from './count';
import { he } from './he';

/** The settings page's auto-reply card (spec 001 §2, §5, §8, §9) and its live notice. */
export const heAutoReply = {
  title: 'מענה אוטומטי עם AI',
  intro:
    'כשהמענה פועל, השרת בודק את הדואר הנכנס וכותב בעזרת AI טיוטת תשובה לכל מייל מתאים. הטיוטות נשמרות בתיקיית הטיוטות ומחכות לך בדף "תשובות ממתינות" — שום דבר לא נשלח בלי שתאשר.',
  enabled: 'הפעלת המענה האוטומטי',
  enabledHint: 'אפשר לשנות את ההגדרות גם כשהמענה כבוי.',
  keyLabel: 'מפתח API של AI',
  keyHint: 'עדיין לא נשמר מפתח. המפתח יישמר מוצפן בשרת עם ההפעלה, כי המענה פועל גם כשאינך מחובר.',
  keyPlaceholder: 'sk-ant-…',
  loading: 'טוען את הגדרות המענה האוטומטי...',
  loadFailed: 'לא ניתן לטעון את הגדרות המענה האוטומטי.',
  saving: 'שומר...',
  // Spec 001 §8.
  keyMissing: 'חסר מפתח API של AI, הזן מפתח לפני הפעלת המענה האוטומטי',
  signInAgain: 'יש להתחבר מחדש',
  forbidden: 'אין לך הרשאה לשנות הגדרות אלה',
  saveFailed: 'לא ניתן לשמור את הגדרות המענה האוטומטי',
  network: 'שגיאת חיבור, בדוק את האינטרנט',
  sections: {
    hours: 'שעות עבודה',
    style: 'סגנון התשובה',
    senders: 'למי לענות',
    limits: 'מגבלות ובדיקה',
  },
  onlyWorkHours: 'רק בשעות העבודה',
  onlyWorkHoursHint: 'מחוץ לשעות ולימים האלה (באזור הזמן שלך) לא ייכתבו טיוטות.',
  workStart: 'משעה',
  workEnd: 'עד שעה',
  timeHint: 'שעה בפורמט 24 שעות, למשל 17:30.',
  timeInvalid: 'הזן שעה בפורמט HH:MM, למשל 09:00',
  workDays: 'ימי עבודה',
  /** Sunday first, as the Israeli week (Date#getDay numbering). */
  days: ['א׳', 'ב׳', 'ג׳', 'ד׳', 'ה׳', 'ו׳', 'ש׳'],
  dayNames: ['ראשון', 'שני', 'שלישי', 'רביעי', 'חמישי', 'שישי', 'שבת'],
  presetIsrael: 'ימים א׳–ה׳',
  presetSpec: 'ימים ב׳–ו׳',
  noDays: 'לא נבחרו ימי עבודה: כל עוד "רק בשעות העבודה" פועל, לא ייכתבו טיוטות.',
  tone: 'טון',
  tones: { professional: 'מקצועי', friendly: 'ידידותי', formal: 'רשמי' } as Record<string, string>,
  length: 'אורך',
  lengths: { short: 'קצרה', medium: 'בינונית', long: 'ארוכה' } as Record<string, string>,
  creativity: 'יצירתיות',
  creativityHint: 'ערך נמוך: תשובות צפויות ועקביות; ערך גבוה: חופשיות יותר.',
  onlyPersonal: 'רק מיילים אישיים',
  onlyPersonalHint: 'מיילים שנשלחו אליך ישירות (בשדה "אל") ולא מרשימת תפוצה.',
  excludeAutomated: 'דילוג על דואר אוטומטי',
  excludeAutomatedHint: 'הודעות מערכת, כתובות no-reply, דיווחי מסירה ותשובות אוטומטיות של אחרים.',
  excludeSpam: 'דילוג על דואר זבל',
  excludeSpamHint: 'מיילים בתיקיית הספאם או שסומנו כזבל.',
  blacklist: 'רשימה שחורה',
  // The domain is isolated left to right (U+2066 … U+2069), or its '@' jumps to the other end.
  blacklistHint: 'כתובות או דומיינים (\u2066@example.com\u2069), מופרדים בפסיקים או בשורות. לשולחים האלה לא תיכתב תשובה לעולם.',
  whitelist: 'רשימה לבנה',
  whitelistHint: 'אם הרשימה אינה ריקה, תיכתב תשובה רק לשולחים שבה.',
  listPlaceholder: 'boss@example.com, @company.co.il',
  maxPerDay: 'מקסימום טיוטות ביום',
  maxPerDayHint: (min: number, max: number, def: number) =>
    `בין ${count(min)} ל-${count(max)} (ברירת המחדל לפי המפרט: ${count(def)}).`,
  maxPerDayInvalid: (min: number, max: number) => `הזן מספר שלם בין ${count(min)} ל-${count(max)}`,
  noRepeat: 'בלי תשובות חוזרות',
  noRepeatHint: 'טיוטה אחת לכל שולח ביום, ואחת לכל שיחה.',
  notifications: 'התראה כשנכתבה טיוטה',
  notificationsHint: 'הודעה קופצת ופעמון בכל טיוטה שהמענה כותב.',
  interval: 'תדירות הבדיקה',
  intervalHint: 'כל כמה זמן המענה בודק את המיילים החדשים וכותב להם טיוטות: מייל חדש נענה עד פרק הזמן הזה אחרי שהגיע.',
  intervalOption: (minutes: number) => {
    if (minutes < 1) return `כל ${count(Math.round(minutes * 60))} שניות`;
    if (minutes === 1) return 'כל דקה';
    if (minutes === 60) return 'כל שעה';
    return `כל ${count(minutes)} דקות`;
  },
  recommended: '(מומלץ)',
  intervalWarning:
    'בבדיקה תכופה מכל 30 שניות נכתבת טיוטה כמעט מיד כשמייל מגיע, ולא נשאר זמן לטפל בו בעצמך קודם: מייל שמחקת או העברת מהדואר הנכנס לפני הבדיקה לא נענה.',
  stats: {
    title: 'מצב המענה',
    todayCount: 'טיוטות היום',
    totalDrafts: 'טיוטות ממתינות',
    remainingToday: 'נותרו היום',
    monitoring: 'ניטור',
    lastCheck: 'בדיקה אחרונה',
    on: 'פעיל',
    off: 'כבוי',
    never: 'טרם נבדק',
    waiting: (n: number) => (n === 1 ? 'מייל אחד ממתין לבדיקה' : `${count(n)} מיילים ממתינים לבדיקה`),
    ofMax: (max: number) => `מתוך ${count(max)}`,
    loading: 'טוען את מצב המענה...',
    loadFailed: 'לא ניתן לטעון את מצב המענה.',
  },
  clear: 'ניקוי רשימת הטיוטות האוטומטיות',
  clearTitle: 'ניקוי הטיוטות האוטומטיות',
  clearQuestion: (n: number) =>
    n === 1
      ? 'למחוק את טיוטת המענה האוטומטי שעדיין ממתינה?'
      : `למחוק את ${count(n)} טיוטות המענה האוטומטי שעדיין ממתינות?`,
  clearQuestionUnknown: 'למחוק את כל טיוטות המענה האוטומטי שעדיין ממתינות?',
  clearExplain: 'הטיוטות יימחקו גם מתיקיית הטיוטות בתיבת הדואר. טיוטות שכתבת בעצמך לא יימחקו.',
  clearYes: 'מחק',
  clearNo: 'ביטול',
  cleared: (n: number) => (n === 1 ? 'טיוטה אחת נמחקה' : `${count(n)} טיוטות נמחקו`),
  clearFailed: 'שגיאה בניקוי הרשימה, נסה מאוחר יותר',
  activity: {
    title: 'פעילות אחרונה',
    hint: 'מה הוחלט על כל מייל שנבדק, ולמה — החדש ביותר למעלה.',
    empty: 'עדיין אין פעילות. מייל שיגיע בזמן שהמענה פועל יופיע כאן.',
    loadFailed: 'לא ניתן לטעון את הפעילות.',
    showAll: (n: number) => `הצג הכל (${count(n)})`,
    showLess: 'הצג פחות',
    noSubject: he.alerts.noSubject,
    unknownSender: he.alerts.unknownSender,
    replyToElsewhere: 'שימו לב: הטיוטה ממוענת אל',
    replyToElsewhereAfter: ', כתובת "השב אל" בדומיין אחר משל השולח. בדקו את הנמען לפני השליחה.',
  },
} as const;
