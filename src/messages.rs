//! Every Hebrew message the server returns to a user, in one place (the web app keeps its own
//! strings in `web/src/i18n/he.ts`). Wording follows the spec where it gives one.

/// Spec 000 §2/§8: wrong username or password.
pub const INVALID_CREDENTIALS: &str = "שם משתמש או סיסמה שגויים";
/// Spec 000 §6: server-backed action without a session.
pub const LOGIN_REQUIRED: &str = "עליך להתחבר תחילה";
/// Spec 000 §8: generic server failure.
pub const SERVER_ERROR: &str = "שגיאה בשרת";
pub const NOT_FOUND: &str = "הכתובת המבוקשת לא נמצאה";
pub const FORBIDDEN: &str = "אין לך הרשאה לפעולה זו";
pub const MALFORMED_JSON: &str = "גוף הבקשה אינו JSON תקין";
pub const UNSUPPORTED_MEDIA: &str = "יש לשלוח את הבקשה בפורמט JSON";
pub const BODY_TOO_LARGE: &str = "הבקשה גדולה מדי";
pub const CREDENTIALS_REQUIRED: &str = "נא למלא שם משתמש וסיסמה";
pub const SETUP_BAD_TOKEN: &str = "קישור ההגדרה הראשונית אינו תקף. השתמש בקישור שהודפס במסוף השרת.";
pub const SETUP_ALREADY_DONE: &str = "ההגדרה הראשונית כבר הושלמה. אפשר להתחבר.";
pub const PASSWORD_TOO_SHORT: &str = "הסיסמה חייבת להכיל לפחות 8 תווים";
pub const USERNAME_INVALID: &str =
    "שם המשתמש חייב להכיל 1 עד 64 תווים: אותיות באנגלית, ספרות והתווים . _ - @";
pub const NAME_TOO_LONG: &str = "השם ארוך מדי (עד 100 תווים)";
pub const USERNAME_TAKEN: &str = "שם המשתמש כבר קיים";

/// Spec-style throttling message, with the wait rounded up to whole minutes.
pub fn too_many_attempts(retry_after_secs: u64) -> String {
    let minutes = retry_after_secs.div_ceil(60).max(1);
    if minutes == 1 {
        "יותר מדי ניסיונות התחברות כושלים. נסה שוב בעוד דקה.".to_string()
    } else {
        format!("יותר מדי ניסיונות התחברות כושלים. נסה שוב בעוד {minutes} דקות.")
    }
}
pub const CANNOT_REMOVE_SELF: &str = "אי אפשר למחוק את המשתמש שאיתו אתה מחובר";
pub const LAST_ADMIN: &str = "חייב להישאר לפחות מנהל מערכת אחד";
pub const USER_NOT_FOUND: &str = "המשתמש לא נמצא";
pub const WRONG_CURRENT_PASSWORD: &str = "הסיסמה הנוכחית שגויה";
