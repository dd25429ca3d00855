//! `[limits]`: calls per minute each user may make of the expensive endpoints (a token bucket
//! that holds a minute's worth and refills evenly).

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// AI calls (`/api/claude/*`, `/api/smart/*`).
    pub ai_per_minute: u32,
    /// Searches (`/api/search`).
    pub search_per_minute: u32,
    /// "Sync now" (`/api/sync/refresh`).
    pub refresh_per_minute: u32,
    /// Requests of agents to the MCP endpoint (`/mcp`), per user over all their tokens.
    pub mcp_per_minute: u32,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            ai_per_minute: 20,
            search_per_minute: 120,
            refresh_per_minute: 6,
            mcp_per_minute: 60,
        }
    }
}

impl LimitsConfig {
    /// Every rate from 1 to 100,000 a minute.
    pub fn check(&self, c: &Check) -> Checked {
        for (key, value) in [
            ("ai_per_minute", self.ai_per_minute),
            ("search_per_minute", self.search_per_minute),
            ("refresh_per_minute", self.refresh_per_minute),
            ("mcp_per_minute", self.mcp_per_minute),
        ] {
            c.within(key, value, 1..=100_000, " calls per minute")?;
        }
        Ok(())
    }
}
