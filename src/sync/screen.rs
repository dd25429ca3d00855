//! What the sync asks before it stores new mail: spam detection (a feature above the sync)
//! provides the [`Screen`] seam (`crate::hooks`), and the sync stores each new mail of an inbox
//! with its verdict in the same transaction, so no listing ever shows it unjudged.

pub use crate::hooks::{Batch, Judge, Screen};
