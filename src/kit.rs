//! The small helpers every feature uses: the time as the store and the API write it, and a
//! string cut at a character boundary. (Store work on the blocking pool is
//! `AppState::blocking` and `AppState::store_blocking`.)

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Now, in Unix seconds (what the store keeps).
pub fn now() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

/// Now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Unix seconds as RFC 3339 in UTC (the epoch for a time out of range).
pub fn iso(ts: i64) -> String {
    OffsetDateTime::from_unix_timestamp(ts)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// Now, RFC 3339 in UTC (what every `timestamp`, `lastUpdated` and `createdAt` holds).
pub fn now_rfc3339() -> String {
    OffsetDateTime::now_utc()
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// `s` cut to at most `max` bytes, at a character boundary.
pub fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The entries of a list the user typed (addresses, `@domain`s, words): trimmed, without angle
/// brackets, lower-cased, split on commas, semicolons and lines.
pub fn entries(list: &str) -> Vec<String> {
    list.split([',', '\n', ';'])
        .map(|e| e.trim().trim_matches(['<', '>']).to_lowercase())
        .filter(|e| !e.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_keeps_whole_characters() {
        assert_eq!(cut("שלום", 3), "ש");
        assert_eq!(cut("abc", 10), "abc");
        assert_eq!(iso(0), "1970-01-01T00:00:00Z");
    }
}
