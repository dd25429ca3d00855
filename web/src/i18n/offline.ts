// The Hebrew strings of offline reading that the first chunk needs (issue 39: the no-connection
// banner's and the status line's); the layer's and the conflicts dialog's are in offlineActions.ts,
// loaded with them. The same rules as he.ts.

import { count } from './count';

export const heOffline = {
  /** The no-connection banner's text when the mail kept in the browser is shown. */
  bannerText: 'מוצג הדואר שנשמר במכשיר. פעולות שתעשה יישלחו לשרת כשיחזור.',
  pending: (n: number) => (n === 1 ? 'פעולה אחת ממתינה לשרת.' : `${count(n)} פעולות ממתינות לשרת.`),
  problems: (n: number) =>
    n === 1 ? 'פעולה שעשית בלי חיבור לא הוחלה: המייל השתנה בינתיים במקום אחר.' : `${count(n)} פעולות שעשית בלי חיבור לא הוחלו: המיילים השתנו בינתיים במקום אחר.`,
  show: 'הצגה והחלטה',
} as const;
