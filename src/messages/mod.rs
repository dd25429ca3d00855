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
/// A request body that broke off or arrived too slowly (`[server] min_body_bytes_per_sec`).
pub const BODY_INCOMPLETE: &str = "הבקשה לא הגיעה בשלמותה או הגיעה לאט מדי. נסה שוב.";
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
/// A request that ran past `[server] request_timeout_secs`.
pub const REQUEST_TIMEOUT: &str = "הבקשה ארכה זמן רב מדי ובוטלה. נסה שוב.";
// Per-user rate limits (`[limits]`): what was asked too often, then [`try_again_in`].
pub const AI_CALLS_LIMITED: &str = "יותר מדי בקשות לעזרת AI.";
pub const SEARCHES_LIMITED: &str = "יותר מדי חיפושים.";
pub const REFRESHES_LIMITED: &str = "יותר מדי בקשות סנכרון.";
pub const MCP_CALLS_LIMITED: &str = "יותר מדי בקשות של סוכן (MCP).";
pub const RULE_RUNS_LIMITED: &str = "יותר מדי הרצות של כללים.";
pub const SPAM_DEBUG_LIMITED: &str = "יותר מדי בקשות להסבר בדיקת הספאם.";
pub const CONTACT_IMPORTS_LIMITED: &str = "יותר מדי ייבואים של אנשי קשר.";
pub const BUILDER_CALLS_LIMITED: &str = "יותר מדי שליחות טפסים ותצוגות מקדימות.";

/// The day's AI budget (`[limits] ai_per_day`) is spent; the next call is possible in `secs`.
pub fn ai_budget_spent(secs: u64) -> String {
    let when = match secs {
        0..=90 => "בעוד דקה".to_string(),
        91..=5_400 => format!("בעוד {} דקות", secs.div_ceil(60)),
        _ => format!("בעוד כ-{} שעות", secs.div_ceil(3600)),
    };
    format!(
        "מכסת בקשות ה-AI היומית שלך נוצלה (כולל עבודת רקע כמו בדיקת ספאם ותשובות אוטומטיות). אפשר לנסות שוב {when}."
    )
}
pub const BACKUPS_LIMITED: &str = "יותר מדי שמירות או שחזורים של גיבוי.";

/// "Try again in N seconds", after one of the rate-limit sentences.
pub fn try_again_in(what: &str, secs: u64) -> String {
    if secs <= 1 {
        format!("{what} נסה שוב בעוד שנייה.")
    } else {
        format!("{what} נסה שוב בעוד {secs} שניות.")
    }
}
pub const CANNOT_REMOVE_SELF: &str = "אי אפשר למחוק את המשתמש שאיתו אתה מחובר";
pub const LAST_ADMIN: &str = "חייב להישאר לפחות מנהל מערכת אחד";
pub const USER_NOT_FOUND: &str = "המשתמש לא נמצא";
pub const WRONG_CURRENT_PASSWORD: &str = "הסיסמה הנוכחית שגויה";

// Mailbox connection (spec 001 §8 for the ones it names).
pub const MAIL_AUTH_FAILED: &str = "שם המשתמש או הסיסמה של תיבת הדואר שגויים";
pub fn mail_unreachable(server: &str) -> String {
    format!("לא ניתן להתחבר לשרת {server}. בדוק את כתובת השרת והפורט.")
}
pub fn mail_tls_failed(server: &str) -> String {
    format!("החיבור המאובטח (SSL/TLS) לשרת {server} נכשל. בדוק את הפורט ואת הגדרת ה-SSL.")
}
pub fn mail_cert_untrusted(server: &str) -> String {
    format!(
        "תעודת האבטחה של השרת {server} אינה מוכרת. אם זה השרת שלך, בדוק את טביעת האצבע ואשר אותה."
    )
}
pub fn mail_timeout(server: &str) -> String {
    format!("השרת {server} לא הגיב בזמן. נסה שוב מאוחר יותר.")
}
pub fn mail_protocol(server: &str) -> String {
    format!("השרת {server} החזיר תשובה לא צפויה.")
}
/// The peer is not a mail server of that kind; what it said is never shown.
pub fn mail_not_mail_server(server: &str, protocol: &str) -> String {
    format!("השרת {server} לא ענה כמו שרת {protocol}. בדוק את כתובת השרת והפורט.")
}
/// `[mail] allowed_hosts` / `deny_private_ranges` refused the host.
pub fn mail_host_refused(host: &str) -> String {
    format!("החיבור לשרת {host} אינו מותר בהגדרות השרת. פנה למנהל המערכת.")
}
/// The IMAP server sent one response larger than the client keeps (`mail::imap_cap`).
pub fn mail_response_too_large(server: &str, limit_bytes: usize) -> String {
    let limit = if limit_bytes >= 1 << 20 {
        format!("{} MB", limit_bytes >> 20)
    } else {
        format!("{} KB", limit_bytes >> 10)
    };
    format!("השרת {server} שלח תשובה גדולה מדי (מעל {limit}). החיבור נותק כדי להגן על השרת.")
}
/// Connection tests (and mailbox logins) per user, beyond the token bucket.
pub fn too_many_connection_tests(retry_after_secs: u64) -> String {
    format!(
        "יותר מדי בדיקות חיבור לשרתי דואר. נסה שוב בעוד {} שניות.",
        retry_after_secs.max(1)
    )
}
/// A saved password goes only to the certificates it was saved with.
pub const MAIL_PASSWORD_REQUIRED_NEW_CERT: &str =
    "תעודת האבטחה של השרת השתנתה. נא להזין שוב את סיסמת תיבת הדואר.";
