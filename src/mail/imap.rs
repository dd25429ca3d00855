//! Opening an authenticated IMAP session: implicit TLS or STARTTLS, LOGIN, and the
//! classification of failures. The session reads through [`Capped`], so no response can make
//! it buffer more than `imap_cap`'s limits; a peer whose greeting is not IMAP's is told apart
//! without repeating what it said.

use async_imap::imap_proto::{Response, Status};
use async_imap::{Client, Session};

use super::Credential;
use super::imap_cap::{self, Capped};
use super::imap_stream::ImapStream;
use super::net::{
    Endpoint, FailureKind, MailError, MailStream, TlsAttempt, connect_tcp, with_deadline,
};
use super::tls::TlsContext;
use crate::messages;

pub type ImapSession = Session<Capped<ImapStream>>;
type ImapClient = Client<Capped<ImapStream>>;

/// Connects and logs in. The whole exchange, greeting to tagged OK, runs under the endpoint's
/// timeout.
pub async fn open(
    tls: &TlsContext,
    endpoint: &Endpoint,
    username: &str,
    password: &str,
) -> Result<ImapSession, MailError> {
    open_with(
        tls,
        endpoint,
        username,
        &Credential::Password(password.to_string()),
    )
    .await
}

/// SASL XOAUTH2 for async-imap: the initial response, then an empty answer to the server's
/// error challenge (RFC 7628 §3.2.3), after which the server says NO.
struct XOAuth2 {
    response: Option<String>,
}

impl async_imap::Authenticator for XOAuth2 {
    type Response = String;
    fn process(&mut self, _challenge: &[u8]) -> String {
        self.response.take().unwrap_or_default()
    }
}

/// Connects and signs in with `credential`: LOGIN with a password, AUTHENTICATE XOAUTH2 with an
/// access token.
pub async fn open_with(
    tls: &TlsContext,
    endpoint: &Endpoint,
    username: &str,
    credential: &Credential,
) -> Result<ImapSession, MailError> {
    let attempt = TlsAttempt::new(tls, endpoint)?;
    let tcp = connect_tcp(endpoint).await?;
    let capped = |s: MailStream| Capped::new(ImapStream::Plain(s), imap_cap::BEFORE_LOGIN);
    with_deadline(endpoint, "IMAP login", async {
        let client = if endpoint.ssl {
            let stream = attempt.handshake(tcp, endpoint).await?;
            let mut client = Client::new(capped(stream));
            greeting(&mut client, endpoint).await?;
            client
        } else {
            let mut client = Client::new(capped(MailStream::Plain(tcp)));
            greeting(&mut client, endpoint).await?;
            // SSL off means STARTTLS, which must succeed: only a server on this machine may
            // go without TLS.
            match client.run_command_and_check_ok("STARTTLS", None).await {
                Ok(()) => {
                    let ImapStream::Plain(MailStream::Plain(tcp)) =
                        client.into_inner().into_inner()
                    else {
                        unreachable!("the stream is plain before STARTTLS")
                    };
                    Client::new(capped(attempt.handshake(tcp, endpoint).await?))
                }
                Err(async_imap::error::Error::Bad(_) | async_imap::error::Error::No(_))
                    if endpoint.plaintext_allowed() =>
                {
                    client
                }
                Err(async_imap::error::Error::Bad(_) | async_imap::error::Error::No(_)) => {
                    return Err(endpoint.no_starttls());
                }
                Err(e) => return Err(io_or_protocol(endpoint, e)),
            }
        };
        let signed_in = match credential {
            Credential::Password(password) => client.login(username, password).await,
            Credential::XOAuth2(token) => {
                let auth = XOAuth2 {
                    response: Some(Credential::xoauth2_response(username, token)),
                };
                client.authenticate("XOAUTH2", auth).await
            }
        };
        match signed_in {
            Ok(mut session) => {
                session.get_mut().set_limits(imap_cap::SESSION);
                Ok(session)
            }
            Err((async_imap::error::Error::No(detail), _)) => {
                Err(refused_sign_in(endpoint, detail))
            }
            Err((e, _)) => Err(io_or_protocol(endpoint, e)),
        }
    })
    .await
}

