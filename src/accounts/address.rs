//! The spec's address rules for a mailbox login (spec 001 §5): an address that looks reversed
//! is flipped. Reversed means a known public domain on the left of the '@', or a dotted left
//! part with an undotted right part.

const PUBLIC_DOMAINS: &[&str] = &[
    "gmail.com",
    "gmail.co.il",
    "yahoo.com",
    "yahoo.co.il",
    "hotmail.com",
    "hotmail.co.il",
    "outlook.com",
    "outlook.co.il",
    "walla.com",
    "walla.co.il",
];

/// Trims, flips a reversed address, and lower-cases the domain.
pub fn normalize(input: &str) -> Option<String> {
    let input = input.trim();
    let (left, right) = input.rsplit_once('@')?;
    if left.is_empty() || right.is_empty() || left.contains('@') {
        return None;
    }
    let reversed = PUBLIC_DOMAINS.contains(&left.to_ascii_lowercase().as_str())
        || (left.contains('.') && !right.contains('.'));
    let (local, domain) = if reversed {
        (right, left)
    } else {
        (left, right)
    };
    let ok = |s: &str| !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control());
    if !ok(local) || !ok(domain) || !domain.contains('.') {
        return None;
    }
    Some(format!("{local}@{}", domain.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn flips_reversed_addresses() {
        assert_eq!(
            normalize("gmail.com@dana").as_deref(),
            Some("dana@gmail.com")
        );
        assert_eq!(
            normalize("walla.co.il@avi").as_deref(),
            Some("avi@walla.co.il")
        );
        assert_eq!(
            normalize("example.test@user1").as_deref(),
            Some("user1@example.test")
        );
        assert_eq!(
            normalize(" User1@Example.TEST ").as_deref(),
            Some("User1@example.test")
        );
        assert_eq!(
            normalize("first.last@home.example").as_deref(),
            Some("first.last@home.example")
        );
    }

    #[test]
    fn rejects_non_addresses() {
        for bad in ["", "no-at", "@x.com", "a@", "a b@x.com", "a@localhost"] {
            assert_eq!(normalize(bad), None, "{bad}");
        }
    }
}