pub const MAIL_EMAIL_INVALID: &str = "כתובת המייל אינה תקינה";
pub const MAIL_PASSWORD_REQUIRED: &str = "נא להזין את סיסמת תיבת הדואר";
pub const MAIL_SERVER_REQUIRED: &str = "נא להזין שרת IMAP ושרת SMTP";
pub const MAIL_PORT_INVALID: &str = "מספר הפורט אינו תקין (1-65535)";
pub const MAIL_SERVER_INVALID: &str = "כתובת השרת אינה תקינה";
pub const MAIL_ACCOUNT_NOT_FOUND: &str = "חשבון הדואר לא נמצא";
/// `[mail] max_accounts_per_user` reached by a new mailbox.
pub fn mailboxes_full(max: usize) -> String {
    format!("אפשר לחבר עד {max} תיבות דואר למשתמש. נתקו תיבה אחרת לפני שתחברו חדשה.")
}
pub const MAIL_NOT_CONNECTED: &str = "לא מחובר לתיבת דואר. יש להתחבר בהגדרות.";
pub const MAIL_CONNECTED: &str = "החיבור לתיבת הדואר הצליח";
pub const MAIL_LOGGED_OUT: &str = "החשבון נותק והפרטים נמחקו מהשרת";
pub const EMAIL_NOT_FOUND: &str = "המייל לא נמצא";
/// A thread of a listing that no longer holds any of its mail.
pub const THREAD_NOT_FOUND: &str = "השיחה לא נמצאה בתיקייה הזו";
pub const ATTACHMENT_NOT_FOUND: &str = "הקובץ המצורף לא נמצא";
pub const FOLDER_UNKNOWN: &str = "תיקייה לא מוכרת";
pub const UNPARSED_MAIL_SUBJECT: &str = "(הודעה שלא ניתן לפענח – מוצגת כמו שהיא)";
pub const LIST_OPTION_INVALID: &str = "אפשרות סינון או מיון לא תקינה";
pub const STATUS_INVALID: &str = "סטטוס לא תקין";
pub const NO_TRASH_FOLDER: &str = "בתיבת הדואר אין תיקיית אשפה";
pub const BULK_ACTION_INVALID: &str = "פעולה לא תקינה";
pub const BULK_IDS_REQUIRED: &str = "לא נבחרו מיילים";
pub fn bulk_too_many(max: usize) -> String {
    format!("ניתן לבחור עד {max} מיילים בפעולה אחת")
}
pub const SENDER_ADDRESS_INVALID: &str = "כתובת השולח אינה תקינה";
pub const SESSION_ENDED: &str = "החיבור הסתיים. יש להתחבר מחדש.";
pub fn sync_failed_notice(address: &str, message: &str) -> String {
    format!("הסנכרון של {address} נעצר: {message}")
}

// Sending, drafts and the outbox (docs/API.md "Sending, drafts, outbox").
pub const COMPOSE_FIELDS_REQUIRED: &str = "אנא מלא את שדות הנמען, הנושא והתוכן";
pub const DRAFT_EMPTY: &str = "לא ניתן לשמור טיוטה ריקה";
pub const SCHEDULE_IN_PAST: &str = "מועד התזמון חלף";
pub const SCHEDULE_INVALID: &str = "מועד התזמון אינו תקין";
pub const UPLOAD_NOT_FOUND: &str = "קובץ מצורף לא נמצא";
pub const PRIORITY_INVALID: &str = "עדיפות לא תקינה";
pub const TOO_MANY_RECIPIENTS: &str = "יותר מדי נמענים (עד 100)";
pub const MAIL_QUEUED: &str = "המייל נשלח";
pub const MAIL_SCHEDULED: &str = "המייל תוזמן לשליחה";
pub const DRAFT_SAVED: &str = "הטיוטה נשמרה בתיבת הטיוטות";
pub const DRAFT_SAVED_LOCALLY: &str =
    "תיבת הדואר אינה זמינה כרגע: הטיוטה נשמרה בשרת ותועבר לתיבת הטיוטות כשתחזור";
pub const DRAFT_UPDATED: &str = "הטיוטה עודכנה בהצלחה";
pub const DRAFT_DELETED: &str = "הטיוטה נמחקה בהצלחה";
pub const DRAFT_SENT: &str = "התשובה נשלחה בהצלחה!";
pub const DRAFT_NOT_FOUND: &str = "הטיוטה לא נמצאה";
pub const OUTBOX_NOT_FOUND: &str = "המייל לא נמצא בדואר היוצא";
pub const ALREADY_SENT: &str = "המייל כבר נשלח";
pub const SENDING_NOW: &str = "המייל נשלח ברגע זה ולא ניתן לשנותו";
pub const TEMPLATE_NAME_REQUIRED: &str = "שם התבנית חסר";
pub const TEMPLATE_NOT_FOUND: &str = "התבנית לא נמצאה";
pub const MAILBOX_UNAVAILABLE: &str = "תיבת הדואר אינה זמינה כרגע. נסה שוב מאוחר יותר.";

pub fn address_invalid(address: &str) -> String {
    format!("כתובת מייל לא תקינה: {address}")
}

