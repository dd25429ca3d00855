//! The Hebrew strings of a mailbox's sync status that are not failures the user must mend: a
//! provider slowing the sync down. In a file of their own so the messages stay under the size
//! limit; `crate::messages` re-exports them.

/// The provider throttles the mailbox (Outlook.com / Microsoft 365 `NO [THROTTLED]`): nothing to
/// fix, the sync goes on by itself.
pub const SYNC_THROTTLED: &str =
    "ספק הדואר מאט זמנית את הסנכרון של התיבה הזו. אין צורך לעשות דבר: הסנכרון יתחדש מעצמו.";
