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
        // The AI training page's spam tab counts only while its switch is on (its hint says
        // so): the examples (learn.rs), the keywords, the domains and the patterns alike.
        let tab = |text: &str| {
            if training.spam_training_enabled {
                entries(text)
            } else {
                Vec::new()
            }
        };
        let mut keywords: Vec<String> = entries(&s.custom_keywords)
            .into_iter()
            .chain(tab(&training.spam_keywords))
            .map(|k| fold_text(&k))
            .filter(|k| k.chars().count() >= 2)
            .collect();
        keywords.sort();
        keywords.dedup();
        let mut domains: Vec<String> = entries(&s.custom_domains)
            .into_iter()
            .chain(tab(&training.spam_domains))
            .map(|d| d.trim_start_matches('@').to_string())
            .filter(|d| d.contains('.'))
            .collect();
        domains.sort();
        domains.dedup();
        // A pattern saved before the checks existed, and now refused, is left out, not fatal.
        let patterns = if training.spam_training_enabled {
            crate::ai::training::compile_patterns(&training.spam_patterns)
                .ok()
                .flatten()
        } else {
            None
        };
        let mut known: HashSet<String> = crate::contacts::all(store, user_id)?
            .into_iter()
            .map(|c| c.fields.email.trim().to_lowercase())
            .collect();
        known.extend(crate::outgoing::contacts::written_to(store, user_id)?);
        let (user_tokens, user_totals) = model::load(store, user_id)?;
        // An approved sender may be a whole domain (`@family.test`, as the field's hint says):
        // it joins the approved domains; an entry without `@` is no address and is left out.
        let mut white_domains = entries(&s.whitelist_domains);
        let mut white_senders = HashSet::new();
        for e in entries(&s.whitelist_senders) {
            if let Some(domain) = e.strip_prefix('@') {
                if domain.contains('.') {
                    white_domains.push(domain.to_string());
                }
            } else if e.contains('@') {
                white_senders.insert(e);
            }
        }
        Ok(Profile {
            keywords,
            domains,
            patterns,
            white_domains,
            white_senders,
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn dana_with(training: serde_json::Value, whitelist_senders: &str) -> Profile {
        let (_dir, store, dana) = crate::schema::store_with_user();
        crate::ai::training::save(&store, dana, &training, "2026-11-29T10:00:00Z").unwrap();
        let s = Settings {
            whitelist_senders: whitelist_senders.into(),
            ..Settings::default()
        };
        settings::save(&store, dana, &s).unwrap();
        Profile::build(&store, dana).unwrap()
    }

    #[test]
    fn the_spam_tab_counts_only_while_its_switch_is_on() {
        let tab = |on: bool| {
            json!({
                "spamTrainingEnabled": on,
                "spamKeywords": "הגרלה ענקית",
                "spamDomains": "casino.test",
                "spamPatterns": "zz+top",
            })
        };
        let on = dana_with(tab(true), "");
        assert_eq!(on.keywords, vec![fold_text("הגרלה ענקית")]);
        assert_eq!(on.domains, vec!["casino.test".to_string()]);
        assert!(on.patterns.is_some());
        let off = dana_with(tab(false), "");
        assert!(off.keywords.is_empty(), "{:?}", off.keywords);
        assert!(off.domains.is_empty(), "{:?}", off.domains);
        assert!(off.patterns.is_none());
    }

    #[test]
    fn an_approved_sender_may_be_a_whole_domain() {
        let p = dana_with(
            json!({}),
            "@family.test\nboss@work.test\nnot-an-address\n@nodot",
        );
        assert!(p.white_domains.contains(&"family.test".to_string()));
        assert!(p.white_senders.contains("boss@work.test"));
        assert_eq!(p.white_senders.len(), 1);
        assert_eq!(p.white_domains.len(), 1, "{:?}", p.white_domains);
    }
}