pub fn too_many_attachments(max: usize) -> String {
    format!("אפשר לצרף עד {max} קבצים להודעה אחת")
}
pub fn attachments_too_large(max_mb: u64) -> String {
    format!("הקבצים המצורפים גדולים מדי: עד {max_mb} MB בהודעה אחת")
}
pub fn upload_quota(max_mb: u64, max_files: usize) -> String {
    format!(
        "הגעת למכסת הקבצים הממתינים לשליחה ({max_files} קבצים או {max_mb} MB). שלח או מחק טיוטות עם קבצים ונסה שוב."
    )
}
pub fn attachment_too_large(max_mb: u64) -> String {
    format!("הקובץ גדול מדי (מקסימום {max_mb}MB)")
}

pub fn smtp_refused(reply: &str) -> String {
    format!("שרת הדואר סירב לשלוח את המייל: {reply}")
}
pub const SENT_COPY_PENDING: &str = "המייל נשלח; שמירת העותק בתיקיית 'נשלח' תנוסה שוב";

// ---- AI help (spec 000 §5, §8; docs/API.md "AI help") ----

/// Spec 000 §5: an AI call without a stored key.
pub const AI_KEY_MISSING: &str = "לא הוגדר מפתח API של Claude. אנא הגדר בהגדרות.";
/// Spec 000 §5 'write the email content first', in Hebrew.
pub const AI_BODY_REQUIRED: &str = "יש לכתוב קודם את תוכן המייל";
/// Spec 001 §5: smart compose needs non-blank text.
pub const AI_PROMPT_REQUIRED: &str = "יש לכתוב כמה מילים על המייל הרצוי";
pub const AI_KEY_BLANK: &str = "הזן מפתח API";
pub const AI_KEY_TOO_LONG: &str = "מפתח ה-API ארוך מדי";
/// Who saved the household's AI training when they have no mailbox (spec 001 §6).
pub const UNKNOWN_USER: &str = "משתמש לא ידוע";
pub const AI_PROVIDER_UNKNOWN: &str = "ספק AI לא מוכר (anthropic או openai)";
pub const AI_BASE_URL_INVALID: &str =
    "כתובת השרת של ספק ה-AI אינה תקינה (http:// או https://, בלי שם משתמש, סיסמה או פרמטרים)";
pub const AI_BASE_URL_ADMIN_ONLY: &str = "רק מנהל מערכת יכול לקבוע כתובת שרת AI אחרת";
pub const AI_MODEL_INVALID: &str = "שם המודל אינו תקין";
pub const AI_TONE_UNKNOWN: &str = "סגנון כתיבה לא מוכר";
pub const AI_LANGUAGE_UNKNOWN: &str = "שפה לא מוכרת";
pub const AI_CREATIVITY_RANGE: &str = "רמת היצירתיות צריכה להיות בין 0 ל-1";
pub const AI_MAX_LENGTH_RANGE: &str = "האורך המרבי צריך להיות בין 50 ל-5000 מילים";
pub const AI_TEMPLATE_NAME_REQUIRED: &str = "יש להזין שם לתבנית";
pub const AI_STYLE_UNKNOWN: &str = "סגנון שיפור לא מוכר (professional, friendly או concise)";
pub const AI_SETTINGS_TOO_LARGE: &str = "הגדרות האימון גדולות מדי";

/// Spec 000 §8: what each call says when it fails (the reason follows after a colon).
pub const AI_SMART_REPLY_FAILED: &str = "שגיאה ביצירת תשובה חכמה";
pub const AI_SUBJECT_FAILED: &str = "שגיאה ביצירת כותרת";
pub const AI_IMPROVE_FAILED: &str = "שגיאה בשיפור המייל";
pub const AI_SUMMARY_FAILED: &str = "שגיאה ביצירת סיכום";
pub const AI_REPLIES_FAILED: &str = "שגיאה ביצירת הצעות תשובה";
pub const AI_COMPOSE_FAILED: &str = "שגיאה בכתיבת המייל";

/// Why a provider call failed, for the user.
pub fn ai_key_refused(status: u16) -> String {
    format!("מפתח ה-API נדחה על ידי ספק ה-AI ({status}). בדוק את המפתח בהגדרות.")
}
pub const AI_RATE_LIMITED: &str = "ספק ה-AI מגביל כרגע את קצב הבקשות. נסה שוב בעוד כמה דקות.";
pub const AI_OVERLOADED: &str = "שירות ה-AI עמוס כרגע. נסה שוב מאוחר יותר.";
pub fn ai_provider_error(status: u16) -> String {
    format!("שירות ה-AI החזיר שגיאה ({status}). נסה שוב מאוחר יותר.")
}
pub fn ai_request_refused(status: u16, detail: &str) -> String {
    if detail.is_empty() {
        format!("ספק ה-AI דחה את הבקשה ({status}). בדוק את שם המודל והכתובת בהגדרות.")
    } else {
        format!("ספק ה-AI דחה את הבקשה ({status}): {detail}")
    }
}
pub fn ai_timeout(secs: u64) -> String {
    format!("שירות ה-AI לא ענה בזמן ({secs} שניות).")
}
pub fn ai_unreachable(base_url: &str) -> String {
    format!("לא ניתן להתחבר לשירות ה-AI בכתובת {base_url}.")
}
pub const AI_MALFORMED: &str = "שירות ה-AI החזיר תשובה לא תקינה. נסה שוב.";

