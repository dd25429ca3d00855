// Every string the user sees, in Hebrew, in one place (DESIGN.md: "one module of strings").
// Where the spec gives exact Hebrew it is copied verbatim; the rest is written to match its tone.
// Components never hold literal user-facing text: they read it from here.

export const he = {
  app: {
    name: 'mailclient',
    documentTitle: (page: string) => `${page} — mailclient`,
    loading: 'טוען...',
    pageLoadFailed: 'טעינת הדף נכשלה. נסה לרענן את הדף.',
    reload: 'רענון',
  },

  errors: {
    server: 'שגיאה בשרת',
    network: 'לא ניתן להתחבר לשרת. אנא בדוק את החיבור לאינטרנט.',
    sessionExpired: 'פג תוקף ההתחברות. יש להתחבר מחדש.',
  },

  login: {
    title: 'כניסה לחשבון',
    subtitle: 'התחבר כדי לקרוא ולנהל את הדואר שלך',
    username: 'שם משתמש',
    password: 'סיסמה',
    submit: 'כניסה',
    submitting: 'מתחבר...',
    invalidCredentials: 'שם משתמש או סיסמה שגויים',
    failed: 'אירעה שגיאה בהתחברות',
  },

  setup: {
    title: 'הגדרה ראשונית',
    intro: 'ברוך הבא! צור את חשבון מנהל המערכת הראשון. חשבון זה יוכל להוסיף משתמשים נוספים.',
    checking: 'בודק את מצב ההגדרה...',
    statusFailed: 'לא ניתן לבדוק את מצב ההגדרה.',
    retry: 'נסה שוב',
    name: 'שם מלא',
    username: 'שם משתמש',
    usernameHint: 'ישמש לכניסה למערכת',
    password: 'סיסמה',
    passwordHint: 'לפחות 8 תווים',
    confirmPassword: 'אימות סיסמה',
    submit: 'יצירת מנהל מערכת',
    submitting: 'יוצר...',
    required: 'יש למלא את כל השדות',
    passwordTooShort: 'הסיסמה חייבת להכיל לפחות 8 תווים',
    passwordMismatch: 'הסיסמאות אינן תואמות',
    missingToken:
      'בקישור חסר אסימון ההגדרה. פתח את הקישור המלא שהודפס במסוף השרת בעת ההפעלה הראשונה.',
    alreadyDone: 'ההגדרה הראשונית כבר הושלמה. אפשר להתחבר עם חשבון קיים.',
    goToLogin: 'מעבר למסך הכניסה',
    created: 'חשבון מנהל המערכת נוצר בהצלחה. אפשר להתחבר עכשיו.',
  },

  layout: {
    nav: 'ניווט ראשי',
    folders: 'תיקיות',
    compose: 'כתיבת הודעה',
    searchLabel: 'חיפוש בדואר',
    searchPlaceholder: 'חיפוש בדואר',
    tools: 'כלים',
    settings: 'הגדרות',
    logout: 'התנתקות',
    openMenu: 'פתיחת תפריט',
    closeMenu: 'סגירת תפריט',
    account: 'החשבון שלך',
  },

  folders: {
    inbox: 'דואר נכנס',
    starred: 'מסומנים בכוכב',
    'pending-replies': 'ממתינים לתשובה',
    Archive: 'ארכיון',
    Spam: 'ספאם',
    Promotions: 'קידומי מכירות',
    Updates: 'עדכונים',
    sent: 'נשלחו',
    drafts: 'טיוטות',
    trash: 'אשפה',
    junk: 'דואר זבל',
  },

  // Short explanations shown as tooltips on the virtual folders, whose names alone are not obvious.
  folderHints: {
    Archive: 'דואר שטופל',
    Promotions: 'פרסומות ודיוור שיווקי',
    Updates: 'הודעות מידע ועדכונים',
    'pending-replies': 'טיוטות תשובה שעדיין לא נשלחו',
  } as Record<string, string>,

  tools: {
    search: 'חיפוש מתקדם',
    contacts: 'אנשי קשר',
    smartFeatures: 'תכונות חכמות',
    aiTraining: 'אימון AI',
    rules: 'כללים וסינון',
    builder: 'עורך חזותי',
  },

  pages: {
    Inbox: 'דואר נכנס',
    PendingReplies: 'ממתינים לתשובה',
    Compose: 'כתיבת הודעה',
    Search: 'חיפוש מתקדם',
    Contacts: 'אנשי קשר',
    Tasks: 'משימות',
    Rules: 'כללים וסינון',
    SmartFeatures: 'תכונות חכמות',
    AITraining: 'אימון AI',
    Settings: 'הגדרות',
    BuilderPage: 'עורך חזותי',
  },

  // Honest empty states for screens whose server side arrives in later work.
  empty: {
    noMailbox: 'אין עדיין תיבת דואר מחוברת.',
    connectHint: 'את חשבון הדואר מחברים בדף ההגדרות.',
    goToSettings: 'מעבר להגדרות',
    folderEmpty: (folder: string) => `אין הודעות להצגה בתיקייה "${folder}".`,
    pendingReplies: 'אין טיוטות תשובה הממתינות לשליחה.',
    compose: 'שליחת דואר תתאפשר לאחר חיבור תיבת דואר.',
    search: 'חיפוש בדואר יתאפשר לאחר חיבור תיבת דואר וסנכרון ההודעות.',
    searchQuery: 'מחפש את:',
    contacts: 'אין עדיין אנשי קשר.',
    tasks: 'אין עדיין משימות.',
    rules: 'אין עדיין כללים. כללים מאפשרים למיין דואר נכנס באופן אוטומטי.',
    smartFeatures: 'תכונות חכמות יהיו זמינות לאחר חיבור תיבת דואר והגדרת ספק AI.',
    aiTraining: 'הגדרות אימון ה-AI עדיין אינן זמינות.',
    settings: 'הגדרות החשבון ותיבת הדואר יהיו זמינות כאן בקרוב.',
    builder: 'אין עדיין תוכן לעמוד זה בעורך החזותי.',
  },

  toasts: {
    region: 'הודעות מערכת',
    close: 'סגירת הודעה',
    kinds: {
      success: 'הצלחה',
      error: 'שגיאה',
      warning: 'אזהרה',
      info: 'מידע',
    },
  },

  notifications: {
    bell: 'התראות',
    bellWithCount: (n: number) => `התראות, ${n} שלא נקראו`,
    title: 'התראות',
    empty: 'אין התראות',
    markAllRead: 'סמן הכל כנקרא',
    unread: 'לא נקראה',
  },

  scale: {
    button: 'גודל תצוגה',
    title: 'גודל תצוגה',
    presets: {
      compact: 'צפוף',
      normal: 'רגיל',
      comfortable: 'נוח',
      large: 'גדול',
      reset: 'איפוס',
    },
  },
} as const;

export type FolderKey = keyof typeof he.folders;