/// A NO to LOGIN or AUTHENTICATE: a refused password, unless the provider is throttling the
/// mailbox (Outlook.com answers sign-ins `NO [THROTTLED]` too), which is no reason to ask the
/// user for a password: it is said as such (`throttled` tells it apart).
fn refused_sign_in(endpoint: &Endpoint, detail: String) -> MailError {
    if super::imap_ops::throttle_of(&detail).is_none() {
        return MailError::new(FailureKind::Auth, endpoint, detail);
    }
    let mut err = MailError::new(FailureKind::Unreachable, endpoint, detail);
    err.message = messages::SYNC_THROTTLED.into();
    err
}

/// A sign-in the provider throttled (`refused_sign_in`): how long it asked to wait.
pub fn throttled_sign_in(e: &MailError) -> Option<super::imap_ops::Throttle> {
    (e.kind == FailureKind::Unreachable)
        .then(|| super::imap_ops::throttle_of(&e.detail))
        .flatten()
}

/// The server's first words must be an untagged OK or PREAUTH: anything else is not an IMAP
/// server (an SSH, SMTP or FTP banner, an HTTP server), and what it said is not shown.
async fn greeting(client: &mut ImapClient, endpoint: &Endpoint) -> Result<(), MailError> {
    match client.read_response().await {
        Ok(Some(r)) => match r.parsed() {
            Response::Data {
                status: Status::Ok | Status::PreAuth,
                ..
            } => Ok(()),
            Response::Data {
                status: Status::Bye,
                ..
            } => Err(MailError::new(
                FailureKind::Unreachable,
                endpoint,
                "the server said BYE instead of a greeting",
            )),
            _ => Err(MailError::not_mail_server(endpoint, "IMAP")),
        },
        Ok(None) => Err(MailError::protocol(
            endpoint,
            "connection closed before the greeting",
        )),
        Err(e) if unparseable(&e) => Err(MailError::not_mail_server(endpoint, "IMAP")),
        Err(e) => Err(io_error(endpoint, e)),
    }
}

/// async-imap's parse failures are `io::Error::other` quoting the whole buffer.
fn unparseable(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::Other && e.to_string().contains("during parsing of")
}

/// An I/O failure: a capped read, a reply that could not be parsed (its bytes never shown), or
/// the network.
fn io_error(endpoint: &Endpoint, e: std::io::Error) -> MailError {
    if let Some(t) = imap_cap::too_large(&e) {
        return too_large(endpoint, t);
    }
    if unparseable(&e) {
        return MailError::protocol(endpoint, "the server's reply could not be parsed as IMAP");
    }
    MailError::new(FailureKind::Unreachable, endpoint, e.to_string())
}

pub fn io_or_protocol(endpoint: &Endpoint, e: async_imap::error::Error) -> MailError {
    match e {
        async_imap::error::Error::Io(io) => io_error(endpoint, io),
        async_imap::error::Error::ConnectionLost => {
            MailError::new(FailureKind::Unreachable, endpoint, "connection lost")
        }
        other => MailError::protocol(endpoint, other.to_string()),
    }
}

fn too_large(endpoint: &Endpoint, t: imap_cap::TooLarge) -> MailError {
    let mut err = MailError::protocol(endpoint, t.to_string());
    err.message =
        messages::mail_response_too_large(&format!("{}:{}", endpoint.host, endpoint.port), t.limit);
    err
}

/// A failure of an open session (the sync's, the outbox's) as the account should show it, when
/// it is one the user must hear about in words: a response past the cap.
pub fn session_error(endpoint: &Endpoint, e: &anyhow::Error) -> Option<MailError> {
    let t = e.chain().find_map(|cause| {
        let io = match cause.downcast_ref::<async_imap::error::Error>() {
            Some(async_imap::error::Error::Io(io)) => io,
            _ => cause.downcast_ref::<std::io::Error>()?,
        };
        imap_cap::too_large(io)
    })?;
    Some(too_large(endpoint, t))
}

/// The longest reply line `uid_search_compact` accepts: a sequence set lists ranges, so even
/// a folder of a million scattered UIDs stays well below this.
const MAX_REPLY_LINE: usize = 64 << 20;

