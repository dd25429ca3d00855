// The Hebrew strings of builder (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

export const heBuilder = {
  loading: 'טוען את העמוד...',
  loadFailed: (message: string) => `שגיאה בטעינת תוכן מ-Builder.io: ${message}`,
  loadFailedExplain:
    'ודאו שמפתח ה-API הציבורי של Builder.io מוגדר נכון בשרת (בסעיף [builder] בשדה api_key של קובץ התצורה, או במשתנה MAILCLIENT_BUILDER_API_KEY) ושהשרת יכול להגיע ל-Builder.io.',
  retry: 'נסה שוב',
  emptyTitle: 'אין עדיין תוכן לעמוד הזה',
  emptyBefore: 'לא נמצא ב-Builder.io עמוד (מודל page) לנתיב ',
  emptyAfter: '. אפשר ליצור אותו בעורך של Builder.io.',
  openEditor: 'פתיחת העורך של Builder.io',
  notConfiguredTitle: 'העמוד עוד לא מחובר ל-Builder.io',
  notConfiguredAdmin:
    'כדי להציג כאן תוכן, הגדירו בשרת את מפתח ה-API הציבורי של מרחב ה-Builder.io שלכם: בקובץ התצורה בסעיף [builder] בשדה api_key, או במשתנה הסביבה MAILCLIENT_BUILDER_API_KEY, והפעילו את השרת מחדש.',
  notConfiguredUser: 'העמוד עוד לא הוגדר. מנהל המערכת יכול לחבר אותו ל-Builder.io.',
  previewBadge: 'מצב עריכה',
  previewBadgeHint: 'התצוגה מציגה את הגרסה העדכנית, בלי מטמון',
  formSending: 'שולח...',
  formSent: 'הטופס נשלח',
  formFailed: 'שליחת הטופס נכשלה',
} as const;
