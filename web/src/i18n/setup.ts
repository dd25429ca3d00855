// The Hebrew strings of setup (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

export const heSetup = {
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
  missingToken:
    'בקישור חסר אסימון ההגדרה. פתח את הקישור המלא שהודפס במסוף השרת בעת ההפעלה הראשונה.',
  alreadyDone: 'ההגדרה הראשונית כבר הושלמה. אפשר להתחבר עם חשבון קיים.',
  goToLogin: 'מעבר למסך הכניסה',
  created: 'חשבון מנהל המערכת נוצר בהצלחה. אפשר להתחבר עכשיו.',
} as const;