/// `UID SEARCH RETURN (ALL) <criteria>` (ESEARCH, RFC 4731; only when the server advertises
/// it): the matching UIDs as the server's compact sequence set (`1:5,9,100:200`, empty when
/// none match). One short line for a folder of any size, where a plain SEARCH lists every UID.
///
/// async-imap cannot parse an ESEARCH reply (it would fail the connection), so the reply is
/// read here off the raw stream, up to and including the tagged status: between commands the
/// library holds no unread bytes, and the server sends nothing after the tagged status until
/// the next command. Untagged replies in between (EXISTS, FETCH of flags) are skipped; the sync
/// reads the real state anyway. NO and BAD come back as async-imap's `No` and `Bad`.
pub async fn uid_search_compact(
    session: &mut ImapSession,
    criteria: &str,
) -> Result<String, async_imap::error::Error> {
    let tag = session
        .run_command(format!("UID SEARCH RETURN (ALL) {criteria}"))
        .await?
        .0;
    let mut found: Vec<String> = Vec::new();
    raw_reply(session, &tag, "SEARCH", |rest| {
        if let Some(set) = esearch_all(rest, &tag) {
            found.push(set.to_string());
        }
    })
    .await?;
    Ok(found.join(","))
}

/// Gmail's ids of one message (X-GM-EXT-1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GmailIds {
    pub uid: u32,
    pub size: u32,
    pub msgid: u64,
    pub thrid: Option<u64>,
    /// Its user labels (X-GM-LABELS, see [`super::gmail_labels::user_labels`]); None when the line had none that
    /// could be read.
    pub labels: Option<Vec<String>>,
}

/// `UID FETCH <set> (UID RFC822.SIZE X-GM-MSGID X-GM-THRID X-GM-LABELS)` on Gmail
/// (X-GM-EXT-1). async-imap parses X-GM-MSGID but hands out no X-GM-THRID, so the reply
/// (numbers, and labels as atoms or quoted strings) is read here off the raw stream as
/// `uid_search_compact` reads its own; a line without a UID and an X-GM-MSGID (another
/// client's flag change) is skipped.
pub async fn uid_fetch_gmail_ids(
    session: &mut ImapSession,
    set: &str,
) -> Result<Vec<GmailIds>, async_imap::error::Error> {
    let tag = session
        .run_command(format!(
            "UID FETCH {set} (UID RFC822.SIZE X-GM-MSGID X-GM-THRID X-GM-LABELS)"
        ))
        .await?
        .0;
    let mut out = Vec::new();
    raw_reply(session, &tag, "FETCH", |rest| {
        if let Some(ids) = gmail_ids(rest) {
            out.push(ids);
        }
    })
    .await?;
    Ok(out)
}

