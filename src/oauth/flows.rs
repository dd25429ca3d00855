//! Sign-in flows in progress, in memory: Microsoft's device code (RFC 8628) and Google's
//! authorization code with PKCE (RFC 7636, S256) and a state. Bounded: at most
//! [`MAX_PER_USER`] open flows per user (a new one replaces the oldest) and [`MAX_FLOWS`] in
//! all; each is pending at most until its expiry, and its end stays readable for [`GRACE`]
//! (then it is unknown). No timer drives them: the device flow asks the token
//! endpoint when the web polls its state, at most once per interval.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use sha2::{Digest, Sha256};

use crate::accounts::AuthKind;

/// Open flows of one user at most; a new one replaces the oldest.
pub const MAX_PER_USER: usize = 3;
/// Open flows in all (a server for a household).
pub const MAX_FLOWS: usize = 200;
/// How long an ended or expired flow can still be read (its state says "expired" rather than
/// the flow being unknown).
pub const GRACE: Duration = Duration::from_secs(5 * 60);
/// How long a Google flow waits for its code.
pub const GOOGLE_LIFETIME: Duration = Duration::from_secs(15 * 60);

#[derive(Debug, Clone, PartialEq)]
pub enum FlowState {
    Pending,
    Done,
    Expired,
    Denied,
    Failed(String),
}

pub enum FlowKind {
    Device {
        device_code: String,
        interval: Duration,
        /// The token endpoint is asked no earlier than this.
        next_poll: Instant,
    },
    Google {
        /// The `state` parameter (the callback finds its flow by it).
        state: String,
        /// The PKCE code verifier.
        verifier: String,
        redirect_uri: String,
    },
}

pub struct Flow {
    pub id: String,
    pub user_id: u64,
    pub email: String,
    pub provider: AuthKind,
    pub created: Instant,
    pub expires_at: Instant,
    pub state: FlowState,
    pub kind: FlowKind,
}

impl Flow {
    /// Marks a pending flow expired once its time is up.
    pub fn check_expiry(&mut self) {
        if self.state == FlowState::Pending && Instant::now() >= self.expires_at {
            self.state = FlowState::Expired;
        }
    }
}

pub type Shared = Arc<tokio::sync::Mutex<Flow>>;

struct Entry {
    user_id: u64,
    created: Instant,
    expires_at: Instant,
    /// Google's state, for the callback.
    state: Option<String>,
    flow: Shared,
}

#[derive(Default)]
pub struct Flows {
    open: Mutex<HashMap<String, Entry>>,
}

/// Too many flows are open on the server.
#[derive(Debug)]
pub struct TooMany;

impl Flows {
    /// Adds a flow; drops expired ones, and the user's oldest past [`MAX_PER_USER`].
    pub fn insert(&self, flow: Flow) -> Result<Shared, TooMany> {
        let mut open = self.open.lock().expect("oauth flows");
        let now = Instant::now();
        open.retain(|_, e| e.expires_at + GRACE > now);
        let mut mine: Vec<(Instant, String)> = open
            .iter()
            .filter(|(_, e)| e.user_id == flow.user_id)
            .map(|(k, e)| (e.created, k.clone()))
            .collect();
        mine.sort();
        while mine.len() >= MAX_PER_USER {
            let (_, oldest) = mine.remove(0);
            open.remove(&oldest);
        }
        if open.len() >= MAX_FLOWS {
            return Err(TooMany);
        }
        let state = match &flow.kind {
            FlowKind::Google { state, .. } => Some(state.clone()),
            FlowKind::Device { .. } => None,
        };
        let id = flow.id.clone();
        let entry = Entry {
            user_id: flow.user_id,
            created: flow.created,
            expires_at: flow.expires_at,
            state,
            flow: Arc::new(tokio::sync::Mutex::new(flow)),
        };
        let shared = entry.flow.clone();
        open.insert(id, entry);
        Ok(shared)
    }

    /// The flow `id` of `user_id` (another user's is not found).
    pub fn get(&self, user_id: u64, id: &str) -> Option<Shared> {
        let open = self.open.lock().expect("oauth flows");
        open.get(id)
            .filter(|e| e.user_id == user_id && e.expires_at + GRACE > Instant::now())
            .map(|e| e.flow.clone())
    }

    /// [`Self::get`], or the Hebrew 404 a flow that is not the user's (or gone) gets.
    pub fn of_user(&self, user_id: u64, id: &str) -> crate::error::Result<Shared> {
        self.get(user_id, id).ok_or_else(|| {
            crate::error::AppError::NotFound(crate::messages::OAUTH_FLOW_NOT_FOUND.into())
        })
    }

    /// The pending Google flow of `user_id` whose state is `state`: the browser Google sent
    /// back carries the state, and only the session of the user who started the flow may
    /// finish it (another user's flow is not found).
    pub fn by_state(&self, user_id: u64, state: &str) -> Option<Shared> {
        if state.is_empty() {
            return None;
        }
        let open = self.open.lock().expect("oauth flows");
        open.values()
            .find(|e| {
                e.user_id == user_id
                    && e.expires_at > Instant::now()
                    && e.state
                        .as_deref()
                        .is_some_and(|s| crate::auth::tokens::secrets_equal(s, state))
            })
            .map(|e| e.flow.clone())
    }

    pub fn len(&self) -> usize {
        self.open.lock().expect("oauth flows").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A random value for ids, states and verifiers: 32 bytes, base64url (43 characters).
pub fn random() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS random source works");
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The PKCE S256 challenge of `verifier`.
pub fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(user_id: u64, id: &str) -> Flow {
        Flow {
            id: id.into(),
            user_id,
            email: "a@example.test".into(),
            provider: AuthKind::Microsoft,
            created: Instant::now(),
            expires_at: Instant::now() + Duration::from_secs(60),
            state: FlowState::Pending,
            kind: FlowKind::Device {
                device_code: "d".into(),
                interval: Duration::from_secs(5),
                next_poll: Instant::now(),
            },
        }
    }

    #[test]
    fn a_user_keeps_at_most_three_flows_and_sees_only_their_own() {
        let flows = Flows::default();
        for i in 0..5 {
            flows.insert(flow(1, &format!("f{i}"))).unwrap();
            std::thread::sleep(Duration::from_millis(2));
        }
        flows.insert(flow(2, "other")).unwrap();
        assert_eq!(flows.len(), MAX_PER_USER + 1);
        assert!(flows.get(1, "f0").is_none() && flows.get(1, "f1").is_none());
        assert!(flows.get(1, "f4").is_some());
        assert!(flows.get(1, "other").is_none(), "another user's flow");
    }

    #[test]
    fn a_google_flow_is_found_by_its_state_only_for_its_user() {
        let flows = Flows::default();
        let mut google = flow(1, "g");
        google.kind = FlowKind::Google {
            state: "the-state".into(),
            verifier: "v".into(),
            redirect_uri: "r".into(),
        };
        flows.insert(google).unwrap();
        assert!(flows.by_state(1, "the-state").is_some());
        assert!(flows.by_state(2, "the-state").is_none(), "another user");
        assert!(flows.by_state(1, "other").is_none());
        assert!(flows.by_state(1, "").is_none());
    }

    #[test]
    fn pkce_challenge_is_rfc7636s_example() {
        // RFC 7636 appendix B.
        assert_eq!(
            challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
