//! `[log]`: what the server logs.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    /// A tracing filter: `info`, `debug`, `mailclient=debug,tower_http=info`, ...
    pub level: String,
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            level: "info".into(),
        }
    }
}

impl LogConfig {
    /// A filter tracing understands.
    pub fn check(&self, c: &Check) -> Checked {
        c.ensure(
            tracing_subscriber::EnvFilter::try_new(&self.level).is_ok(),
            "level",
            &self.level,
            "expected a level such as info or debug",
        )
    }
}