/// The ids of an untagged FETCH reply (`rest` follows the `*`).
pub fn gmail_ids(rest: &str) -> Option<GmailIds> {
    if !rest.to_ascii_uppercase().contains(" FETCH ") {
        return None;
    }
    // The labels first, cut out of the line: a label named `Order UID 12` is no UID.
    const LABELS: &str = "X-GM-LABELS (";
    let (line, labels) = match rest.to_ascii_uppercase().find(LABELS) {
        Some(at) => {
            let from = at + LABELS.len();
            match super::gmail_labels::label_list(&rest[from..]) {
                Some((labels, len)) => (
                    format!("{}{}", &rest[..at], &rest[from + len..]),
                    Some(super::gmail_labels::user_labels(labels)),
                ),
                None => (rest[..at].to_string(), None),
            }
        }
        None => (rest.to_string(), None),
    };
    let upper = line.to_ascii_uppercase();
    let value = |name: &str| -> Option<u64> {
        let at = upper.find(&format!("{name} "))? + name.len() + 1;
        let digits: String = upper[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    Some(GmailIds {
        uid: u32::try_from(value("(UID").or_else(|| value(" UID"))?).ok()?,
        size: u32::try_from(value("RFC822.SIZE").unwrap_or(0)).unwrap_or(u32::MAX),
        msgid: value("X-GM-MSGID")?,
        thrid: value("X-GM-THRID"),
        labels,
    })
}

/// Reads the reply to the command tagged `tag` (`what` names it in errors) off the raw stream,
/// up to and including its tagged status, handing each untagged line (after the `*`) to
/// `untagged`. Between commands the library holds no unread bytes, and the server sends
/// nothing after the tagged status until the next command. NO and BAD come back as
/// async-imap's `No` and `Bad`.
async fn raw_reply(
    session: &mut ImapSession,
    tag: &str,
    what: &str,
    mut untagged: impl FnMut(&str),
) -> Result<(), async_imap::error::Error> {
    use async_imap::error::Error;
    let mut reader = RawLines::default();
    loop {
        let line = reader.next_line(session.get_mut()).await?;
        let text = String::from_utf8_lossy(&line);
        if let Some(rest) = text.strip_prefix('*') {
            untagged(rest);
            continue;
        }
        let Some((line_tag, rest)) = text.split_once(' ') else {
            continue;
        };
        if line_tag != tag {
            continue;
        }
        if reader.has_unread() {
            return Err(Error::Io(std::io::Error::other(format!(
                "unexpected data after the {what} reply"
            ))));
        }
        let (status, detail) = rest.split_once(' ').unwrap_or((rest, ""));
        return match status.to_ascii_uppercase().as_str() {
            "OK" => Ok(()),
            "NO" => Err(Error::No(detail.to_string())),
            "BAD" => Err(Error::Bad(detail.to_string())),
            _ => Err(Error::Io(std::io::Error::other(format!(
                "unexpected {what} status: {text}"
            )))),
        };
    }
}

/// The `ALL` sequence set of an untagged ESEARCH reply (`rest` follows the `*`) to the command
/// tagged `tag`; `Some("")` for an ESEARCH with no match, `None` for any other reply.
pub fn esearch_all<'a>(rest: &'a str, tag: &str) -> Option<&'a str> {
    let mut words = rest.split_ascii_whitespace();
    if !words.next()?.eq_ignore_ascii_case("ESEARCH") {
        return None;
    }
    let mut words = words.peekable();
    // The correlator, `(TAG "A5")`, names the command the reply belongs to.
    if words.peek().is_some_and(|w| w.starts_with('(')) {
        let mut correlator = Vec::new();
        for w in words.by_ref() {
            correlator.push(w);
            if w.ends_with(')') {
                break;
            }
        }
        let named = correlator.join(" ");
        let named = named.trim_start_matches('(').trim_end_matches(')');
        let value = named
            .split_once(' ')
            .filter(|(k, _)| k.eq_ignore_ascii_case("TAG"))
            .map(|(_, v)| v.trim().trim_matches('"'));
        if value.is_some_and(|v| v != tag) {
            return None;
        }
    }
    let mut all = "";
    while let Some(w) = words.next() {
        if w.eq_ignore_ascii_case("ALL") {
            all = words.next().unwrap_or("");
        }
    }
    Some(all)
}

/// Whole reply lines read off a raw stream, literals (`{n}` then n bytes) kept inside their
/// line.
#[derive(Default)]
struct RawLines {
    buf: Vec<u8>,
    /// Where to look for the current line's end: past any literal already taken in.
    scan: usize,
    /// Where the search for a line end continues: no CRLF starts before it.
    checked: usize,
}

impl RawLines {
    async fn next_line<R: tokio::io::AsyncRead + Unpin>(
        &mut self,
        stream: &mut R,
    ) -> Result<Vec<u8>, async_imap::error::Error> {
        use tokio::io::AsyncReadExt;
        loop {
            let from = self.scan.max(self.checked);
            match self.buf[from..]
                .windows(2)
                .position(|w| w == b"\r\n")
                .map(|p| from + p)
            {
                Some(at) => match literal_length(&self.buf[..at]) {
                    // The literal's bytes belong to the line; its end is after them.
                    Some(n) if self.buf.len() >= at + 2 + n => {
                        self.scan = at + 2 + n;
                        continue;
                    }
                    Some(_) => self.checked = at,
                    None => {
                        let line = self.buf[..at].to_vec();
                        self.buf.drain(..at + 2);
                        self.scan = 0;
                        self.checked = 0;
                        return Ok(line);
                    }
                },
                // Next time, look only at what arrives (and the byte before it).
                None => self.checked = self.buf.len().saturating_sub(1).max(from),
            }
            if self.buf.len() > MAX_REPLY_LINE {
                return Err(async_imap::error::Error::Io(std::io::Error::other(
                    "the server's SEARCH reply is too long",
                )));
            }
            let mut block = [0u8; 16 * 1024];
            let n = stream.read(&mut block).await?;
            if n == 0 {
                return Err(async_imap::error::Error::ConnectionLost);
            }
            self.buf.extend_from_slice(&block[..n]);
        }
    }

    fn has_unread(&self) -> bool {
        !self.buf.is_empty()
    }
}

