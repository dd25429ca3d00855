//! The Hebrew strings of push notifications (issue 39): the settings card's refusals and the
//! notifications' own titles. In a file of their own so the messages stay under the size limit;
//! `crate::messages` re-exports them.

pub const PUSH_OFF: &str = "התראות לטלפון ולמחשב אינן מופעלות בשרת הזה";
pub const PUSH_DEVICE_NOT_FOUND: &str = "המכשיר לא נמצא ברשימת המכשירים להתראות";
pub const PUSH_DEVICES_FULL: &str = "הגעת למספר המכשירים המרבי להתראות. הסירו מכשיר ישן ונסו שוב";
pub const PUSH_ENDPOINT_REFUSED: &str =
    "שירות ההתראות של הדפדפן הזה אינו ברשימת השירותים שהשרת מורשה לפנות אליהם";
pub const PUSH_KEYS_BAD: &str = "מפתחות ההצפנה של המכשיר אינם תקינים. נסו להפעיל את ההתראות מחדש";
pub const PUSH_QUIET_BAD: &str = "שעות השקט אינן תקינות: יש לבחור שעה בין 00:00 ל-23:59";
pub const PUSH_LABEL_TOO_LONG: &str = "שם המכשיר ארוך מדי (עד 80 תווים)";
pub const PUSH_TEST_FAILED: &str = "שירות ההתראות של הדפדפן לא קיבל את ההודעה. נסו שוב מאוחר יותר";
pub const PUSH_TEST_GONE: &str =
    "שירות ההתראות דיווח שהמינוי של המכשיר הזה פג, והמכשיר הוסר. הפעילו את ההתראות מחדש";
pub const PUSH_TEST_TITLE: &str = "בדיקת התראות";
pub const PUSH_TEST_BODY: &str = "ההתראות מהדואר מגיעות למכשיר הזה";
pub const PUSH_TASK_TITLE: &str = "תזכורת למשימה";
pub const PUSH_SEND_FAILED_TITLE: &str = "שליחה מתוזמנת נכשלה";
pub const PUSH_AUTO_REPLY_TITLE: &str = "טיוטת תשובה מוכנה";
pub const PUSH_NO_SUBJECT: &str = "(ללא נושא)";

/// The title of one notification for many new mails.
pub fn push_new_mails(n: usize) -> String {
    format!("{n} הודעות חדשות")
}

/// The title of the notification that sums up what quiet hours held.
pub fn push_held(n: u32) -> String {
    format!("{n} התראות בזמן השקט")
}
