//! `[search]`: the full-text index (`<data dir>/index`) and how much its writer buffers.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Memory the index writer buffers before writing a segment, in MiB (16 to 1024): more
    /// makes big imports faster and uses more memory.
    pub writer_memory_mb: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            writer_memory_mb: 48,
        }
    }
}

/// The most `serve`'s index writer buffers, in MiB.
pub const SERVE_WRITER_MB: u64 = 24;

/// How much memory the writer may buffer before it writes a segment.
#[derive(Debug, Clone, Copy)]
pub struct WriterOptions {
    pub threads: usize,
    pub memory_bytes: usize,
}

impl SearchConfig {
    /// The writer's buffer in its range.
    pub fn check(&self, c: &Check) -> Checked {
        c.within("writer_memory_mb", self.writer_memory_mb, 16..=1024, "")
    }

    /// `serve` keeps one indexing thread: it follows the sync, a few thousand messages per
    /// commit, so a bigger buffer would only hold memory (at most [`SERVE_WRITER_MB`]).
    pub fn serve_writer(&self) -> WriterOptions {
        WriterOptions {
            threads: 1,
            memory_bytes: (self.writer_memory_mb.min(SERVE_WRITER_MB) as usize) << 20,
        }
    }

    /// `import` indexes on half the cores (up to 4): indexing is about half an import's work,
    /// and reading, parsing, compressing and storing run beside it. On two cores one indexing
    /// thread with the whole buffer writes fewer, bigger segments than two (3 instead of 5 at
    /// 60,000 messages), so less CPU goes to merging; with every merge bounded its memory stays
    /// below two threads' at 300,000 (docs/BENCHMARKS.md, issue 23, sixth pass).
    pub fn import_writer(&self) -> WriterOptions {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        WriterOptions {
            threads: (cores / 2).clamp(1, 4),
            memory_bytes: (self.writer_memory_mb as usize) << 20,
        }
    }
}
