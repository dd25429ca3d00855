// The Hebrew strings of preferences (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

import { count } from './count';

export const hePreferences = {
  title: 'העדפות משתמש',
  hint: 'ההעדפות נשמרות בשרת ועוברות איתך לכל מכשיר.',
  keys: {
    emailNotifications: 'התראות על מייל חדש',
    desktopNotifications: 'התראות שולחן עבודה',
    soundNotifications: 'צליל במייל חדש',
    autoRead: 'סימון כנקרא בפתיחה',
    smartReply: 'תשובות חכמות',
    darkMode: 'מצב כהה',
    language: 'שפה',
    timezone: 'אזור זמן',
    appScale: 'גודל האפליקציה',
    fontScale: 'גודל הגופן',
    iconScale: 'גודל הסמלים',
    compactMode: 'תצוגה צפופה',
    showPreview: 'תצוגה מקדימה ברשימה',
    swipeAction: 'החלקת שורה בטלפון',
    offlineMessages: 'מיילים לקריאה בלי חיבור',
  } as Record<string, string>,
  descriptions: {
    emailNotifications: 'הודעה קופצת ופעמון כשמגיע דואר חדש',
    desktopNotifications: 'התראה של הדפדפן גם כשהחלון ברקע',
    soundNotifications: 'צליל קצר כשמגיע דואר חדש',
    autoRead: 'פתיחת מייל מסמנת אותו כנקרא; כבוי — הוא נשאר לא נקרא עד שתסמן',
    smartReply: 'כפתורי תשובה מהירה שנכתבו בעזרת AI בחלונית הקריאה',
    darkMode: 'רקע כהה לכל המסכים',
    compactMode: 'יותר מיילים על המסך, עם פחות ריווח',
    showPreview: 'שורה מתוך תוכן המייל מתחת לנושא ברשימת המיילים',
  } as Record<string, string>,
  swipeChoices: { archive: 'העברה לארכיון', processed: 'סימון כטופל' } as Record<string, string>,
  swipeHint: 'מה קורה כשמחליקים שורה ברשימת המיילים הצידה במסך מגע',
  offlineHint: 'כמה מהמיילים החדשים של כל תיקייה שפתחת נשמרים בדפדפן הזה, כדי לקרוא אותם כשאין חיבור לשרת. היציאה מהחשבון מוחקת אותם.',
  offlineChoice: (n: number) => (n === 0 ? 'לא לשמור' : `עד ${count(n)}`),
  languageOnly: 'עברית (שפת הממשק היחידה)',
  scale: 'גודל תצוגה',
  desktopDenied: 'הדפדפן חוסם התראות לאתר הזה. אפשר לשנות זאת בהגדרות האתר בדפדפן.',
  desktopUnsupported: 'הדפדפן הזה אינו תומך בהתראות שולחן עבודה',
} as const;
