// The Hebrew strings of the compose editor (features/compose/RichEditor, LinkPopover): apart from
// compose's (compose.ts), so the editor's chunk, which the pending replies page also loads, carries
// only these (issue 42). The same rules as he.ts.

/** The rich-text editor: its toolbar, the link box and the body's label. */
export const heEditor = {
  body: 'תוכן ההודעה',
  bodyPlaceholder: 'כתוב כאן את ההודעה...',
  toolbar: 'עיצוב טקסט',
  bold: 'מודגש',
  italic: 'נטוי',
  underline: 'קו תחתון',
  link: 'הוספת קישור',
  bullets: 'רשימת תבליטים',
  numbers: 'רשימה ממוספרת',
  quote: 'ציטוט',
  undo: 'ביטול הפעולה האחרונה',
  redo: 'ביצוע מחדש',
  alignRight: 'יישור לימין',
  alignCenter: 'מרכוז',
  alignLeft: 'יישור לשמאל',
  direction: 'כיוון משמאל לימין (לפסקה הנוכחית)',
  linkUrl: 'כתובת הקישור',
  linkPlaceholder: 'https://',
  linkApply: 'הוספה',
  linkCancel: 'ביטול',
  linkInvalid: 'הקישור חייב להתחיל ב-http://‏, https://‏ או mailto:',
} as const;
