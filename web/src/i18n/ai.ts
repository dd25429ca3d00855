// The Hebrew strings of ai (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

// AI help (docs/API.md "AI help"). One section per screen family, each owned by its feature.
/** The reading pane's smart reply and the compose page's AI menu. */
export const heAi = {
  smartReply: 'תשובה חכמה',
  smartReplyHint: 'כתיבת טיוטת תשובה בעזרת AI (אפשר לערוך לפני השליחה)',
  smartReplyBusy: 'יוצר תשובה...',
  smartReplyFailed: 'שגיאה ביצירת תשובה חכמה',
  restoreText: 'החזרת הטקסט הקודם',
  restoreTextHint: 'התשובה החכמה החליפה את מה שכתבת; לחיצה מחזירה אותו',
  toSettings: 'להגדרות',
  menu: 'עזרת AI',
  menuHint: 'יצירת נושא ושיפור המייל בעזרת AI',
  menuBusy: 'ה-AI עובד...',
  generateSubject: 'יצירת נושא',
  improve: {
    professional: 'שיפור: מקצועי',
    friendly: 'שיפור: ידידותי',
    concise: 'שיפור: תמציתי',
  },
  bodyRequired: 'יש לכתוב קודם את תוכן המייל',
  subjectFailed: 'שגיאה ביצירת כותרת',
  improveFailed: 'שגיאה בשיפור המייל',
  improved: 'המייל שופר בעזרת AI.',
  undoImprove: 'ביטול השיפור',
  template: 'תבנית לתשובה החכמה',
  noTemplate: 'ללא תבנית',
} as const;
