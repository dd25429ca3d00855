// The Hebrew strings of aiSettings (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

/** Settings: the provider key, provider, model and base URL. */
export const heAiSettings = {
  title: 'עזרת AI',
  intro:
    'עזרת ה-AI (תשובה חכמה, שיפור מייל, יצירת כותרת ותכונות חכמות) פועלת דרך ספק לבחירתך: Anthropic עם מפתח API משלך, או שרת תואם OpenAI, גם מודל מקומי ברשת שלך.',
  privacy:
    'מה נשלח לספק: תוכן המייל שעליו ביקשת עזרה (בתשובה חכמה, אם בחרת בכך, גם ההודעות הקודמות בשרשור) וההנחיות מדף אימון ה-AI. עם מודל מקומי המידע נשאר ברשת שלך.',
  keyTitle: 'מפתח API',
  keyLabel: 'מפתח API',
  keyPlaceholder: 'sk-ant-…',
  keyHint: 'המפתח נשמר מוצפן בשרת הזה ולא יוצג שוב. הוא נשמר גם כשיוצאים מהשדה.',
  keyOptional: 'הספק שנבחר אינו דורש מפתח (למשל מודל מקומי), ולכן המפתח אופציונלי. אם נשמר מפתח, הוא יישלח לשרת.',
  keySave: 'שמור מפתח',
  keySaving: 'שומר...',
  keySaved: 'מפתח ה-API נשמר',
  keyStored: 'מפתח API שמור',
  keyMissing: 'לא נשמר מפתח API',
  keyHousehold: 'אין לך מפתח משלך: משמש מפתח ה-AI של משק הבית, שהגדיר מנהל המערכת.',
  keyChecking: 'בודק אם נשמר מפתח API...',
  keyCheckFailed: 'לא ניתן לבדוק אם נשמר מפתח API.',
  keyDelete: 'מחק מפתח',
  keyDeleteTitle: 'מחיקת מפתח ה-API',
  keyDeleteQuestion: 'למחוק את מפתח ה-API השמור?',
  keyDeleteExplain: 'עזרת ה-AI דרך Anthropic לא תפעל עד שיישמר מפתח חדש.',
  keyDeleteYes: 'מחק',
  keyDeleteNo: 'ביטול',
  keyDeleted: 'מפתח ה-API נמחק',
  keyElsewhere: 'המפתח השמור שייך לספק או לכתובת אחרים — יש להזין מפתח עבור ההגדרה הנוכחית.',
  providerTitle: 'ספק ומודל',
  provider: 'ספק AI',
  providers: {
    anthropic: 'Anthropic (Claude)',
    openai: 'שרת תואם OpenAI (Ollama, llama.cpp, vLLM)',
  } as Record<string, string>,
  model: 'מודל',
  baseUrl: 'כתובת השרת',
  baseUrlAdminOnly: 'רק מנהל מערכת יכול לשנות את כתובת השרת.',
  defaultsHint: 'שדה ריק = ברירת המחדל של השרת (מוצגת בשדה).',
  localExample: 'למודל מקומי ב-Ollama: http://127.0.0.1:11434/v1',
  save: 'שמור',
  saving: 'שומר...',
  saved: 'הגדרות ספק ה-AI נשמרו',
  effective: 'בשימוש כעת:',
  loading: 'טוען את הגדרות ה-AI...',
  loadFailed: 'לא ניתן לטעון את הגדרות ה-AI.',
} as const;
