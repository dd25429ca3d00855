//! The index's merge policy: tantivy's log merge policy with every merge bounded.
//!
//! A merge reads its segments through memory maps, and each page it reads counts in the
//! process's resident memory until the merged segments are dropped. Unbounded, catching up a
//! 300,000-message first sync ended in merges of most of the index at once (141 MB of mapped
//! index pages at the peak, 372 MB with the indexer racing the sync as it once did). Bounded,
//! a merge maps at most [`MAX_MERGE_DOCS`] documents' worth, and a big index keeps one segment
//! per that many documents, which a search visits in turn. `mailclient import` bounds its
//! merges too: with one indexing thread's bigger segments, its unbounded merges took a
//! 300,000-message import to 313 MiB (198 MiB bounded).

use std::collections::HashMap;

use tantivy::index::{SegmentId, SegmentMeta};
use tantivy::indexer::{LogMergePolicy, MergeCandidate, MergePolicy};

/// Documents one merge may read (deleted ones included).
pub const MAX_MERGE_DOCS: u32 = 50_000;

#[derive(Debug, Default)]
pub struct BoundedMerges {
    inner: LogMergePolicy,
}

impl MergePolicy for BoundedMerges {
    fn compute_merge_candidates(&self, segments: &[SegmentMeta]) -> Vec<MergeCandidate> {
        let docs: HashMap<SegmentId, u32> =
            segments.iter().map(|s| (s.id(), s.max_doc())).collect();
        self.inner
            .compute_merge_candidates(segments)
            .into_iter()
            .filter_map(|candidate| bounded(candidate, &docs, MAX_MERGE_DOCS))
            .collect()
    }
}

/// The smallest segments of a candidate that fit in `max_docs` together, when at least two do.
fn bounded(
    candidate: MergeCandidate,
    docs: &HashMap<SegmentId, u32>,
    max_docs: u32,
) -> Option<MergeCandidate> {
    let mut ids = candidate.0;
    ids.sort_by_key(|id| docs.get(id).copied().unwrap_or(u32::MAX));
    let mut total = 0u32;
    let mut keep = Vec::new();
    for id in ids {
        let n = docs.get(&id).copied().unwrap_or(u32::MAX);
        if total.saturating_add(n) > max_docs {
            break;
        }
        total += n;
        keep.push(id);
    }
    (keep.len() >= 2).then_some(MergeCandidate(keep))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_keeps_the_smallest_segments_that_fit() {
        let ids: Vec<SegmentId> = (0..4).map(|_| SegmentId::generate_random()).collect();
        let sizes = [30_000, 5_000, 20_000, 10_000];
        let docs: HashMap<SegmentId, u32> = ids.iter().copied().zip(sizes).collect();
        let merged = bounded(MergeCandidate(ids.clone()), &docs, 50_000).unwrap();
        // 5,000 + 10,000 + 20,000 fit; the 30,000 would make 65,000.
        assert_eq!(merged.0, [ids[1], ids[3], ids[2]]);
        // Two segments that only fit alone: no merge.
        let big = bounded(MergeCandidate(vec![ids[0], ids[2]]), &docs, 40_000);
        assert!(big.is_none());
    }
}
