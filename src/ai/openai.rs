//! OpenAI-compatible chat completions (`POST <base>/chat/completions`), as served by Ollama,
//! llama.cpp's server, vLLM and OpenAI: an optional `Authorization: Bearer` key, the system
//! prompt as the first message, the answer in `choices[0].message.content`.

use serde_json::{Value, json};

use super::provider::{Ask, WireFormat, join};

pub struct OpenAi;

impl WireFormat for OpenAi {
    fn url(&self, base_url: &str) -> String {
        join(base_url, "/chat/completions")
    }

    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)> {
        key.map(|k| vec![("authorization", format!("Bearer {k}"))])
            .unwrap_or_default()
    }

    fn body(&self, model: &str, ask: &Ask) -> Value {
        json!({
            "model": model,
            "messages": [
                { "role": "system", "content": ask.system },
                { "role": "user", "content": ask.user },
            ],
            "max_tokens": ask.max_tokens,
            "temperature": ask.temperature,
            "stream": false,
        })
    }

    fn text_of(&self, answer: &Value) -> Option<String> {
        answer
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    fn error_message(&self, body: &Value) -> Option<String> {
        // OpenAI: {"error": {"message"}}; Ollama and llama.cpp: {"error": "text"} or the same.
        body.pointer("/error/message")
            .or_else(|| body.get("error"))
            .and_then(Value::as_str)
            .map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_is_chat_completions() {
        let ask = Ask {
            system: "sys".into(),
            user: "hi".into(),
            max_tokens: 50,
            temperature: 0.2,
        };
        let body = OpenAi.body("llama3.1", &ask);
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1]["content"], "hi");
        assert_eq!(
            OpenAi.url("http://127.0.0.1:11434/v1"),
            "http://127.0.0.1:11434/v1/chat/completions"
        );
        assert!(OpenAi.headers(None).is_empty());
        assert_eq!(OpenAi.headers(Some("k"))[0].1, "Bearer k");
    }

    #[test]
    fn answers_and_errors_of_each_server() {
        let answer = json!({"choices": [{"message": {"role": "assistant", "content": "שלום"}}]});
        assert_eq!(OpenAi.text_of(&answer).as_deref(), Some("שלום"));
        assert_eq!(
            OpenAi
                .error_message(&json!({"error": "model not found"}))
                .as_deref(),
            Some("model not found")
        );
        assert_eq!(
            OpenAi
                .error_message(&json!({"error": {"message": "bad"}}))
                .as_deref(),
            Some("bad")
        );
    }
}