/// Search (spec 001 §5: a search runs only with words or a filter).
pub const SEARCH_EMPTY: &str = "יש להקליד מילות חיפוש או לבחור מסנן";
pub const SEARCH_QUOTE: &str = "חסרות מרכאות סוגרות בחיפוש";
pub const SEARCH_PARENS: &str = "הסוגריים בחיפוש אינם מאוזנים";
pub const SEARCH_OR: &str = "צריך מילת חיפוש משני צדי OR";
pub const SEARCH_BAD_HAS: &str = "ערך לא מוכר אחרי has: (אפשר has:attachment)";
pub const SEARCH_BAD_IS: &str = "ערך לא מוכר אחרי is: (אפשר is:unread, is:read, is:starred)";
pub fn search_missing_value(op: &str) -> String {
    format!("חסר ערך אחרי {op}:")
}
pub fn search_bad_date(op: &str, value: &str) -> String {
    format!("התאריך אחרי {op}: אינו תקין: {value} (יש לכתוב dd/MM/yyyy או yyyy-mm-dd)")
}
pub const SEARCH_BAD_SORT: &str = "סדר התוצאות יכול להיות date או relevance";
pub fn search_bad_number(name: &str, min: i64, max: i64) -> String {
    format!("הערך של {name} צריך להיות מספר בין {min} ל-{max}")
}
pub fn search_too_long(max: usize) -> String {
    format!("החיפוש ארוך מדי (עד {max} תווים)")
}
pub const SEARCH_TOO_DEEP: &str = "יותר מדי סוגריים זה בתוך זה בחיפוש";
/// A local account (imported mail, `mailclient import`) has no mail server.
pub const LOCAL_ACCOUNT_NO_SERVER: &str = "זהו חשבון מקומי (דואר שיובא) ללא שרת דואר: לא ניתן לשלוח ממנו או לשמור בו טיוטות. חברו תיבת דואר בהגדרות.";
pub const LOCAL_ACCOUNT_ADDRESS_TAKEN: &str = "הכתובת משמשת חשבון מקומי של דואר שיובא. כדי לחבר אותה לשרת דואר, יש להסיר קודם את החשבון המקומי או לייבא לכתובת אחרת.";

// Settings sync (spec 001 §8 for the ones it names).
pub fn settings_key_unknown(key: &str) -> String {
    format!("הגדרה לא מוכרת: {key}")
}
pub fn settings_value_invalid(key: &str) -> String {
    format!("ערך לא תקין להגדרה {key}")
}
pub const SETTINGS_LANGUAGE_ONLY_HEBREW: &str = "שפת הממשק היחידה כרגע היא עברית (he)";
pub const SETTINGS_TIMEZONE_UNKNOWN: &str = "אזור זמן לא מוכר";
pub const SETTINGS_SCALE_RANGE: &str = "גודל התצוגה צריך להיות בין 0.5 ל-2";
pub const SETTINGS_UPDATE_NOT_OBJECT: &str = "עדכון ההגדרות צריך להיות אובייקט של מפתחות וערכים";
pub const SETTINGS_UPDATE_EMPTY: &str = "עדכון ההגדרות ריק";
pub const SETTINGS_UPDATE_TOO_LARGE: &str = "עדכון ההגדרות גדול מדי";
pub const SETTINGS_TYPE_INVALID: &str = "סוג הגדרות לא תקין (general, notifications או ui)";
pub const SETTINGS_BASE_VERSION_UNKNOWN: &str = "גרסת ההגדרות שצוינה אינה קיימת. טען את הדף מחדש.";
pub const SETTINGS_CONFLICT: &str = "ההגדרות שונו במקביל ממקום אחר. בחר אילו ערכים לשמור.";
pub const SETTINGS_HISTORY_LIMIT: &str = "מספר הרשומות בהיסטוריה צריך להיות בין 1 ל-200";
pub const SETTINGS_VERSION_NOT_FOUND: &str = "הגרסה לא נמצאה בהיסטוריה";
/// Spec 001 §8: rollback success.
pub const SETTINGS_RESTORED: &str = "ההגדרות שוחזרו בהצלחה";

// Settings backups with a master password, global settings (spec 001 §5, §8).
pub const SEARCH_PAGE_TOO_FAR: &str =
    "אפשר לדפדף עד 10,000 התוצאות הראשונות. צמצם את החיפוש (למשל לפי תאריך או תיקייה).";
pub const MASTER_PASSWORD_TOO_SHORT: &str = "סיסמת האב חייבת להכיל לפחות 8 תווים";
pub const BACKUP_NONE: &str = "אין הגדרות שמורות בשרת";
pub const BACKUP_WRONG_PASSWORD: &str = "סיסמת האב שגויה (או שהגיבוי שונה). דבר לא השתנה.";
pub const BACKUP_NOT_A_BACKUP: &str = "הקובץ אינו גיבוי הגדרות של mailclient";
/// A backup file whose key derivation asks for more than this version ever writes.
pub const BACKUP_TOO_COSTLY: &str =
    "הקובץ מבקש פרמטרי הצפנה כבדים מאלה שגרסה זו כותבת, ולכן לא נפתח. זה אינו גיבוי שנוצר כאן.";
pub const BACKUP_NEWER: &str =
    "הגיבוי נוצר בגרסה חדשה יותר של mailclient. עדכן את התוכנה ונסה שוב.";
pub const BACKUP_SAVED: &str = "ההגדרות נשמרו בשרת, מוצפנות בסיסמת האב";
pub const BACKUP_RESTORED: &str = "ההגדרות נטענו מהגיבוי";
pub fn backup_section_failed(section: &str) -> String {
    format!("שחזור החלק \"{section}\" של הגיבוי נכשל")
}
/// A restored backup's AI base URL, for a user who may not set one.
pub const RESTORED_AI_BASE_URL_SKIPPED: &str =
    "כתובת השרת של ספק ה-AI מהגיבוי לא שוחזרה: רק מנהל רשאי לקבוע אותה.";
