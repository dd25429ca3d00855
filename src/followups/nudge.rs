//! What follow-ups ask the AI (does a sent mail await an answer; a polite nudge), and the nudge
//! itself: one click writes a draft reply to the sent mail, in the sent mail's language, by
//! the AI when the user has a provider, else from a short template in that language, saved
//! through the drafts code (In-Reply-To the sent mail, to its recipients).

use axum::http::HeaderMap;
use serde::Deserialize;

use super::model::FollowUp;
use crate::ai::prompts::{language_name, mail_language};
use crate::ai::routes::editor_html_in;
use crate::ai::source::MailText;
use crate::ai::{self, Ask, answer};
use crate::error::Result;
use crate::outgoing::drafts::{self, Original, SaveRequest, Saved, reply_subject};
use crate::state::AppState;

fn quoted(mail: &MailText) -> String {
    format!(
        "<email>\nTo: {}\nSubject: {}\n\n{}\n</email>",
        mail.from, mail.subject, mail.body
    )
}

/// The question whether a sent mail awaits an answer (JSON `{"awaits": bool}`).
pub fn decide_ask(mail: &MailText) -> Ask {
    Ask {
        system: "You sort the emails a user has sent. Rules:\n\
                 - Answer with JSON only: {\"awaits\": true} or {\"awaits\": false}.\n\
                 - awaits is true when the email asks its recipients a question, or asks them \
                 to do, send, confirm or decide something, so that the user expects an answer.\n\
                 - A thank-you, an announcement, a reply that only answers, or a file sent as \
                 asked is false."
            .into(),
        user: format!(
            "Does this email the user sent expect an answer?\n\n{}",
            quoted(mail)
        ),
        max_tokens: 50,
        temperature: 0.0,
    }
}

#[derive(Deserialize)]
struct Awaits {
    awaits: bool,
}

/// Reads the decision.
pub fn read_decision(text: &str) -> std::result::Result<bool, ai::Failure> {
    answer::json::<Awaits>(text).map(|a| a.awaits)
}

/// The question for a nudge, in the language of the sent mail.
pub fn nudge_ask(mail: &MailText, days: i64, language: &str) -> Ask {
    Ask {
        system: format!(
            "You write short follow-up emails for the user. Rules:\n\
             - Write in {}, the language of the user's email.\n\
             - Two or three sentences: polite, warm, never pushy; greet the recipient by name \
             when it is known, and sign with nothing.\n\
             - Answer with the body text only: no subject line, no Markdown, no placeholders \
             such as [Name].",
            language_name(language)
        ),
        user: format!(
            "The user sent this email {days} days ago and has had no answer. Write a gentle \
             follow-up asking about it:\n\n{}",
            quoted(mail)
        ),
        max_tokens: 300,
        temperature: 0.4,
    }
}

/// The template a nudge takes without AI, in the mail's language (Hebrew unless it is plainly
/// English, Arabic or Russian).
pub fn template(language: &str, name: &str) -> String {
    let name = name.trim();
    match language {
        "english" => format!(
            "Hi{},\n\nI wanted to follow up on my previous email. I would appreciate a reply \
             when you have a moment.\n\nThank you!",
            if name.is_empty() {
                String::new()
            } else {
                format!(" {name}")
            }
        ),
        "arabic" => format!(
            "مرحبا{}،\n\nأردت المتابعة بخصوص رسالتي السابقة. سأكون ممتنا لردك عندما يتاح لك الوقت.\n\nشكرا!",
            if name.is_empty() {
                String::new()
            } else {
                format!(" {name}")
            }
        ),
        "russian" => format!(
            "Здравствуйте{}!\n\nХочу уточнить насчёт моего предыдущего письма. Буду благодарен \
             за ответ, когда будет возможность.\n\nСпасибо!",
            if name.is_empty() {
                String::new()
            } else {
                format!(", {name}")
            }
        ),
        _ => format!(
            "שלום{},\n\nרציתי לוודא שההודעה הקודמת שלי הגיעה אליך. אשמח לתשובה כשיתאפשר לך.\n\nתודה!",
            if name.is_empty() {
                String::new()
            } else {
                format!(" {name}")
            }
        ),
    }
}

/// The first name of the first recipient ("Dana Cohen <d@x>" → "Dana").
fn first_name(to: &[String]) -> String {
    let first = to.first().map(String::as_str).unwrap_or("");
    let name = first
        .split('<')
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches('"');
    if name.contains('@') {
        return String::new();
    }
    name.split_whitespace().next().unwrap_or("").to_string()
}

/// How a nudge was written.
pub struct Nudged {
    pub saved: Saved,
    pub by_ai: bool,
    pub language: &'static str,
}

/// Writes the nudge draft of a follow-up.
pub async fn write(state: &AppState, user_id: u64, f: &FollowUp) -> Result<Nudged> {
    let email_id = f.email_id;
    let (mail, _) = state
        .store_blocking(move |store| ai::source::stored(store, user_id, email_id, false))
        .await?;
    let language = mail_language(&format!("{} {}", mail.subject, mail.body));
    let days = ((crate::kit::now() - f.sent_at) / super::model::DAY).max(1);
    let by_ai = match ai::prepare(state, user_id, &ai::Extras::default(), &HeaderMap::new()).await {
        Ok(prepared) => {
            let ask = nudge_ask(&mail, days, language);
            ai::run(state, user_id, &prepared, &ask, "", answer::plain)
                .await
                .ok()
        }
        Err(_) => None,
    };
    let text = by_ai
        .clone()
        .unwrap_or_else(|| template(language, &first_name(&f.to)));
    let req = SaveRequest {
        original_email: Original {
            id: serde_json::Value::String(f.email_id.to_string()),
            message_id: f.message_id.clone(),
            from: String::new(),
            from_name: String::new(),
            subject: f.subject.clone(),
        },
        draft_content: editor_html_in(&text, language),
        subject: Some(reply_subject(&f.subject)),
        to: Some(f.to.join(", ")),
    };
    let saved = drafts::save(state, user_id, req).await?;
    Ok(Nudged {
        saved,
        by_ai: by_ai.is_some(),
        language,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_follow_the_language_and_the_direction() {
        assert!(template("hebrew", "דנה").starts_with("שלום דנה,"));
        assert!(template("english", "Dana").starts_with("Hi Dana,"));
        assert!(template("english", "").starts_with("Hi,"));
        assert!(template("russian", "Иван").contains("Иван"));
        let html = editor_html_in(&template("hebrew", ""), "hebrew");
        assert!(html.starts_with("<p dir=\"rtl\">שלום,</p>"), "{html}");
        assert!(editor_html_in("a <b>\n\nc", "english").contains("<p dir=\"ltr\">a &lt;b&gt;</p>"));
        assert_eq!(first_name(&["\"Dana Cohen\" <d@x>".into()]), "Dana");
        assert_eq!(first_name(&["d@x".into()]), "");
    }

    #[test]
    fn the_decision_is_read_from_json() {
        assert_eq!(read_decision("{\"awaits\": true}").ok(), Some(true));
        assert_eq!(
            read_decision("```json\n{\"awaits\": false}\n```").ok(),
            Some(false)
        );
        assert!(read_decision("maybe").is_err());
    }
}
