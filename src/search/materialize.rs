//! A query evaluated whole per segment into a bit set before it is combined with others.
//!
//! tantivy 0.27's phrase scorer panics ("target should be greater than or equal to doc") when
//! an exclusion or an intersection seeks it backwards through `seek_danger`; a bit set seeks
//! any way. Phrases and every excluded clause go through this: a phrase is checked once per
//! candidate document anyway, and a segment's bit set is a bit per document.

use tantivy::query::{
    BitSetDocSet, ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::{BitSet, DocId, DocSet, Score, SegmentReader, TERMINATED};

#[derive(Debug)]
pub struct Materialized(pub Box<dyn Query>);

impl Clone for Materialized {
    fn clone(&self) -> Self {
        Self(self.0.box_clone())
    }
}

impl Query for Materialized {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(MaterializedWeight(self.0.weight(scoring)?)))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        self.0.query_terms(visitor);
    }
}

struct MaterializedWeight(Box<dyn Weight>);

impl Weight for MaterializedWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut inner = self.0.scorer(reader, boost)?;
        let mut bits = BitSet::with_max_value(reader.max_doc());
        let mut doc = inner.doc();
        while doc != TERMINATED {
            bits.insert(doc);
            doc = inner.advance();
        }
        Ok(Box::new(ConstScorer::new(BitSetDocSet::from(bits), boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut s = self.scorer(reader, 1.0)?;
        if s.seek(doc) == doc {
            Ok(Explanation::new("materialized", 1.0))
        } else {
            Err(tantivy::TantivyError::InvalidArgument(format!(
                "document {doc} does not match"
            )))
        }
    }
}