/// `n` when a reply line so far ends with a literal announcement, `{n}` or `{n+}`.
fn literal_length(line: &[u8]) -> Option<usize> {
    let inner = line.strip_suffix(b"}")?;
    let open = inner.iter().rposition(|&b| b == b'{')?;
    let digits = &inner[open + 1..];
    let digits = digits.strip_suffix(b"+").unwrap_or(digits);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gmail_ids_are_read_from_a_fetch_line_and_flag_changes_are_skipped() {
        assert_eq!(
            gmail_ids(
                " 12 FETCH (UID 5 RFC822.SIZE 300 X-GM-MSGID 1278455344230334865 X-GM-THRID 1266894439832287888)"
            ),
            Some(GmailIds {
                uid: 5,
                size: 300,
                msgid: 1278455344230334865,
                thrid: Some(1266894439832287888),
                labels: None,
            })
        );
        assert_eq!(gmail_ids(" 3 FETCH (FLAGS (\\Seen) UID 9)"), None);
        assert_eq!(gmail_ids(" 3 EXISTS"), None);
    }

    #[test]
    fn gmail_labels_are_the_users_each_once_and_a_literal_is_not_guessed() {
        let line = " 4 FETCH (UID 7 X-GM-MSGID 11 X-GM-THRID 11 X-GM-LABELS (\\Inbox \\Important \
                    Receipts \"Muy \\\"Importante\\\"\" \"&BeIF0QXVBdMF1A-\" Receipts) RFC822.SIZE 9)";
        let ids = gmail_ids(line).expect("ids");
        assert_eq!(ids.size, 9);
        assert_eq!(
            ids.labels.as_deref(),
            Some(
                &[
                    "&BeIF0QXVBdMF1A-".to_string(),
                    "Muy \"Importante\"".into(),
                    "Receipts".into()
                ][..]
            )
        );
        let none = gmail_ids(" 4 FETCH (UID 7 X-GM-MSGID 11 X-GM-LABELS ())").unwrap();
        assert_eq!(none.labels, Some(vec![]));
        let literal = gmail_ids(" 4 FETCH (UID 7 X-GM-MSGID 11 X-GM-LABELS ({3}\r\nabc))").unwrap();
        assert_eq!(literal.labels, None);
        // A label's text is no attribute of the message.
        let tricky = gmail_ids(" 4 FETCH (X-GM-LABELS (\"Order UID 12\") UID 7 X-GM-MSGID 11)");
        let tricky = tricky.unwrap();
        assert_eq!(
            (tricky.uid, tricky.labels),
            (7, Some(vec!["Order UID 12".into()]))
        );
    }

    #[test]
    fn esearch_replies_give_their_all_set() {
        assert_eq!(
            esearch_all(" ESEARCH (TAG \"A7\") UID ALL 1:3,1000000:1000001", "A7"),
            Some("1:3,1000000:1000001")
        );
        assert_eq!(esearch_all(" ESEARCH (TAG \"A7\") UID", "A7"), Some(""));
        assert_eq!(
            esearch_all(" esearch UID COUNT 2 ALL 4,9 MAX 9", "A7"),
            Some("4,9")
        );
        // Another command's reply, or not an ESEARCH at all.
        assert_eq!(esearch_all(" ESEARCH (TAG \"A6\") UID ALL 5", "A7"), None);
        assert_eq!(esearch_all(" 3 EXISTS", "A7"), None);
        assert_eq!(esearch_all(" SEARCH 1 2 3", "A7"), None);
    }

    #[tokio::test]
    async fn raw_lines_keep_literals_inside_their_line() {
        let data: &[u8] =
            b"* 1 FETCH (BODY[] {5}\r\nab\r\nc)\r\n* ESEARCH UID ALL 1:2\r\nA1 OK done\r\n";
        let mut stream = data;
        let mut lines = RawLines::default();
        assert_eq!(
            lines.next_line(&mut stream).await.unwrap(),
            b"* 1 FETCH (BODY[] {5}\r\nab\r\nc)"
        );
        assert_eq!(
            lines.next_line(&mut stream).await.unwrap(),
            b"* ESEARCH UID ALL 1:2"
        );
        assert_eq!(lines.next_line(&mut stream).await.unwrap(), b"A1 OK done");
        assert!(!lines.has_unread());
        assert!(matches!(
            lines.next_line(&mut stream).await,
            Err(async_imap::error::Error::ConnectionLost)
        ));
        assert_eq!(literal_length(b"x {12+}"), Some(12));
        assert_eq!(literal_length(b"x {}"), None);
        assert_eq!(literal_length(b"x }"), None);
    }
}
