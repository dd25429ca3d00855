//! `[builder]`: the page-builder page (`/BuilderPage`): content entries of Builder.io's model
//! `page`, fetched by the server so the browser never talks to Builder's hosts.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct BuilderConfig {
    /// The space's public API key; empty turns the page off (it says where to set the key).
    pub api_key: String,
    /// Builder's content API (`{base_url}/api/v3/content/page`).
    pub base_url: String,
    /// Builder's form-submit endpoint, for forms with e-mail delivery when no mailbox of the
    /// user can send them.
    pub form_submit_url: String,
    /// Where the empty page's button opens the Builder editor.
    pub editor_url: String,
    /// Seconds to wait for Builder or a form's action (1 to 120).
    pub timeout_secs: u64,
    /// Seconds a fetched entry is served from memory (0 to 3600; 0 = always fetch).
    pub cache_secs: u64,
    /// The only hosts a form's action URL may name (as `[mail] allowed_hosts`); empty: any.
    pub allowed_hosts: Vec<String>,
    /// Loopback, private and link-local networks a form's action may reach all the same (they
    /// are refused by default, whatever `[mail]` says).
    pub allowed_private_networks: Vec<String>,
}

impl Default for BuilderConfig {
    fn default() -> Self {
        Self {
            api_key: String::new(),
            base_url: "https://cdn.builder.io".into(),
            form_submit_url: "https://builder.io/api/v1/form-submit".into(),
            editor_url: "https://builder.io/content".into(),
            timeout_secs: 10,
            cache_secs: 60,
            allowed_hosts: Vec::new(),
            allowed_private_networks: Vec::new(),
        }
    }
}

impl BuilderConfig {
    /// Web URLs, bounded waits and cache.
    pub fn check(&self, c: &Check) -> Checked {
        c.web_url("base_url", &self.base_url)?;
        c.web_url("form_submit_url", &self.form_submit_url)?;
        c.web_url("editor_url", &self.editor_url)?;
        c.within("timeout_secs", self.timeout_secs, 1..=120, " seconds")?;
        c.within("cache_secs", self.cache_secs, 0..=3600, " seconds")?;
        c.networks("allowed_private_networks", &self.allowed_private_networks)
    }
}