/// A restored backup's mailbox that was connected with another install's household settings.
pub fn restored_household_mailbox_skipped(email: &str) -> String {
    format!(
        "תיבת הדואר {email} חוברה בהגדרות הגלובליות של הבית, והגיבוי אינו שומר את סיסמתן. \
         כאן אין הגדרות גלובליות לכתובת הזו: חברו אותה מחדש עם הסיסמה."
    )
}
/// Spec 001 §5: global save needs email and password.
pub const GLOBAL_EMAIL_REQUIRED: &str = "מלא אימייל וסיסמה לפני השמירה הגלובלית";
pub const GLOBAL_NONE: &str = "לא נשמרו הגדרות מייל גלובליות";
pub const GLOBAL_SAVED: &str = "ההגדרות הגלובליות נשמרו";
/// `changedBy` of preferences restored from a backup.
pub const RESTORED_FROM_BACKUP: &str = "שחזור מגיבוי";

// ---- auto-reply (spec 001 §8) ----
pub fn auto_reply_invalid(field: &str) -> String {
    format!("ערך לא תקין בהגדרות המענה האוטומטי: {field}")
}
pub fn auto_reply_unknown(field: &str) -> String {
    format!("הגדרת מענה אוטומטי לא מוכרת: {field}")
}
pub const AUTO_REPLY_KEY_MISSING: &str = "חסר מפתח API של AI, הזן מפתח לפני הפעלת המענה האוטומטי";
pub const AUTO_REPLY_CLEAR_FAILED: &str = "שגיאה בניקוי הרשימה, נסה מאוחר יותר";

// ---- contacts, tasks, rules ----
pub const CONTACT_REQUIRED: &str = "יש למלא שם וכתובת מייל";
pub const CONTACT_TOO_LONG: &str = "אחד השדות ארוך מדי";
pub const CONTACT_NOT_FOUND: &str = "איש הקשר לא נמצא";
pub const CONTACTS_FULL: &str = "הגעת למספר אנשי הקשר המרבי";
pub const VCARD_TOO_LARGE: &str = "קובץ ה-vCard גדול מדי (עד 5MB)";
pub const VCARD_EMPTY: &str = "לא נמצאו בקובץ אנשי קשר עם שם וכתובת מייל";
pub const TASK_TITLE_REQUIRED: &str = "יש למלא כותרת למשימה";
pub const TASK_DUE_INVALID: &str = "מועד היעד אינו תקין";
pub const TASK_NOT_FOUND: &str = "המשימה לא נמצאה";
pub const TASKS_FULL: &str = "הגעת למספר המשימות המרבי";
pub const TASK_FILTER_INVALID: &str = "מסנן לא מוכר (all, open, done או overdue)";
pub const FOLDER_NOT_FOUND: &str = "התיקייה לא נמצאה בתיבת הדואר";
pub const RULE_NAME_REQUIRED: &str = "יש למלא שם לכלל";
pub const RULE_NEEDS_CONDITION: &str = "כלל צריך לפחות תנאי אחד";
pub const RULE_NEEDS_ACTION: &str = "כלל צריך לפחות פעולה אחת";
pub const RULE_TOO_MANY: &str = "יותר מדי תנאים או פעולות בכלל (עד 20 מכל סוג)";
pub const RULE_VALUE_REQUIRED: &str = "לתנאי או לפעולה חסר ערך";
pub const RULE_VALUE_TOO_LONG: &str = "ערך ארוך מדי בכלל";
pub const RULE_SIZE_INVALID: &str = "גודל צריך להיות מספר שלם של KB";
pub const LABEL_NAME_REQUIRED: &str = "שם התווית חסר";
pub const LABEL_NAME_INVALID: &str = "שם התווית מכיל תווים שאינם מותרים";
pub const LABEL_NAME_TAKEN: &str = "כבר יש תווית בשם הזה";
pub const LABEL_COLOR_INVALID: &str = "צבע התווית צריך להיות בצורה ‎#rrggbb‎";
pub const LABEL_NOT_FOUND: &str = "התווית לא נמצאה";

pub fn label_name_too_long(max: usize) -> String {
    format!("שם התווית ארוך מדי (עד {max} תווים)")
}

pub fn labels_full(max: usize) -> String {
    format!("אפשר לשמור עד {max} תוויות")
}

pub fn restored_label_keyword(name: &str) -> String {
    format!("התווית '{name}' שוחזרה עם מילת מפתח חדשה: מיילים שסומנו בה קודם לא יוצגו איתה")
}
pub const RULE_FORWARD_INVALID: &str = "כתובת ההעברה אינה תקינה";
pub const RULE_FORWARD_OWN: &str = "אי אפשר להעביר לכתובת של תיבת הדואר עצמה";
/// A rule that forwards to an address the user has not confirmed (the form asks first).
pub fn rule_forward_confirm(to: &str) -> String {
    format!("יש לאשר את ההעברה האוטומטית לכתובת {to} לפני שמירת הכלל")
}
/// A restored rule's forward, waiting for the user.
pub fn restored_rule_forward_waits(rule: &str, to: &str) -> String {
    format!(
        "הכלל \"{rule}\" מעביר הודעות אל {to}: ההעברה תופעל רק אחרי שתאשרו את הכתובת בעריכת הכלל."
    )
}
// Why a rule did not forward a mail (its activity).
pub const RULE_FORWARD_UNCONFIRMED: &str =
    "לא הועבר: כתובת ההעברה עוד לא אושרה. ערכו את הכלל ואשרו אותה.";
