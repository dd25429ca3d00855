// The Hebrew strings of household (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

/**
 * Settings shared by the household (global mail and AI training settings, the startup check)
 * and settings backups sealed with a master password (spec 001 §2, §4, §5, §8).
 */
export const heHousehold = {
  unknownUser: 'משתמש לא ידוע',
  mail: {
    saveForAll: 'שמירה לכל המשתמשים',
    savingForAll: 'שומר לכל המשתמשים...',
    saveForAllHint: 'מנהל מערכת יכול לשמור את פרטי החיבור לכל המשתמשים: מי שעוד לא חיבר תיבת דואר יוכל להתחבר בהם. הסיסמה נשמרת מוצפנת בשרת ולא נשלחת לאף משתמש.',
    globalRequired: 'מלא אימייל וסיסמה לפני השמירה הגלובלית',
    globalSaved: 'ההגדרות הגלובליות נשמרו',
    globalSaveFailed: (message: string) => `שגיאה בשמירה גלובלית: ${message}`,
    found: (by: string, date: string) => `הגדרות מייל גלובליות נמצאו (עודכנו על ידי ${by} בתאריך ${date}). לטעון אותן?`,
    load: 'טעינה',
    notNow: 'לא עכשיו',
    fetching: 'טוען את ההגדרות הגלובליות...',
    connecting: 'ההגדרות הגלובליות נטענו. מתחבר לתיבת הדואר...',
    globalPasswordHint: 'תשמש הסיסמה השמורה בהגדרות הגלובליות (היא לא מוצגת כאן).',
    aiKey: 'מפתח AI למשק הבית',
    aiKeyHint:
      'נשמר עם "שמירה לכל המשתמשים", מוצפן בשרת, ולא מוצג שוב. משמש כל משתמש שאין לו מפתח משלו. ריק: המפתח הקיים נשאר.',
    aiKeySet: 'מוגדר מפתח AI למשק הבית.',
    aiKeyNotSet: 'לא הוגדר מפתח AI למשק הבית.',
    loadFailed: 'שגיאה בטעינת ההגדרות הגלובליות',
    none: 'לא נשמרו הגדרות מייל גלובליות',
  },
  backup: {
    title: 'גיבוי ההגדרות בשרת',
    /** `all`: every section's name (below), so the intro lists what a backup holds. */
    intro: (all: string) => `הגיבוי נשמר בשרת מוצפן בסיסמת אב שרק אתה יודע, וכולל: ${all}.`,
    saveToServer: 'שמירה לשרת',
    loadFromServer: 'טעינה מהשרת',
    none: 'אין הגדרות שמורות',
    download: 'הורדת קובץ הגיבוי',
    restoreFile: 'שחזור מקובץ',
    fileInput: 'קובץ גיבוי לשחזור',
    savedAt: (date: string) => `גיבוי אחרון: ${date}`,
    includes: (sections: string) => `כולל: ${sections}`,
    /**
     * Every section of a backup (the server's registry), in its order; typed against the
     * generated `BackupSectionName` in features/household/BackupSection.tsx.
     */
    sections: {
      mailboxes: 'תיבות הדואר',
      aiProvider: 'ספק ה-AI והמפתח',
      aiTraining: 'אימון ה-AI',
      preferences: 'ההעדפות',
      templates: 'התבניות',
      contacts: 'אנשי הקשר',
      tasks: 'המשימות',
      rules: 'הכללים',
      labels: 'התוויות וצבעיהן',
      autoReply: 'המענה האוטומטי',
      spamDetection: 'זיהוי הספאם',
      snoozes: 'הנודניקים',
      followUps: 'המעקבים',
      invitations: 'הזמנות לפגישות',
      unsubscribeAttempts: 'בקשות הסרה מרשימות תפוצה',
      pushDevices: 'המכשירים שמקבלים התראות',
    },
    notYet: 'עדיין לא נשמר גיבוי בשרת.',
    downloadFailed: 'שגיאה בהורדת קובץ הגיבוי',
    fileReadFailed: 'לא ניתן לקרוא את הקובץ שנבחר',
    leftOut: 'חלקים מהגיבוי לא שוחזרו כפי שהם:',
  },
  master: {
    saveTitle: 'שמירת ההגדרות לשרת',
    loadTitle: 'טעינת ההגדרות מהשרת',
    fileTitle: 'שחזור ההגדרות מקובץ',
    saveExplain: 'ההגדרות יוצפנו בסיסמת האב. בלעדיה אי אפשר לשחזר אותן, גם לא מנהל המערכת.',
    saveReplaces: 'הגיבוי הקודם שבשרת יוחלף.',
    loadExplain: 'ההגדרות שבגיבוי יחליפו את ההגדרות הנוכחיות שלך. בסיסמה שגויה דבר לא משתנה.',
    file: 'קובץ:',
    password: 'סיסמת האב',
    passwordHint: 'לפחות 8 תווים.',
    save: 'שמירה',
    load: 'טעינה',
    restore: 'שחזור',
    working: 'רגע...',
    cancel: 'ביטול',
    close: 'סגירה',
  },
  training: {
    saveForAll: 'שמירה לכל המשתמשים',
    savingForAll: 'שומר לכל המשתמשים...',
    savedForAll: 'ההגדרות הגלובליות נשמרו',
    saveForAllFailed: 'שגיאה בשמירת הגדרות AI גלובליות',
    loadGlobal: 'טעינת הגדרות גלובליות',
    loadingGlobal: 'טוען הגדרות גלובליות...',
    loadGlobalFailed: 'שגיאה בטעינת הגדרות AI גלובליות',
    loadedGlobal: 'ההגדרות הגלובליות נטענו לטופס. כדי לשמור אותן לחץ "שמור לשרת".',
    globalInfo: (by: string, date: string) => `יש הגדרות גלובליות: עודכנו על ידי ${by} בתאריך ${date}`,
    none: 'לא נשמרו הגדרות AI גלובליות',
  },
} as const;
