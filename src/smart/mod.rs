//! The smart features page (spec 001 "Smart features page"; docs/API.md "Smart features"): a
//! real summary with sentiment and priority, three suggested replies and smart compose through
//! the AI provider (`crate::ai`), and productivity insights computed from the user's own mail
//! (`insights`). The earlier product answered these with canned text after a one-second wait.

pub mod insights;
pub mod routes;

pub use routes::router;

/// This feature's part of the wire contract (see `crate::wire`), with the answers of
/// `crate::ai::answer` that only these routes return.
pub fn wire_types(cfg: &ts_rs::Config) -> Vec<String> {
    use crate::ai::answer;
    use crate::wire::export;
    vec![
        export::<answer::Sentiment>(cfg),
        export::<answer::SummaryPriority>(cfg),
        export::<answer::Summary>(cfg),
        export::<routes::SummaryResponse>(cfg),
        export::<answer::Suggestion>(cfg),
        export::<routes::RepliesResponse>(cfg),
        export::<routes::ComposeResponse>(cfg),
        export::<insights::ReplyTime>(cfg),
        export::<insights::Backlog>(cfg),
        export::<insights::Sender>(cfg),
        export::<insights::BusiestDay>(cfg),
        export::<insights::Insights>(cfg),
    ]
}