pub const RULE_FORWARD_SKIPPED_OWN: &str = "לא הועבר: ההודעה נשלחה מכתובת שלך";
pub const RULE_FORWARD_SKIPPED_AUTOMATED: &str =
    "לא הועבר: ההודעה נשלחה או הועברה אוטומטית (כך נמנעת לולאת העברות)";
pub fn rule_forwards_capped(per_day: u32) -> String {
    format!("לא הועבר: הגעתם למכסה של {per_day} העברות אוטומטיות ביום")
}
pub const RULE_NOT_FOUND: &str = "הכלל לא נמצא";
pub const RULES_FULL: &str = "הגעת למספר הכללים המרבי";
pub const RULES_ORDER_INVALID: &str = "הסדר חייב למנות כל כלל פעם אחת";

// ---- spam detection ----
pub fn spam_invalid(field: &str) -> String {
    format!("ערך לא תקין בהגדרות זיהוי הספאם: {field}")
}
pub fn spam_unknown(field: &str) -> String {
    format!("הגדרת זיהוי ספאם לא מוכרת: {field}")
}
pub const SPAM_THRESHOLDS: &str = "ספי הספאם הם מספרים שלמים בין 1 ל-10";
pub const SPAM_THRESHOLD_ORDER: &str = "סף החשוד לא יכול להיות גבוה מסף הספאם";
pub const SPAM_AI_KEY_MISSING: &str = "זיהוי ספאם בעזרת AI דורש מפתח API של AI";
pub fn spam_pattern_invalid(line: usize) -> String {
    format!("ביטוי רגולרי לא תקין בשורה {line}")
}
pub const SPAM_PATTERNS_TOO_MANY: &str = "יותר מדי ביטויים רגולריים (עד 200, כל אחד עד 500 תווים)";
pub const SPAM_FOLDER_UNKNOWN: &str = "אפשר לסווג רק את תיבת הדואר הנכנס, ספאם או קידומי מכירות";
pub const SPAM_CLASSIFY_RUNNING: &str = "הסיווג כבר רץ, המתן לסיומו";
pub const SPAM_DETECTION_OFF: &str = "זיהוי הספאם כבוי. הפעל אותו בהגדרות";
pub const SPAM_DEBUG_FAILED: &str = "שגיאה בבדיקת המייל";
pub const SPAM_NOTICE: &str = "מייל זוהה כספאם והועבר לספאם";
pub const BUILDER_NOT_CONFIGURED: &str = "לא הוגדר מפתח API של Builder.io בשרת";
pub const BUILDER_PATH_INVALID: &str = "נתיב העמוד אינו תקין";
pub const BUILDER_UPSTREAM_STATUS: &str = "השירות החזיר שגיאה";
pub const BUILDER_UPSTREAM_TIMEOUT: &str = "השירות לא ענה בזמן";
pub const BUILDER_UPSTREAM_UNREACHABLE: &str = "אין חיבור לשירות";
pub const BUILDER_UPSTREAM_TOO_LARGE: &str = "התשובה מהשירות גדולה מדי";
pub const BUILDER_UPSTREAM_MALFORMED: &str = "התשובה מהשירות אינה תקינה";
pub const BUILDER_FORM_NOT_FOUND: &str = "הטופס לא נמצא בתוכן העמוד";
pub const BUILDER_FORM_NO_ACTION: &str = "לטופס לא הוגדרה כתובת שליחה";
pub const BUILDER_FORM_BAD_ACTION: &str = "כתובת השליחה של הטופס אינה תקינה";
pub const BUILDER_FORM_HOST_REFUSED: &str =
    "השרת אינו מורשה לשלוח לכתובת של הטופס (ראו [mail] allowed_hosts ו-deny_private_ranges)";
pub const BUILDER_FORM_CONTENT_TYPE: &str = "סוג התוכן של הטופס אינו נתמך";
pub const BUILDER_FORM_TOO_MANY_FIELDS: &str = "יותר מדי שדות בטופס";
pub const BUILDER_FORM_TOO_LARGE: &str = "הטופס גדול מדי";
/// A field name longer than `builder::form::MAX_KEY_BYTES`.
pub const BUILDER_FORM_KEY_TOO_LONG: &str = "שם של שדה בטופס ארוך מדי";
/// A dotted field name of more than `builder::form::MAX_KEY_DEPTH` parts.
pub const BUILDER_FORM_KEY_TOO_DEEP: &str = "שם של שדה בטופס מקונן לעומק רב מדי";
/// A field value that is not text, a number, true/false or empty.
pub const BUILDER_FORM_BAD_VALUE: &str = "ערך של שדה בטופס אינו תקין";
pub const BUILDER_FORM_BAD_EMAIL: &str = "כתובת הדואר של הטופס אינה תקינה";
pub const BUILDER_FORM_MAILED: &str = "הטופס נשלח בדואר מתיבת הדואר שלך";

// OAuth2 sign-in to Gmail and Microsoft mailboxes (issue 24).
pub const OAUTH_GOOGLE_NOT_CONFIGURED: &str = "ההתחברות עם Google לא הוגדרה בשרת. מנהל המערכת צריך להגדיר את [oauth.google] (ראו docs/OAUTH.md).";
pub const OAUTH_MICROSOFT_NOT_CONFIGURED: &str = "ההתחברות עם Microsoft לא הוגדרה בשרת. מנהל המערכת צריך להגדיר את [oauth.microsoft] (ראו docs/OAUTH.md).";
pub const OAUTH_FLOW_NOT_FOUND: &str = "תהליך ההתחברות לא נמצא או שפג תוקפו. יש להתחיל מחדש.";
/// Google sent a browser back with a sign-in this user did not start (or one that expired):
/// nothing is connected.
pub const OAUTH_NOT_YOUR_FLOW: &str = "תהליך ההתחברות הזה לא התחיל מהחשבון שלך, או שפג תוקפו. לא חובר שום חשבון. אם מישהו שלח לך קישור להתחברות, אל תאשר אותו.";
pub const OAUTH_TOO_MANY_FLOWS: &str =
    "יש יותר מדי תהליכי התחברות פתוחים בשרת. נסו שוב בעוד כמה דקות.";
