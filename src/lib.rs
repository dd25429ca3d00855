//! mailclient: a self-hosted Hebrew right-to-left web email client. See docs/ARCHITECTURE.md
//! for the code map.

pub mod accounts;
pub mod ai;
pub mod app;
pub mod auth;
pub mod autoreply;
pub mod backup;
pub mod builder;
pub mod cli;
pub mod clock;
pub mod config;
pub mod contacts;
pub mod crypto;
pub mod emails;
pub mod error;
pub mod forget;
pub mod household;
pub mod http;
pub mod import;
pub mod jobs;
pub mod live;
pub mod mail;
pub mod mailstore;
pub mod messages;
pub mod outgoing;
pub mod rules;
pub mod schema;
pub mod search;
pub mod settings;
pub mod smart;
pub mod state;
pub mod store;
pub mod sync;
pub mod tasks;
pub mod templates;
pub mod wire;
