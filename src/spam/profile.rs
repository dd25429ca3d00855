//! A user's detection inputs, gathered once and cached for a short while: their settings, their
//! keywords, domains and patterns (the settings and the AI training page's spam tab), their
//! white lists, the people they know (contacts, and everyone they wrote to), and their training
//! over the shipped models.

use std::collections::{HashMap, HashSet};

use super::bayes::{self, Layered};
use super::settings::{self, Settings, entries};
use super::{lr, model};
use crate::error::Result;
use crate::search::analyzer::fold_text;
use crate::store::Store;

#[derive(Default)]
pub struct Profile {
    pub settings: Settings,
    /// Folded as search folds text.
    pub keywords: Vec<String>,
    /// Lower-cased, without a leading `@`.
    pub domains: Vec<String>,
    pub patterns: Option<regex::RegexSet>,
    pub white_domains: Vec<String>,
    pub white_senders: HashSet<String>,
    /// Contacts and everyone the user wrote to, lower-cased.
    pub known: HashSet<String>,
    pub user_tokens: HashMap<u32, (u32, u32)>,
    pub user_totals: (u32, u32),
    /// The user's steps over the shipped logistic regression.
    pub lr: lr::Deltas,
}

impl Profile {
    pub fn build(store: &Store, user_id: u64) -> Result<Self> {
        let s = settings::load(store, user_id)?;
        let training = crate::ai::training::load(store, user_id)?;
        let mut keywords: Vec<String> = entries(&s.custom_keywords)
            .into_iter()
            .chain(entries(&training.spam_keywords))
            .map(|k| fold_text(&k))
            .filter(|k| k.chars().count() >= 2)
            .collect();
        keywords.sort();
        keywords.dedup();
        let mut domains: Vec<String> = entries(&s.custom_domains)
            .into_iter()
            .chain(entries(&training.spam_domains))
            .map(|d| d.trim_start_matches('@').to_string())
            .filter(|d| d.contains('.'))
            .collect();
        domains.sort();
        domains.dedup();
        // A pattern saved before the checks existed, and now refused, is left out, not fatal.
        let patterns = crate::ai::training::compile_patterns(&training.spam_patterns)
            .ok()
            .flatten();
        let mut known: HashSet<String> = crate::contacts::all(store, user_id)?
            .into_iter()
            .map(|c| c.fields.email.trim().to_lowercase())
            .collect();
        known.extend(crate::outgoing::contacts::written_to(store, user_id)?);
        let (user_tokens, user_totals) = model::load(store, user_id)?;
        Ok(Profile {
            keywords,
            domains,
            patterns,
            white_domains: entries(&s.whitelist_domains),
            white_senders: entries(&s.whitelist_senders)
                .into_iter()
                .filter(|e| e.contains('@') && !e.starts_with('@'))
                .collect(),
            known,
            user_tokens,
            user_totals,
            lr: lr::load(store, user_id)?,
            settings: s,
        })
    }

    /// The shipped model with this user's training over it.
    pub fn counts(&self) -> Layered<'_> {
        Layered {
            base: &bayes::BASE,
            user: &self.user_tokens,
            user_totals: self.user_totals,
        }
    }
}
