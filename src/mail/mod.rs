//! Talking to mail servers and understanding mail: TLS policy, IMAP and SMTP connections,
//! the provider table, parsing, previews, HTML sanitizing and thread keys. Stateless: the sync
//! engine (`crate::sync`) and the account routes (`crate::accounts`) use these.

#[cfg(test)]
mod hostile_tests;
pub mod hosts;
pub mod imap;
pub mod imap_cap;
pub mod mutf7;
pub mod net;
pub mod parse;
pub mod preview;
pub mod providers;
pub mod sanitize;
pub mod smtp;
#[cfg(test)]
mod smtp_tls_tests;
pub mod threading;
pub mod tls;
