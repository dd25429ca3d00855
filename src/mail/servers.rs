//! Where a mailbox's servers are: the IMAP and SMTP host, port and TLS, six fields that every
//! account record, connect request, settings backup, provider and `[oauth.*]` section names.
//! They are one struct, flattened (`#[serde(flatten)]`, `#[ts(flatten)]`) into each of those,
//! so the JSON on the wire and the records on disk keep their flat keys (`imap_server`, …).
//!
//! Two spellings exist on the wire: [`MailServers`] (`imap_server`: account records and
//! answers, settings, the config) and [`MailServersCamel`] (`imapServer`: the provider table
//! and the household's mail settings). One macro declares both from one list of fields.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::hosts::HostPolicy;
use super::net::Endpoint;

/// Declares [`MailServers`] and [`MailServersCamel`] with the same fields, and what they share.
macro_rules! mail_servers {
    ($($field:ident: $ty:ident,)*) => {
        /// Where a mailbox's servers are (keys in snake_case). `H` is the host's type: `String`,
        /// or `&'static str` in the built-in provider table. `*_ssl` is implicit TLS from the
        /// first byte (IMAPS 993, SMTPS 465); without it STARTTLS is used when offered.
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
        pub struct MailServers<H = String> {
            $(pub $field: $ty,)*
        }

        /// [`MailServers`] with its keys in camelCase (`imapServer`, …).
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
        #[serde(rename_all = "camelCase")]
        pub struct MailServersCamel<H = String> {
            $(pub $field: $ty,)*
        }

        impl<H> From<MailServers<H>> for MailServersCamel<H> {
            fn from(s: MailServers<H>) -> Self {
                Self { $($field: s.$field,)* }
            }
        }
    };
}

mail_servers! {
    imap_server: H,
    imap_port: u16,
    imap_ssl: bool,
    smtp_server: H,
    smtp_port: u16,
    smtp_ssl: bool,
}

impl<H> MailServersCamel<H> {
    /// The same servers with `f` applied to the hosts (the provider table's are `&'static str`).
    pub fn map_hosts<G>(self, f: impl Fn(H) -> G) -> MailServersCamel<G> {
        MailServersCamel {
            imap_server: f(self.imap_server),
            imap_port: self.imap_port,
            imap_ssl: self.imap_ssl,
            smtp_server: f(self.smtp_server),
            smtp_port: self.smtp_port,
            smtp_ssl: self.smtp_ssl,
        }
    }
}

/// Which of an account's two servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Imap,
    Smtp,
}

impl MailServers {
    /// Where to connect for `protocol`, with the certificate the user accepted (`pinned`).
    pub fn endpoint(
        &self,
        protocol: Protocol,
        pinned: Option<String>,
        timeout: Duration,
        hosts: &HostPolicy,
    ) -> Endpoint {
        let (host, port, ssl) = match protocol {
            Protocol::Imap => (&self.imap_server, self.imap_port, self.imap_ssl),
            Protocol::Smtp => (&self.smtp_server, self.smtp_port, self.smtp_ssl),
        };
        Endpoint {
            host: host.clone(),
            port,
            ssl,
            pinned_fingerprint: pinned,
            timeout,
            hosts: hosts.clone(),
        }
    }

    /// The same servers (host names compared without case).
    pub fn same_as(&self, other: &Self) -> bool {
        self.imap_server.eq_ignore_ascii_case(&other.imap_server)
            && self.imap_port == other.imap_port
            && self.imap_ssl == other.imap_ssl
            && self.smtp_server.eq_ignore_ascii_case(&other.smtp_server)
            && self.smtp_port == other.smtp_port
            && self.smtp_ssl == other.smtp_ssl
    }
}
