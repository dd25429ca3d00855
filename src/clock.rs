//! The time as the API writes it.

/// Now, RFC 3339 in UTC (what every `timestamp`, `lastUpdated` and `createdAt` holds).
pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
