//! The Anthropic Messages API (`POST /v1/messages`): the key in `x-api-key`, the API version in
//! `anthropic-version`, the system prompt as a top-level field, the answer as `content` blocks.

use serde_json::{Value, json};

use super::provider::{Ask, WireFormat, join};

/// The Messages API version this client speaks.
pub const API_VERSION: &str = "2023-06-01";

pub struct Anthropic;

impl WireFormat for Anthropic {
    fn url(&self, base_url: &str) -> String {
        join(base_url, "/v1/messages")
    }

    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)> {
        let mut h = vec![("anthropic-version", API_VERSION.to_string())];
        if let Some(key) = key {
            h.push(("x-api-key", key.to_string()));
        }
        h
    }

    fn body(&self, model: &str, ask: &Ask) -> Value {
        json!({
            "model": model,
            "max_tokens": ask.max_tokens,
            "system": ask.system,
            "messages": [{ "role": "user", "content": ask.user }],
            "temperature": ask.temperature,
        })
    }

    fn text_of(&self, answer: &Value) -> Option<String> {
        let blocks = answer.get("content")?.as_array()?;
        let text: String = blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect();
        Some(text)
    }

    fn error_message(&self, body: &Value) -> Option<String> {
        body.pointer("/error/message")
            .and_then(Value::as_str)
            .map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_is_the_messages_api() {
        let ask = Ask {
            system: "sys".into(),
            user: "שלום".into(),
            max_tokens: 300,
            temperature: 0.7,
        };
        let body = Anthropic.body("claude-x", &ask);
        assert_eq!(body["model"], "claude-x");
        assert_eq!(body["system"], "sys");
        assert_eq!(body["messages"][0]["role"], "user");
        assert_eq!(body["messages"][0]["content"], "שלום");
        assert_eq!(body["max_tokens"], 300);
        assert_eq!(
            Anthropic.url("https://api.anthropic.com/"),
            "https://api.anthropic.com/v1/messages"
        );
        assert!(
            Anthropic
                .headers(Some("k"))
                .contains(&("x-api-key", "k".into()))
        );
    }

    #[test]
    fn text_blocks_are_joined_and_errors_read() {
        let answer = json!({"content": [{"type": "text", "text": "א"}, {"type": "tool_use"}, {"type": "text", "text": "ב"}]});
        assert_eq!(Anthropic.text_of(&answer).as_deref(), Some("אב"));
        assert_eq!(Anthropic.text_of(&json!({"choices": []})), None);
        let err =
            json!({"type": "error", "error": {"type": "not_found_error", "message": "model: x"}});
        assert_eq!(Anthropic.error_message(&err).as_deref(), Some("model: x"));
    }
}
