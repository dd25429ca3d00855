//! AI-training settings (spec 001 §3 "AI training settings", defaults from spec 000 §9 and
//! spec 001 §9), stored per user. Prompts are built from them; a call may override fields for
//! itself (`settings` in its body) without storing anything.

use redb::{ReadableDatabase, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::messages;
use crate::store::{Store, record};

/// user id → JSON [`Training`].
pub const AI_TRAINING: TableDefinition<u64, &[u8]> = TableDefinition::new("ai_training");
/// "household" → JSON [`Household`]: the defaults of every user who has not saved their own.
pub const AI_TRAINING_GLOBAL: TableDefinition<&str, &[u8]> =
    TableDefinition::new("ai_training_global");
const HOUSEHOLD: &str = "household";

/// The household's AI-training defaults, as the admin saved them.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Household {
    /// The settings as saved; null fields are skipped when they are applied.
    pub settings: Value,
    pub last_updated: String,
    pub updated_by: String,
}

pub const TONES: [&str; 5] = ["professional", "friendly", "formal", "casual", "creative"];
pub const LANGUAGES: [&str; 5] = ["auto", "hebrew", "english", "arabic", "russian"];
pub const MAX_LENGTH_RANGE: std::ops::RangeInclusive<u32> = 50..=5000;

/// The whole stored object stays small: it is read on every AI call.
const MAX_STORED_BYTES: usize = 512 * 1024;

pub const DEFAULT_SYSTEM_PROMPT: &str = "אתה עוזר אישי לכתיבת מיילים של המשתמש. כתוב בשמו תשובות ברורות, \
מנומסות ומדויקות, התייחס לכל שאלה ובקשה שבמייל, ואל תמציא עובדות, תאריכים או התחייבויות שאינם מופיעים בו.";

/// `GET /api/settings/ai-training` (and the `settings` of a save).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(rename = "AiTrainingSettings")]
pub struct Training {
    pub system_prompt: String,
    pub templates: Vec<AiTemplate>,
    #[ts(as = "Tone")]
    pub tone: String,
    #[ts(as = "Language")]
    pub language: String,
    pub creativity: f64,
    /// Words.
    pub max_length: u32,
    pub include_context: bool,
    pub auto_correct: bool,
    pub spam_training_enabled: bool,
    pub spam_examples: Vec<Example>,
    pub ham_examples: Vec<Example>,
    pub spam_keywords: String,
    pub spam_domains: String,
    pub spam_patterns: String,
    /// RFC 3339; null until first saved.
    pub updated_at: Option<String>,
}

/// [`TONES`] as the web's `AiTone`, for the TypeScript only: the field stays a string so that an
/// unknown tone gets the spec's message from [`Training::checked`], not a parse error.
#[derive(TS)]
#[ts(rename = "AiTone", rename_all = "lowercase")]
pub enum Tone {
    Professional,
    Friendly,
    Formal,
    Casual,
    Creative,
}

/// [`LANGUAGES`] as the web's `AiLanguage` (TypeScript only, as [`Tone`]).
#[derive(TS)]
#[ts(rename = "AiLanguage", rename_all = "lowercase")]
pub enum Language {
    Auto,
    Hebrew,
    English,
    Arabic,
    Russian,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, TS)]
#[serde(default)]
pub struct AiTemplate {
    pub id: String,
    pub name: String,
    pub prompt: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, TS)]
#[serde(default)]
#[ts(rename = "TrainingExample")]
pub struct Example {
    pub id: String,
    pub text: String,
    pub date: String,
}

impl Default for Training {
    fn default() -> Self {
        let template = |id: &str, name: &str, prompt: &str| AiTemplate {
            id: id.into(),
            name: name.into(),
            prompt: prompt.into(),
        };
        Self {
            system_prompt: DEFAULT_SYSTEM_PROMPT.into(),
            // spec 001 §9: formal business, friendly, concise.
            templates: vec![
                template(
                    "formal",
                    "עסקי רשמי",
                    "כתוב תשובה רשמית ועניינית, עם פתיחה מכובדת וחתימה מקצועית.",
                ),
                template(
                    "friendly",
                    "ידידותי",
                    "כתוב תשובה חמה ואישית, בגובה העיניים.",
                ),
                template("concise", "תמציתי", "כתוב תשובה קצרה של עד שלושה משפטים."),
            ],
            tone: "professional".into(),
            language: "auto".into(),
            creativity: 0.7,
            // spec 000 §9 (the calls' default); the training page's 2000 words would make every
            // reply an essay.
            max_length: 500,
            include_context: true,
            auto_correct: true,
            spam_training_enabled: true,
            spam_examples: Vec::new(),
            ham_examples: Vec::new(),
            spam_keywords: String::new(),
            spam_domains: String::new(),
            spam_patterns: String::new(),
            updated_at: None,
        }
    }
}

