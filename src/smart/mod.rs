//! The smart features page (spec 001 "Smart features page"; docs/API.md "Smart features"): a
//! real summary with sentiment and priority, three suggested replies and smart compose through
//! the AI provider (`crate::ai`), and productivity insights computed from the user's own mail
//! (`insights`). The earlier product answered these with canned text after a one-second wait.

pub mod insights;
pub mod routes;

pub use routes::router;

use crate::feature::{Feature, need};

/// The smart features page: its routes.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    needs: &[need::<crate::ai::Ai>],
    ..Feature::named("smart")
};

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    crate::ai::answer::Sentiment,
    crate::ai::answer::SummaryPriority,
    crate::ai::answer::Summary,
    routes::SummaryResponse,
    crate::ai::answer::Suggestion,
    routes::RepliesResponse,
    routes::ComposeResponse,
    insights::ReplyTime,
    insights::Backlog,
    insights::Sender,
    insights::BusiestDay,
    insights::Insights,
);