pub const OAUTH_FLOW_EXPIRED: &str = "פג תוקף תהליך ההתחברות. יש להתחיל מחדש.";
pub const OAUTH_ACCESS_DENIED: &str =
    "ההתחברות בוטלה: לא ניתנה הרשאה לגשת לתיבת הדואר. אפשר לנסות שוב ולאשר את הגישה.";
pub const OAUTH_STATE_MISMATCH: &str = "הכתובת שהודבקה אינה שייכת לתהליך ההתחברות הזה. יש להעתיק את הכתובת המלאה מסרגל הכתובות של הלשונית שנפתחה, או להתחיל מחדש.";
pub const OAUTH_PASTE_INVALID: &str = "הכתובת שהודבקה אינה כתובת החזרה מ-Google. יש להעתיק את הכתובת המלאה מסרגל הכתובות (מתחילה ב-http://127.0.0.1).";
pub const OAUTH_NO_REFRESH_TOKEN: &str = "ספק הדואר לא החזיר הרשאה מתמשכת (refresh token). יש להסיר את הגישה של האפליקציה בחשבון ולהתחבר שוב.";
pub const OAUTH_MALFORMED: &str = "שרת ההרשאות החזיר תשובה לא תקינה.";
pub const OAUTH_SIGN_IN_NEEDED: &str =
    "ההרשאה לתיבת הדואר בוטלה או שפג תוקפה. הסנכרון הופסק: יש להתחבר מחדש בהגדרות.";
pub const OAUTH_WRONG_MAILBOX: &str =
    "ההרשאה שניתנה אינה של כתובת הדואר הזו. יש להתחבר עם החשבון של הכתובת שהוזנה.";

/// The provider's token endpoint could not be reached or did not answer in time.
pub fn oauth_unreachable(provider: &str) -> String {
    format!("לא ניתן להתחבר לשרת ההרשאות של {provider}. נסו שוב מאוחר יותר.")
}

/// The provider's token endpoint refused (its error code, in English, for the admin).
pub fn oauth_refused(provider: &str, code: &str) -> String {
    format!("שרת ההרשאות של {provider} דחה את הבקשה ({code}).")
}

// Meeting invitations (`/api/invites/*`).
pub const INVITE_NOT_FOUND: &str = "במייל הזה אין הזמנה לפגישה";
pub const INVITE_ANSWER_INVALID: &str = "יש לבחור תשובה: מגיע/ה, אולי או לא מגיע/ה";
pub const INVITE_COMMENT_TOO_LONG: &str = "ההערה ארוכה מדי (עד 500 תווים)";
pub const INVITE_CANCELLED: &str = "הפגישה בוטלה: אין צורך להשיב";
pub const INVITE_SUPERSEDED: &str = "הגיעה גרסה חדשה יותר של ההזמנה: יש להשיב עליה";
pub const INVITE_CANNOT_ANSWER: &str = "אי אפשר להשיב להזמנה הזו מכאן";
pub const INVITE_UNTITLED: &str = "פגישה";

// The agent API (`/mcp`, `/api/mcp/*`).
pub const MCP_TOKEN_INVALID: &str = "אסימון הגישה לסוכן אינו תקף או שבוטל";
pub const MCP_TOKEN_NAME_REQUIRED: &str = "יש לתת לאסימון שם";
pub const MCP_TOKEN_NAME_TOO_LONG: &str = "שם האסימון ארוך מדי (עד 60 תווים)";
pub const MCP_TOKEN_SCOPES_REQUIRED: &str = "יש לבחור לפחות הרשאה אחת";
pub const MCP_TOKENS_FULL: &str = "אפשר להחזיק עד 20 אסימונים פעילים. יש לבטל אסימון ישן קודם.";
pub const MCP_TOKEN_NOT_FOUND: &str = "האסימון לא נמצא";

// Snooze.
pub const SNOOZE_NOT_FOUND: &str = "הדחייה לא נמצאה";
pub const SNOOZES_FULL: &str = "הגעת למספר השיחות הדחויות המרבי";
pub const SNOOZE_NOT_IN_INBOX: &str = "אפשר לדחות רק שיחה שיש לה הודעה בתיבת הדואר הנכנס";
pub const SNOOZE_TIME_INVALID: &str = "מועד הדחייה אינו תקין";
pub const SNOOZE_IN_PAST: &str = "מועד הדחייה כבר עבר";
pub const SNOOZE_TOO_FAR: &str = "אפשר לדחות עד שנה קדימה";
pub const SNOOZE_LATE: &str = "כבר מאוחר מדי להיום: בחרו מחר או מועד אחר";
pub const SNOOZED: &str = "השיחה נדחתה";
pub const SNOOZE_WOKE: &str = "שיחה שנדחתה חזרה לתיבת הדואר הנכנס";
pub const SNOOZE_WOKE_BY_REPLY: &str = "הגיעה תשובה בשיחה שנדחתה: היא חזרה לתיבת הדואר הנכנס";
pub const SETTINGS_FOLLOW_UP_DAYS: &str = "מספר הימים להמתנה לתשובה חייב להיות בין 1 ל-60";
pub const SETTINGS_OFFLINE_MESSAGES: &str =
    "מספר המיילים שנשמרים לקריאה בלי חיבור חייב להיות מספר שלם בין 0 ל-2000";

