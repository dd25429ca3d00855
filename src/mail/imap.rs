//! Opening an authenticated IMAP session: implicit TLS or STARTTLS, LOGIN, and the
//! classification of failures.

use async_imap::{Client, Session};

use super::net::{
    Endpoint, FailureKind, MailError, MailStream, TlsAttempt, connect_tcp, with_deadline,
};
use super::tls::TlsContext;

pub type ImapSession = Session<MailStream>;

/// Connects and logs in. The whole exchange, greeting to tagged OK, runs under the endpoint's
/// timeout.
pub async fn open(
    tls: &TlsContext,
    endpoint: &Endpoint,
    username: &str,
    password: &str,
) -> Result<ImapSession, MailError> {
    let attempt = TlsAttempt::new(tls, endpoint)?;
    let tcp = connect_tcp(endpoint).await?;
    with_deadline(endpoint, "IMAP login", async {
        let client = if endpoint.ssl {
            let stream = attempt.handshake(tcp, endpoint).await?;
            let mut client = Client::new(stream);
            greeting(&mut client, endpoint).await?;
            client
        } else {
            let mut client = Client::new(MailStream::Plain(tcp));
            greeting(&mut client, endpoint).await?;
            // SSL off means STARTTLS, which must succeed: only a server on this machine may
            // go without TLS.
            match client.run_command_and_check_ok("STARTTLS", None).await {
                Ok(()) => {
                    let MailStream::Plain(tcp) = client.into_inner() else {
                        unreachable!("the stream is plain before STARTTLS")
                    };
                    Client::new(attempt.handshake(tcp, endpoint).await?)
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
        match client.login(username, password).await {
            Ok(session) => Ok(session),
            Err((async_imap::error::Error::No(detail), _)) => {
                Err(MailError::new(FailureKind::Auth, endpoint, detail))
            }
            Err((e, _)) => Err(io_or_protocol(endpoint, e)),
        }
    })
    .await
}

async fn greeting(client: &mut Client<MailStream>, endpoint: &Endpoint) -> Result<(), MailError> {
    match client.read_response().await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(MailError::protocol(
            endpoint,
            "connection closed before the greeting",
        )),
        Err(e) => Err(MailError::new(
            FailureKind::Unreachable,
            endpoint,
            e.to_string(),
        )),
    }
}

pub fn io_or_protocol(endpoint: &Endpoint, e: async_imap::error::Error) -> MailError {
    match e {
        async_imap::error::Error::Io(io) => {
            MailError::new(FailureKind::Unreachable, endpoint, io.to_string())
        }
        async_imap::error::Error::ConnectionLost => {
            MailError::new(FailureKind::Unreachable, endpoint, "connection lost")
        }
        other => MailError::protocol(endpoint, other.to_string()),
    }
}