impl Training {
    /// Spec 001 §5 ranges and the known tones and languages.
    pub fn checked(mut self) -> Result<Self> {
        if !TONES.contains(&self.tone.as_str()) {
            return Err(AppError::bad_request(messages::AI_TONE_UNKNOWN));
        }
        if !LANGUAGES.contains(&self.language.as_str()) {
            return Err(AppError::bad_request(messages::AI_LANGUAGE_UNKNOWN));
        }
        if !(0.0..=1.0).contains(&self.creativity) {
            return Err(AppError::bad_request(messages::AI_CREATIVITY_RANGE));
        }
        if !MAX_LENGTH_RANGE.contains(&self.max_length) {
            return Err(AppError::bad_request(messages::AI_MAX_LENGTH_RANGE));
        }
        for t in &mut self.templates {
            t.name = t.name.trim().to_string();
            if t.name.is_empty() {
                return Err(AppError::bad_request(messages::AI_TEMPLATE_NAME_REQUIRED));
            }
        }
        compile_patterns(&self.spam_patterns)?;
        // One decimal, as the slider sets it; keeps the request's temperature tidy.
        self.creativity = (self.creativity * 10.0).round() / 10.0;
        if record::encode(&self).len() > MAX_STORED_BYTES {
            return Err(AppError::bad_request(messages::AI_SETTINGS_TOO_LARGE));
        }
        Ok(self)
    }

    /// These settings with the fields of `overrides` (a partial object) put over them.
    pub fn overlaid(&self, overrides: Option<&Value>) -> Result<Self> {
        let Some(Value::Object(fields)) = overrides else {
            return Ok(self.clone());
        };
        let mut merged = serde_json::to_value(self).map_err(AppError::internal)?;
        if let Value::Object(target) = &mut merged {
            for (k, v) in fields {
                if !v.is_null() {
                    target.insert(k.clone(), v.clone());
                }
            }
        }
        let t: Training = serde_json::from_value(merged)
            .map_err(|e| AppError::bad_request(format!("{}: {e}", messages::MALFORMED_JSON)))?;
        t.checked()
    }

    /// The template with this id, for a call that names one.
    pub fn template(&self, id: &str) -> Option<&AiTemplate> {
        self.templates.iter().find(|t| t.id == id)
    }
}

/// Spam patterns a user may keep, and their longest line.
pub const MAX_PATTERNS: usize = 200;
pub const MAX_PATTERN_CHARS: usize = 500;

/// The spam tab's patterns (one regular expression per line, blank lines skipped) as one set,
/// case-insensitive, on the regex crate's linear-time engine with bounded compiled sizes: a
/// pattern can never run for ages. A bad line is named in the error (counting from 1).
pub fn compile_patterns(text: &str) -> Result<Option<regex::RegexSet>> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return Ok(None);
    }
    if lines.len() > MAX_PATTERNS
        || lines
            .iter()
            .any(|(_, l)| l.chars().count() > MAX_PATTERN_CHARS)
    {
        return Err(AppError::bad_request(messages::SPAM_PATTERNS_TOO_MANY));
    }
    let build = |pats: &[&str]| {
        regex::RegexSetBuilder::new(pats)
            .case_insensitive(true)
            .size_limit(2 << 20)
            .dfa_size_limit(4 << 20)
            .build()
    };
    for (n, line) in &lines {
        build(&[line]).map_err(|_| AppError::bad_request(messages::spam_pattern_invalid(*n)))?;
    }
    let all: Vec<&str> = lines.iter().map(|(_, l)| *l).collect();
    build(&all)
        .map(Some)
        .map_err(|_| AppError::bad_request(messages::SPAM_PATTERNS_TOO_MANY))
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(AI_TRAINING)?;
    Ok(())
}