// Follow-ups.
pub const FOLLOW_UP_NOT_FOUND: &str = "המעקב לא נמצא";
pub const FOLLOWUPS_FULL: &str = "הגעת למספר המרבי של הודעות במעקב";
pub const FOLLOW_UP_NOT_SENT: &str = "אפשר לעקוב רק אחרי הודעה שנשלחה";
pub const FOLLOW_UP_TIME_INVALID: &str = "מועד התזכורת אינו תקין";
pub const FOLLOW_UP_MARKED: &str = "ההודעה במעקב: תגיע תזכורת אם לא תתקבל תשובה";
pub const FOLLOW_UP_STOPPED: &str = "המעקב הופסק";
pub const FOLLOW_UP_DUE: &str = "לא התקבלה תשובה להודעה ששלחת";
pub const NUDGE_SAVED: &str = "טיוטת תזכורת נשמרה בטיוטות";

// Subscriptions.
pub const SUBSCRIPTION_NOT_FOUND: &str = "השולח לא נמצא ברשימת המינויים";
pub const SUBSCRIPTIONS_FULL: &str = "הגעת למספר השולחים המרבי ברשימת המינויים";
pub const UNSUBSCRIBE_NO_METHOD: &str = "השולח לא מציע דרך להסרה מרשימת התפוצה";
pub const UNSUBSCRIBE_BAD_URL: &str = "כתובת ההסרה אינה תקינה";
pub const UNSUBSCRIBE_NOT_HTTPS: &str = "הסרה בלחיצה אחת אפשרית רק בכתובת מאובטחת (https)";
pub const UNSUBSCRIBE_HOST_REFUSED: &str = "כתובת ההסרה מפנה לרשת פנימית ולכן נחסמה";
pub const UNSUBSCRIBE_UNREACHABLE: &str = "לא ניתן להגיע לשרת ההסרה של השולח";
pub const UNSUBSCRIBE_TIMEOUT: &str = "שרת ההסרה של השולח לא ענה בזמן";
pub const UNSUBSCRIBE_REDIRECT: &str = "שרת ההסרה ניסה להפנות לכתובת אחרת, וההפניה לא בוצעה";
pub const UNSUBSCRIBED: &str = "הוסרת מרשימת התפוצה";
pub const UNSUBSCRIBE_QUEUED: &str = "בקשת ההסרה נשלחת מתיבת הדואר שלך";
pub const UNSUBSCRIBE_OPEN: &str = "יש להשלים את ההסרה בדף ההסרה של השולח: הקישור מוצג בראש העמוד";
pub const UNSUBSCRIBE_FAILED: &str = "ההסרה נכשלה";
pub const SENDER_BLOCKED: &str = "השולח נחסם: נוצר כלל שאפשר לראות ולערוך בעמוד הכללים";

/// The endpoint answered with an error status.
pub fn unsubscribe_refused(status: u16) -> String {
    format!("שרת ההסרה של השולח השיב בשגיאה ({status})")
}

/// The name of the rule that blocks a sender.
pub fn subscription_rule_name(address: &str) -> String {
    format!("חסימת {address}")
}

/// How many of a sender's mails were archived.
pub fn sender_archived(n: usize) -> String {
    format!("{n} הודעות של השולח הועברו לארכיון")
}

// The user's own folders (src/folders/).
pub const FOLDER_NAME_REQUIRED: &str = "שם התיקייה חסר";
pub const FOLDER_NAME_INVALID: &str = "שם התיקייה מכיל תווים שאינם מותרים";
pub const FOLDER_NAME_TAKEN: &str = "כבר יש תיקייה בשם הזה במקום הזה";
pub const FOLDER_SPECIAL: &str =
    "אי אפשר לשנות או למחוק את התיקיות הקבועות (דואר נכנס, נשלח, טיוטות, אשפה, ספאם, ארכיון)";
pub const FOLDER_INTO_ITSELF: &str = "אי אפשר להעביר תיקייה לתוך עצמה או לתוך תיקייה שבתוכה";
pub const FOLDER_LOCAL_ACCOUNT: &str = "בתיבה מיובאת אין תיקיות בשרת לשנות";
pub const FOLDER_SERVER_REFUSED: &str = "שרת הדואר סירב לפעולה על התיקייה";
pub const FOLDER_SERVER_UNREACHABLE: &str =
    "לא ניתן להתחבר לשרת הדואר כדי לשנות את התיקייה. נסו שוב בעוד רגע";
pub const FOLDER_MOVE_EMPTY: &str = "לא נבחרו הודעות להעברה";

pub fn folder_name_too_long(max: usize) -> String {
    format!("שם התיקייה ארוך מדי (עד {max} תווים)")
}

pub fn folder_too_deep(max: usize) -> String {
    format!("אפשר לקנן תיקיות עד {max} רמות")
}

pub fn folders_too_many(max: usize) -> String {
    format!("אפשר עד {max} תיקיות בתיבת דואר")
}

pub fn folder_move_too_many(max: usize) -> String {
    format!("אפשר להעביר עד {max} הודעות בבת אחת")
}

mod push;
pub use push::*;
mod sync;
pub use sync::*;
