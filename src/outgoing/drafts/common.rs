//! What the drafts' operations share: the ids of drafts waiting in the outbox, the queued send
//! a draft in Drafts is the copy of, and the reply subject.

use crate::error::Result;
use crate::outgoing::outbox::{self, Item, Kind, MailboxRef};
use crate::store::Store;

/// Local-only drafts (waiting in the outbox) have ids like this.
pub(super) const OUTBOX_PREFIX: &str = "outbox-";

/// "Re: " unless the subject already has it (spec 000 §5).
pub fn reply_subject(subject: &str) -> String {
    let s = subject.trim();
    if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:")) {
        s.to_string()
    } else {
        format!("Re: {s}")
    }
}

/// The queued send whose copy in Drafts is at `place` (a scheduled mail, a draft being sent).
pub(super) fn send_of(
    store: &Store,
    user_id: u64,
    account_id: u64,
    place: &MailboxRef,
) -> Result<Option<Item>> {
    Ok(outbox::list(store, user_id)?.into_iter().find(|i| {
        i.kind == Kind::Send
            && i.account_id == account_id
            && i.draft_copy.as_ref().is_some_and(|r| same_place(r, place))
    }))
}

pub(super) fn same_place(a: &MailboxRef, b: &MailboxRef) -> bool {
    a.folder == b.folder && a.uid == b.uid && a.uidvalidity == b.uidvalidity
}

#[cfg(test)]
mod tests {
    use super::reply_subject;

    #[test]
    fn re_is_added_once() {
        assert_eq!(reply_subject("פגישה"), "Re: פגישה");
        assert_eq!(reply_subject("RE: פגישה"), "RE: פגישה");
        assert_eq!(reply_subject("re:x"), "re:x");
    }
}