/// Schema 10: the household's defaults.
pub fn create_household_table(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(AI_TRAINING_GLOBAL)?;
    Ok(())
}

/// Forgets the settings of a user being removed (inside the removal's transaction).
/// Forgets a removed user's AI-training settings.
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(AI_TRAINING)?.remove(user_id)?;
    Ok(())
}

/// The user's settings: their own, else the household's, else the defaults.
pub fn load(store: &Store, user_id: u64) -> Result<Training> {
    if let Some(own) = own(store, user_id)? {
        return Ok(own);
    }
    match household(store)? {
        // A household object that no longer passes the checks falls back to the defaults.
        Some(h) => Ok(Training::default()
            .overlaid(Some(&h.settings))
            .unwrap_or_default()),
        None => Ok(Training::default()),
    }
}

/// The settings the user saved themselves, if any.
pub fn own(store: &Store, user_id: u64) -> Result<Option<Training>> {
    let txn = store.db().begin_read()?;
    Ok(match txn.open_table(AI_TRAINING)?.get(user_id)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// The household's defaults, if an admin saved them.
pub fn household(store: &Store) -> Result<Option<Household>> {
    let txn = store.db().begin_read()?;
    Ok(match txn.open_table(AI_TRAINING_GLOBAL)?.get(HOUSEHOLD)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// Saves the household's defaults (checked like a user's; null fields kept as "not set").
pub fn save_household(store: &Store, body: &Value, by: &str, now: &str) -> Result<Household> {
    Training::default().overlaid(Some(body))?;
    let h = Household {
        settings: body.clone(),
        last_updated: now.to_string(),
        updated_by: by.to_string(),
    };
    if record::encode(&h).len() > MAX_STORED_BYTES {
        return Err(AppError::bad_request(messages::AI_SETTINGS_TOO_LARGE));
    }
    let txn = store.begin_write()?;
    txn.open_table(AI_TRAINING_GLOBAL)?
        .insert(HOUSEHOLD, record::encode(&h).as_slice())?;
    txn.commit()?;
    Ok(h)
}

/// Replaces the user's settings (missing fields of `body` take the defaults).
pub fn save(store: &Store, user_id: u64, body: &Value, now: &str) -> Result<Training> {
    let mut t = Training::default().overlaid(Some(body))?;
    t.updated_at = Some(now.to_string());
    let txn = store.begin_write()?;
    txn.open_table(AI_TRAINING)?
        .insert(user_id, record::encode(&t).as_slice())?;
    txn.commit()?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        let t = Training::default();
        assert_eq!(
            (t.tone.as_str(), t.language.as_str()),
            ("professional", "auto")
        );
        assert_eq!((t.creativity, t.max_length), (0.7, 500));
        assert!(t.include_context && t.auto_correct);
        assert_eq!(t.templates.len(), 3);
    }

    #[test]
    fn the_typescript_unions_are_the_checked_lists() {
        let union = crate::wire::union;
        let cfg = crate::wire::config();
        assert_eq!(Tone::inline(&cfg), union(&TONES));
        assert_eq!(Language::inline(&cfg), union(&LANGUAGES));
    }

    #[test]
    fn overrides_are_checked_and_merged() {
        let t = Training::default()
            .overlaid(Some(
                &json!({"tone": "friendly", "maxLength": 120, "systemPrompt": null}),
            ))
            .unwrap();
        assert_eq!((t.tone.as_str(), t.max_length), ("friendly", 120));
        assert_eq!(t.system_prompt, DEFAULT_SYSTEM_PROMPT);
        let err = |v: Value| {
            Training::default()
                .overlaid(Some(&v))
                .unwrap_err()
                .user_message()
        };
        assert_eq!(err(json!({"maxLength": 10})), messages::AI_MAX_LENGTH_RANGE);
        assert_eq!(
            err(json!({"creativity": 1.5})),
            messages::AI_CREATIVITY_RANGE
        );
        assert_eq!(err(json!({"tone": "angry"})), messages::AI_TONE_UNKNOWN);
        assert_eq!(
            err(json!({"language": "klingon"})),
            messages::AI_LANGUAGE_UNKNOWN
        );
        assert_eq!(
            err(json!({"templates": [{"id": "x", "name": " ", "prompt": "p"}]})),
            messages::AI_TEMPLATE_NAME_REQUIRED
        );
    }
}
