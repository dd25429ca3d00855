//! The per-message index row: what listing, filtering, sorting, grouping into threads and
//! counting read without decoding a record. Stored in the `mail_index` table keyed by
//! (account, folder, date, message id).

use crate::mail::preview::cut;

/// The bits of an [`IndexRow`]: the IMAP flags the list needs, priority, and the status code.
pub mod flags {
    pub const SEEN: u16 = 1;
    pub const FLAGGED: u16 = 2;
    pub const HIDDEN: u16 = 4;
    pub const DRAFT: u16 = 8;
    pub const ANSWERED: u16 = 16;
    pub const ATTACHMENT: u16 = 32;
    pub const PRIORITY_HIGH: u16 = 64;
    pub const PRIORITY_URGENT: u16 = 128;
    pub const STATUS_SHIFT: u16 = 8;

    /// Status names in code order; 0 means none.
    pub const STATUSES: [&str; 7] = [
        "needs_reply",
        "processed",
        "unread",
        "info",
        "spam",
        "suspicious",
        "advertisement",
    ];

    pub fn status_code(status: Option<&str>) -> u16 {
        status
            .and_then(|s| STATUSES.iter().position(|x| *x == s))
            .map_or(0, |i| i as u16 + 1)
    }

    pub fn status_of(bits: u16) -> Option<&'static str> {
        let code = (bits >> STATUS_SHIFT) as usize;
        (code > 0 && code <= STATUSES.len()).then(|| STATUSES[code - 1])
    }

    pub fn priority_of(bits: u16) -> Option<&'static str> {
        if bits & PRIORITY_URGENT != 0 {
            Some("urgent")
        } else if bits & PRIORITY_HIGH != 0 {
            Some("high")
        } else {
            None
        }
    }
}

/// What the index keeps per message besides its key: flag bits, a hash of the thread key,
/// the last activity time, and short sort keys for sender and subject.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    pub bits: u16,
    pub thread: u64,
    pub activity: i64,
    pub sender: String,
    pub subject: String,
}

/// Sort keys are cut to this many bytes (at a character boundary): enough to order a list.
const SORT_KEY_BYTES: usize = 48;

impl IndexRow {
    pub fn encode(&self) -> Vec<u8> {
        let sender = cut(&self.sender, SORT_KEY_BYTES);
        let subject = cut(&self.subject, SORT_KEY_BYTES);
        let mut out = Vec::with_capacity(19 + sender.len() + subject.len());
        out.extend_from_slice(&self.bits.to_le_bytes());
        out.extend_from_slice(&self.thread.to_le_bytes());
        out.extend_from_slice(&self.activity.to_le_bytes());
        out.push(sender.len() as u8);
        out.extend_from_slice(sender.as_bytes());
        out.extend_from_slice(subject.as_bytes());
        out
    }
}

/// A borrowed view of an encoded [`IndexRow`], read in the listing loops without copying.
#[derive(Clone, Copy)]
pub struct IndexView<'a>(pub &'a [u8]);

impl<'a> IndexView<'a> {
    fn num<const N: usize>(&self, at: usize) -> [u8; N] {
        self.0
            .get(at..at + N)
            .and_then(|s| s.try_into().ok())
            .unwrap_or([0; N])
    }
    pub fn bits(&self) -> u16 {
        u16::from_le_bytes(self.num(0))
    }
    pub fn thread(&self) -> u64 {
        u64::from_le_bytes(self.num(2))
    }
    pub fn activity(&self) -> i64 {
        i64::from_le_bytes(self.num(10))
    }
    fn sender_len(&self) -> usize {
        self.0.get(18).copied().unwrap_or(0) as usize
    }
    pub fn sender(&self) -> &'a str {
        let end = (19 + self.sender_len()).min(self.0.len());
        std::str::from_utf8(self.0.get(19..end).unwrap_or_default()).unwrap_or("")
    }
    pub fn subject(&self) -> &'a str {
        let start = (19 + self.sender_len()).min(self.0.len());
        std::str::from_utf8(&self.0[start..]).unwrap_or("")
    }
}

/// FNV-1a: a stable 64-bit hash of a thread key (stored, so it must not change between builds
/// the way std's hasher may).
pub fn thread_hash(key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The index keys of one folder.
pub fn folder_range(account: u64, folder: &str) -> std::ops::RangeInclusive<(u64, &str, i64, u64)> {
    (account, folder, i64::MIN, 0)..=(account, folder, i64::MAX, u64::MAX)
}
