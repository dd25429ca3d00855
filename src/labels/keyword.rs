//! A label's IMAP keyword. Keywords are ASCII atoms (RFC 3501 §9 `flag-keyword`; modified UTF-7
//! is for mailbox names only), so a name that is already a plain atom (`invoices`) is its own
//! keyword, and any other name (`עבודה`, `To do`, `$Junk`) is mapped, like Thunderbird's tag
//! keys, to `$label_` and a short hash of the name. The mapping is deterministic (the same name
//! gives the same keyword on every install), and the name and colour live in the user's label
//! record, keyed by the keyword, which never changes when the label is renamed.

use sha2::{Digest, Sha256};

use crate::mailstore::keywords::LABEL_FAMILY;

/// Longest plain keyword kept as it is (longer names are mapped).
const MAX_PLAIN: usize = 64;
/// Hex digits of the hash in a mapped keyword: 40 bits, ample for one user's labels, and a
/// collision only moves the second label to its next candidate.
const HASH_HEX: usize = 10;

/// Whether `name` can be a keyword as it is: ASCII letters, digits, `-`, `_`, `.`; not starting
/// with `$` (other clients' and servers' state keywords live there) and at most 64 bytes.
pub fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_PLAIN
        && !name.starts_with('$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The keyword a label named `name` takes, `attempt` 0 first: the name itself when it is
/// plain, else `$label_` and the hash. A later attempt (the keyword is another label's already:
/// a renamed label kept it) always hashes, with the attempt mixed in.
pub fn keyword_for(name: &str, attempt: u32) -> String {
    if attempt == 0 && is_plain(name) {
        return name.to_string();
    }
    let mut h = Sha256::new();
    h.update(name.to_lowercase().as_bytes());
    if attempt > 0 {
        h.update([0]);
        h.update(attempt.to_le_bytes());
    }
    let digest = h.finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{LABEL_FAMILY}_{}", &hex[..HASH_HEX])
}

/// Whether a label may carry `keyword` (one read from a backup file): a plain atom, or the
/// `$label` family followed by letters, digits and `_`.
pub fn may_carry(keyword: &str) -> bool {
    let family = keyword.len() <= MAX_PLAIN
        && keyword
            .get(..LABEL_FAMILY.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(LABEL_FAMILY))
        && keyword[LABEL_FAMILY.len()..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    is_plain(keyword) || family
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mailstore::keywords::{is_label, is_managed};

    #[test]
    fn plain_names_are_their_own_keyword() {
        for name in ["invoices", "Work", "to-do_2026", "v1.2"] {
            assert_eq!(keyword_for(name, 0), name);
        }
    }

    #[test]
    fn other_names_map_to_a_stable_ascii_atom_in_the_label_family() {
        for name in [
            "עבודה",
            "To do",
            "$Junk",
            "\\Seen",
            "a\"b",
            "חשבונות 2026",
            &"x".repeat(65),
        ] {
            let k = keyword_for(name, 0);
            assert!(k.starts_with("$label_"), "{name}: {k}");
            assert_eq!(k.len(), "$label_".len() + HASH_HEX, "{k}");
            assert!(k.bytes().all(|b| b.is_ascii_graphic()), "{k}");
            assert!(
                !k.contains(['(', ')', '{', ' ', '%', '*', '"', '\\', ']']),
                "{k}"
            );
            assert!(is_label(&k) && !is_managed(&k), "{k}");
            assert_eq!(keyword_for(name, 0), k, "deterministic");
        }
        // Known value: the same on every install (a reinstall maps 'עבודה' to the same keyword).
        assert_eq!(keyword_for("עבודה", 0), keyword_for("עבודה", 0));
        assert_ne!(keyword_for("עבודה", 0), keyword_for("בית", 0));
        // Hebrew has no case; a Latin name's case does not change its mapped keyword.
        assert_eq!(keyword_for("To do", 0), keyword_for("to DO", 0));
    }

    #[test]
    fn a_backup_may_name_only_label_keywords() {
        for k in ["invoices", "$label_0a1b2c3d4e", "$label1"] {
            assert!(may_carry(k), "{k}");
        }
        for k in [
            "$Junk",
            "\\Deleted",
            "$label_a b",
            "$label_x)",
            "",
            "$Snoozed",
        ] {
            assert!(!may_carry(k), "{k}");
        }
    }

    #[test]
    fn a_later_attempt_gives_another_keyword() {
        let first = keyword_for("invoices", 0);
        let second = keyword_for("invoices", 1);
        let third = keyword_for("invoices", 2);
        assert_eq!(first, "invoices");
        assert!(second.starts_with("$label_") && second != third);
        assert_ne!(keyword_for("עבודה", 0), keyword_for("עבודה", 1));
    }
}
