//! mailclient: a self-hosted Hebrew right-to-left web email client. See docs/ARCHITECTURE.md
//! for the code map.

pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod error;
pub mod http;
pub mod messages;
pub mod store;
