//! A language-model provider on loopback that speaks the real wire formats: the Anthropic
//! Messages API (`POST /v1/messages`) and OpenAI chat completions (`POST …/chat/completions`).
//! It records every request (path, headers, JSON body) so tests can check exactly what the
//! server sent, and answers either from a script (`push`) or, by default, with an answer that
//! fits the question (JSON for the structured calls, a subject line, a reply).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: Value,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }

    /// The system prompt, whichever the wire format.
    pub fn system(&self) -> String {
        if self.path.ends_with("/v1/messages") {
            self.body["system"].as_str().unwrap_or_default().to_string()
        } else {
            self.body["messages"][0]["content"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        }
    }

    /// The user message, whichever the wire format.
    pub fn user(&self) -> String {
        let messages = self.body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        messages
            .last()
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_string()
    }
}

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with this text in the provider's answer shape.
    Text(String),
    /// This status and JSON body (an error), with an optional Retry-After.
    Status(u16, Value, Option<u64>),
    /// 200 with a body that is not the provider's answer shape.
    Raw(String),
    /// Answers (by default) only after this long.
    Slow(Duration),
}

impl Reply {
    /// An Anthropic-shaped error answer.
    pub fn error(status: u16, kind: &str, message: &str, retry_after: Option<u64>) -> Self {
        Self::Status(
            status,
            json!({"type": "error", "error": {"type": kind, "message": message}}),
            retry_after,
        )
    }
}

#[derive(Default)]
struct Inner {
    requests: Vec<Recorded>,
    script: VecDeque<Reply>,
}

pub struct FakeLlm {
    /// `http://127.0.0.1:port` (add `/v1` for the OpenAI format).
    pub base: String,
    inner: Arc<Mutex<Inner>>,
}

impl FakeLlm {
    pub async fn start() -> Self {
        let inner: Arc<Mutex<Inner>> = Arc::default();
        let shared = inner.clone();
        let app = Router::new().fallback(move |uri: Uri, headers: HeaderMap, body: Bytes| {
            let inner = shared.clone();
            async move { answer(inner, uri, headers, body).await }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { base, inner }
    }

    pub fn push(&self, reply: Reply) {
        self.inner.lock().unwrap().script.push_back(reply);
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.inner.lock().unwrap().requests.clone()
    }

    pub fn last(&self) -> Recorded {
        self.requests().pop().expect("the provider got a request")
    }

    pub fn clear(&self) {
        let mut i = self.inner.lock().unwrap();
        i.requests.clear();
        i.script.clear();
    }
}

async fn answer(inner: Arc<Mutex<Inner>>, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let recorded = Recorded {
        path: uri.path().to_string(),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    v.to_str().unwrap_or_default().to_string(),
                )
            })
            .collect(),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let anthropic = recorded.path.ends_with("/v1/messages");
    let scripted = {
        let mut i = inner.lock().unwrap();
        i.requests.push(recorded.clone());
        i.script.pop_front()
    };
    let text = match scripted {
        Some(Reply::Text(t)) => t,
        Some(Reply::Status(status, body, retry_after)) => {
            let mut r = (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response();
            if let Some(s) = retry_after {
                r.headers_mut()
                    .insert("retry-after", s.to_string().parse().unwrap());
            }
            return r;
        }
        Some(Reply::Raw(raw)) => return (StatusCode::OK, raw).into_response(),
        Some(Reply::Slow(wait)) => {
            tokio::time::sleep(wait).await;
            fitting_answer(&recorded)
        }
        None => fitting_answer(&recorded),
    };
    let body = if anthropic {
        json!({
            "id": "msg_test", "type": "message", "role": "assistant",
            "model": recorded.body["model"],
            "content": [{ "type": "text", "text": text }],
            "stop_reason": "end_turn",
            "usage": { "input_tokens": 10, "output_tokens": 10 },
        })
    } else {
        json!({
            "id": "chatcmpl-test", "object": "chat.completion",
            "model": recorded.body["model"],
            "choices": [{ "index": 0, "message": { "role": "assistant", "content": text }, "finish_reason": "stop" }],
        })
    };
    axum::Json(body).into_response()
}

/// An answer that fits the question, in the language it asks for.
pub fn fitting_answer(r: &Recorded) -> String {
    let system = r.system();
    let english = system.contains("in English");
    if system.contains("\"awaits\"") {
        // Follow-ups: a mail that asks something awaits an answer.
        json!({"awaits": r.user().contains('?')}).to_string()
    } else if system.contains("\"summary\"") {
        json!({"summary": "דנה מבקשת לקבוע פגישה מחר בעשר ולאשר את סדר היום.", "sentiment": "positive", "priority": "high"}).to_string()
    } else if system.contains("\"replies\"") {
        json!({"replies": [
            {"label": "אישור", "text": "מצוין, נתראה מחר בעשר."},
            {"label": "בקשת פרטים", "text": "אשמח לדעת מה על סדר היום."},
            {"label": "דחייה", "text": "מחר לא מתאים לי, אפשר ביום שלישי?"}
        ]})
        .to_string()
    } else if system.contains("one subject line") {
        if english {
            "Team meeting on Sunday"
        } else {
            "פגישת צוות ביום ראשון"
        }
        .to_string()
    } else if system.contains("Rewrite") {
        "שלום רב,\n\nאשמח לקבוע פגישה מחר בשעה עשר.\n\nבברכה".to_string()
    } else if english {
        "Thanks, tomorrow at ten works for me.".to_string()
    } else {
        "תודה על ההודעה, מחר בעשר מתאים לי.\n\nבברכה".to_string()
    }
}
