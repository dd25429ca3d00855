// Every string the user sees is Hebrew and lives in src/i18n/ (DESIGN.md: "one module of strings"):
// here the shell's and the inbox's, what the first paint needs; each other feature's in its own
// file beside this one (settings.ts, rules.ts, ...), which the bundler puts in that feature's chunk
// (issue 42: the inbox's first JS < 150 kB gzip). A string the shell shows for another feature
// (a live notice) goes in `alerts` here. Where the spec gives exact Hebrew it is copied verbatim;
// the rest is written to match its tone. Components never hold literal user-facing text.

import { count } from './count';

export const he = {
  app: {
    name: 'mailclient',
    documentTitle: (page: string) => `${page} — mailclient`,
    loading: 'טוען...',
    pageLoadFailed: 'טעינת הדף נכשלה. נסה לרענן את הדף.',
    reload: 'רענון',
    /** The button under anything that failed to load (components/LoadError). */
    retry: 'נסה שוב',
  },

  errors: {
    server: 'שגיאה בשרת',
    network: 'לא ניתן להתחבר לשרת. אנא בדוק את החיבור לאינטרנט.',
    sessionExpired: 'פג תוקף ההתחברות. יש להתחבר מחדש.',
  },

  /** The installable app (features/pwa; issue 39): the update prompt and the lost-server banner. */
  /** Touch on the mail list (features/inbox/touch; issue 39). */
  touch: {
    swipeArchive: 'לארכיון',
    swipeProcessed: 'טופל',
    pullToRefresh: 'משכו לרענון',
    releaseToRefresh: 'שחררו לרענון',
  },

  pwa: {
    updateReady: 'גרסה חדשה של האפליקציה מוכנה.',
    updateReload: 'רענון לגרסה החדשה',
    updating: 'מרענן...',
    offlineTitle: 'אין חיבור לשרת',
    offlineText: 'האפליקציה נטענה מהעותק השמור במכשיר. הדואר וההגדרות יוצגו שוב כשהשרת יענה.',
    offlineRetry: 'נסה להתחבר שוב',
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

  /** The password rule, the same on every form (the server checks it too). */
  passwords: {
    tooShort: 'הסיסמה חייבת להכיל לפחות 8 תווים',
    mismatch: 'הסיסמאות אינן תואמות',
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
    /** The sidebar's badges beside 'pending replies' (features/drafts/PendingIndicator). */
    draftsCount: (n: number) => (n === 1 ? 'טיוטה אחת ממתינה' : `${count(n)} טיוטות ממתינות`),
    outboxFailed: 'שליחת מייל נכשלה. פרטים בדף הממתינים לתשובה.',
  },

  // The user's own folders in the sidebar (features/folders).
  ownFolders: {
    title: 'התיקיות שלי',
    create: 'תיקייה חדשה',
    createInside: 'תיקייה חדשה בתוכה',
    rename: 'שינוי שם',
    move: 'העברה לתיקייה אחרת',
    remove: 'מחיקה',
    menu: (name: string) => `פעולות על התיקייה ${name}`,
    expand: (name: string) => `הצגת התיקיות שבתוך ${name}`,
    collapse: (name: string) => `הסתרת התיקיות שבתוך ${name}`,
    nameLabel: 'שם התיקייה',
    save: 'שמירה',
    cancel: 'ביטול',
    close: 'סגירה',
    createTitle: 'תיקייה חדשה',
    renameTitle: 'שינוי שם התיקייה',
    moveTitle: 'העברת התיקייה',
    parentLabel: 'בתוך',
    top: 'ברמה העליונה',
    deleteTitle: 'מחיקת תיקייה',
    deleteYes: 'מחיקה',
    deleteNo: 'ביטול',
    deleteQuestion: (name: string, mails: number, folders: number) =>
      `למחוק את התיקייה "${name}"${folders === 2 ? ' ואת התיקייה שבתוכה' : folders > 2 ? ` ואת ${folders - 1} התיקיות שבתוכה` : ''}? ` +
      (mails === 0 ? 'אין בה הודעות.' : mails === 1 ? 'יש בה הודעה אחת, והיא תימחק מהשרת.' : `יש בה ${mails} הודעות, והן יימחקו מהשרת.`),
    created: (name: string) => `התיקייה "${name}" נוצרה`,
    renamed: (name: string) => `התיקייה נקראת עכשיו "${name}"`,
    moved: (name: string) => `התיקייה "${name}" הועברה`,
    deleted: (name: string) => `התיקייה "${name}" נמחקה`,
    empty: 'אין עדיין תיקיות משלך',
    unread: (n: number) => `${n} שלא נקראו`,
    moveMail: 'העברה לתיקייה',
    moveMailTitle: 'העברה לתיקייה',
    moveMailTo: (name: string) => `העברה אל ${name}`,
    mailMoved: (n: number, name: string) => (n === 1 ? `ההודעה הועברה אל ${name}` : `${n} הודעות הועברו אל ${name}`),
    inbox: 'דואר נכנס',
    noFolders: 'אין תיקיות להעברה. אפשר ליצור תיקייה בסרגל הצד.',
    dropHint: (name: string) => `שחררו כאן כדי להעביר אל ${name}`,
    /** A folder whose server takes no keywords (FolderNode.statusesLocal). */
    statusesLocal: 'השרת אינו שומר סטטוסים בתיקייה הזו: הם נשמרים רק ב-mailclient, ותוכנות דואר אחרות לא יראו אותם',
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
    tasks: 'משימות',
    subscriptions: 'מינויים ודיוור',
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
    Subscriptions: 'מינויים ודיוור',
    Snoozed: 'נודניק ומעקב',
    SmartFeatures: 'תכונות חכמות',
    AITraining: 'אימון AI',
    Rules: 'כללים וסינון',
    Settings: 'הגדרות',
    BuilderPage: 'עורך חזותי',
  },

  // Honest empty states for screens whose server side arrives in later work.
  empty: {
    noMailbox: 'אין עדיין תיבת דואר מחוברת.',
    connectHint: 'את חשבון הדואר מחברים בדף ההגדרות.',
    goToSettings: 'מעבר להגדרות',
    folderEmpty: (folder: string) => `אין הודעות להצגה בתיקייה "${folder}".`,
  },

  mail: {
    /** An empty Spam or Promotions folder (features/spam/SpamEmptyHint; spec 000: a force-reload with no results). */
    spamMaybeOff: (folder: string) => `לא נמצאו מיילים בתיקייה ${folder}. ייתכן שזיהוי הספאם אינו מופעל.`,
    spamDetectionOff: 'זיהוי הספאם כבוי, ולכן מיילים חדשים אינם מסווגים לתיקייה זו.',
    spamToSettings: 'להגדרות זיהוי הספאם',
    listLabel: 'רשימת ההודעות',
    toolbarLabel: 'פעולות על התיקייה',
    noSubject: 'ללא נושא',
    toPrefix: 'אל:',
    unknownSender: '(ללא שולח)',
    star: 'סימון בכוכב',
    unstar: 'הסרת הכוכב',
    starFailed: 'לא ניתן לעדכן את הסימון בכוכב',
    hasAttachments: 'יש קבצים מצורפים',
    unread: 'לא נקראה',
    loadMore: 'טען עוד',
    loadingMore: 'טוען...',
    shown: (n: number, total: number) => `${count(n)} מתוך ${count(total)}`,
    loading: 'טוען הודעות...',
    loadFailed: 'שגיאה בטעינת המיילים',
    refresh: 'רענון',
    refreshing: 'מרענן...',
    syncingHint: 'הסנכרון עדיין רץ; הודעות נוספות יופיעו כאן בהדרגה.',
    emptyByFolder: {
      inbox: 'אין הודעות בדואר הנכנס.',
      starred: 'אין הודעות מסומנות בכוכב.',
      Spam: 'אין דואר ספאם. מצוין!',
      junk: 'תיקיית דואר הזבל ריקה.',
      Promotions: 'אין קידומי מכירות.',
      Updates: 'אין עדכונים.',
      Archive: 'הארכיון ריק.',
      sent: 'עדיין לא נשלחו הודעות.',
      drafts: 'אין טיוטות.',
      trash: 'האשפה ריקה.',
    } as Record<string, string>,
    selectMail: 'בחר הודעה לקריאה',
    back: 'חזרה לרשימה',
    from: 'מאת',
    to: 'אל',
    cc: 'עותק',
    date: 'תאריך',
    attachments: 'קבצים מצורפים',
    download: (name: string) => `הורדת ${name}`,
    downloadFailed: 'הורדת הקובץ נכשלה',
    sizeUnits: ['בתים', 'KB', 'MB', 'GB'] as readonly string[],
    remoteBlocked: 'תמונות חיצוניות נחסמו להגנה על פרטיותך',
    showRemote: 'הצג תמונות',
    unparsed: 'לא ניתן היה לפענח את ההודעה, ולכן היא מוצגת כפי שהגיעה.',
    downloadRaw: 'הורדת ההודעה המקורית',
    bodyTitle: (subject: string) => `תוכן ההודעה: ${subject}`,
    mailLoadFailed: 'לא ניתן לטעון את ההודעה.',
  },

  // The inbox's threads, triage, bulk actions and keyboard shortcuts (spec 000 §2-§5, §8).
  inbox: {
    threadListLabel: 'רשימת השיחות',
    messagesInThread: (n: number) => `${count(n)} הודעות בשיחה`,
    /** A Gmail label of the mail (a label folder it is in besides its own; Email.folderLabels). */
    folderLabel: (name: string) => `תווית: ${name}`,
    threadLoading: 'טוען את שאר השיחה...',
    threadLoadFailed: 'לא ניתן לטעון את שאר השיחה.',
    selectThread: (subject: string) => `בחירת השיחה: ${subject}`,
    selectAll: 'בחירת כל השיחות בעמוד',
    /** The Hebrew names of the statuses and priorities shown as labels. */
    labels: {
      needs_reply: 'דורש תשובה',
      processed: 'טופל',
      unread: 'לא נקרא',
      info: 'מידע',
      spam: 'ספאם',
      suspicious: 'חשוד',
      advertisement: 'פרסומת',
      urgent: 'דחוף',
      high: 'עדיפות גבוהה',
    } as Record<string, string>,
    /** The status buttons, by what they send. */
    statusActions: {
      processed: 'טופל',
      needs_reply: 'דורש תשובה',
      info: 'מידע',
      spam: 'ספאם',
      advertisement: 'פרסומת',
      urgent: 'דחוף',
    } as Record<string, string>,
    statusActionHints: {
      processed: 'סימון כטופל (עובר לארכיון)',
      needs_reply: 'סימון כדורש תשובה (עדיפות גבוהה)',
      info: 'סימון כמידע (עובר לעדכונים)',
      spam: 'סימון כספאם',
      advertisement: 'סימון כפרסומת (עובר לקידומי מכירות)',
      urgent: 'סימון כדחוף',
    } as Record<string, string>,
    statusGroup: 'סטטוס',
    currentStatus: 'מצב נוכחי',
    movedTo: (folder: string) => `המייל הועבר לתיקייה ${folder}`,
    statusFailed: 'שגיאה בעדכון הסטטוס',
    actionsLabel: 'פעולות על השיחה',
    delete: 'מחיקה',
    deleteTitle: 'מחיקת המייל',
    deleteQuestion: (subject: string) => `למחוק את "${subject}"?`,
    deleteThreadQuestion: (subject: string, n: number) => `למחוק את השיחה "${subject}" (${count(n)} מיילים)?`,
    deleteWarning: 'המייל יימחק מהאתר בלבד ולא מתיבת הדואר האמיתית.',
    deleteYes: 'מחיקה',
    deleteNo: 'ביטול',
    deleted: 'המייל נמחק מהאתר',
    deleteFailed: 'שגיאה במחיקת המייל',
    trash: 'העברה לאשפה',
    trashed: 'המייל הועבר לאשפה',
    trashFailed: 'שגיאה בהעברת המייל לאשפה',
    filter: {
      label: 'סינון',
      all: 'כל ההודעות',
      flags: 'מצב',
      statuses: 'סטטוס',
      unread: 'לא נקראו',
      starred: 'מסומנים בכוכב',
      attachment: 'עם קבצים מצורפים',
    } as Record<string, string>,
    sort: {
      label: 'מיון',
      date: 'תאריך',
      sender: 'שולח',
      subject: 'נושא',
      asc: 'סדר עולה',
      desc: 'סדר יורד',
    } as Record<string, string>,
    emptyFiltered: 'אין הודעות שמתאימות לסינון.',
    clearFilter: 'ניקוי הסינון',
    expand: (who: string) => `הצגת ההודעה מ${who}`,
    collapse: 'כיווץ ההודעה',
    remoteAllowSender: 'הצג תמיד מהכתובת הזו',
    /** What "always" trusts: the From address, which anyone can write (issue 22). */
    remoteAllowSenderHint: 'התמונות יוצגו בכל מייל שכתובת השולח שלו היא זו. כתובת שולח אפשר לזייף, כך שגם מייל מזויף ממנה יציג תמונות.',
    remoteAllowedNote: 'תמונות חיצוניות מוצגות תמיד מהשולח הזה (לפי כתובת השולח, שאפשר לזייף).',
    remoteRevoke: 'ביטול',
    remoteAllowed: (address: string) => `תמונות חיצוניות יוצגו תמיד מ-${address}`,
    remoteRevoked: (address: string) => `תמונות חיצוניות מ-${address} ייחסמו שוב`,
    remoteFailed: 'לא ניתן לעדכן את ההגדרה לשולח',
    bulk: {
      label: 'פעולות על השיחות שנבחרו',
      selected: (n: number) => (n === 1 ? 'שיחה אחת נבחרה' : `${count(n)} שיחות נבחרו`),
      clear: 'ביטול הבחירה',
      updated: (n: number) => (n === 1 ? 'מייל אחד עודכן' : `${count(n)} מיילים עודכנו`),
      moved: (n: number, folder: string) =>
        n === 1 ? `מייל אחד הועבר לתיקייה ${folder}` : `${count(n)} מיילים הועברו לתיקייה ${folder}`,
      deleted: (n: number) => (n === 1 ? 'מייל אחד נמחק מהאתר' : `${count(n)} מיילים נמחקו מהאתר`),
      trashed: (n: number) => (n === 1 ? 'מייל אחד הועבר לאשפה' : `${count(n)} מיילים הועברו לאשפה`),
      failed: 'שגיאה בביצוע הפעולה על המיילים שנבחרו',
      deleteTitle: 'מחיקת המיילים שנבחרו',
      deleteQuestion: (n: number) => (n === 1 ? 'למחוק מייל אחד?' : `למחוק ${count(n)} מיילים?`),
    },
    shortcuts: {
      title: 'קיצורי מקלדת',
      close: 'סגירה',
      open: 'קיצורי מקלדת (?)',
      list: [
        ['j', 'השיחה הבאה'],
        ['k', 'השיחה הקודמת'],
        ['Enter', 'פתיחת השיחה'],
        ['r', 'תשובה לשולח'],
        ['e', 'סימון כטופל'],
        ['s', 'סימון בכוכב או הסרתו'],
        ['#', 'מחיקה (אחרי אישור)'],
        ['/', 'מעבר לתיבת החיפוש'],
        ['c', 'כתיבת הודעה חדשה'],
        ['?', 'הצגת רשימה זו או הסתרתה'],
        ['Esc', 'סגירת החלון'],
      ] as ReadonlyArray<readonly [string, string]>,
    },
  },

  /** The real-time channel's indicator in the top bar (app/live). */
  live: {
    reconnecting: 'אין חיבור לעדכונים מיידיים, מתחבר מחדש...',
    failed: 'החיבור לעדכונים מיידיים נכשל',
    retry: 'נסה שוב',
    fallbackHint: 'הדואר והמונים ימשיכו להתעדכן כל 30 שניות עד שהחיבור יחזור.',
  },

  /** The Inbox Zero panel on the inbox (features/inbox/zero). */
  inboxZero: {
    title: 'Inbox Zero',
    region: 'מצב תיבת הדואר (Inbox Zero)',
    statsLabel: 'מוני תיבת הדואר',
    needsReply: 'דורשים מענה',
    urgent: 'דחופים',
    overdue: 'באיחור',
    processed: 'טופלו',
    hints: {
      needsReply: 'מיילים שסומנו כדורשים מענה',
      urgent: 'מיילים בעדיפות דחופה',
      overdue: 'ממתינים למענה 3 ימים ומעלה, או דחופים יום ומעלה',
      processed: 'מיילים שסומנו כמטופלים',
    },
    refresh: 'רענון נתוני Inbox Zero',
    loading: 'טוען את מצב התיבה...',
    loadFailed: 'לא ניתן לטעון את מצב התיבה',
    retry: 'נסה שוב',
    allClear: 'אין מיילים באיחור. כל הכבוד!',
    remindersTitle: 'תזכורות: מיילים באיחור',
    days: (n: number) => (n <= 0 ? 'היום' : n === 1 ? 'יום אחד' : n === 2 ? 'יומיים' : `${n} ימים`),
    overdueFor: (days: string) => `באיחור של ${days}`,
    more: (n: number) => `ועוד ${n}`,
    moreHint: (n: number) => (n === 1 ? 'מייל נוסף באיחור' : `${n} מיילים נוספים באיחור`),
    autoArchiveTitle: 'ארכוב אוטומטי',
    autoArchiveText: (n: number) =>
      n === 1
        ? 'מייל אחד שטופל או לעדכון בלבד לא היה פעיל 7 ימים ומעלה.'
        : `${n} מיילים שטופלו או לעדכון בלבד לא היו פעילים 7 ימים ומעלה.`,
    autoArchiveRun: 'העבר לארכיון',
    autoArchiveRunning: 'מעביר...',
    autoArchiveDismiss: 'לא עכשיו',
    autoArchiveDismissHint: 'ההצעה לא תוצג שוב עד ההתחברות הבאה',
    archived: (n: number) =>
      n === 0 ? 'לא הועברו מיילים לארכיון' : n === 1 ? 'מייל אחד הועבר לארכיון' : `${n} מיילים הועברו לארכיון`,
    autoArchiveFailed: 'הארכוב האוטומטי נכשל',
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

  newMail: {
    toast: (n: number, folder: string) =>
      n === 1 ? `מייל חדש ב${folder}` : `${count(n)} מיילים חדשים ב${folder}`,
    desktopTitle: 'דואר חדש',
  },

  /** What the shell announces from the live channel (app/live) and at start for other features:
   *  here rather than in those features' string files, which the first chunk does not carry. */
  alerts: {
    unknownSender: 'שולח לא ידוע',
    noSubject: '(ללא נושא)',
    autoReplyTitle: 'מענה אוטומטי',
    autoReplyWritten: (who: string, subject: string) => `נכתבה טיוטת תשובה אוטומטית ל-${who}: ${subject}`,
    spamTitle: 'זוהה ספאם',
    taskReminderTitle: 'תזכורת למשימה',
    sendFailedTitle: 'שליחה מתוזמנת נכשלה',
    taskReminder: (title: string) => `תזכורת: ${title}`,
    taskUntitled: '(ללא כותרת)',
    oauthTitle: 'צריך להתחבר מחדש לתיבת הדואר',
    oauthFor: (email: string) => `צריך להתחבר מחדש ל-${email}`,
    oauthToSettings: 'להגדרות',
    /** Spec 001 §9: the startup global-settings check (app/StartupGlobalCheck). */
    globalMailFound: 'נמצאו הגדרות מייל גלובליות!',
    globalMailOpen: 'למעבר להגדרות',
  },
} as const;

export type FolderKey = keyof typeof he.folders;
