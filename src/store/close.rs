//! Closing the store cleanly. redb saves its allocator state when the database is closed; a
//! file still open when the process ends is repaired at the next open, which reads and checks
//! every page (14 s before `serve` listened again on a 1,000,000-message store). So `serve`
//! closes it on the way out, once every other holder has let go.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Store;

impl Store {
    /// Tells the store's long-running holders (the search indexer's thread) to let it go: they
    /// stop between batches and start no new work.
    pub fn begin_close(&self) {
        self.closing.store(true, Ordering::Relaxed);
    }

    /// Whether the store is closing ([`Store::begin_close`]).
    pub fn is_closing(&self) -> bool {
        self.closing.load(Ordering::Relaxed)
    }

    /// Closes the database once this is its last handle, waiting up to `wait` for the others to
    /// be dropped. When they were not (or redb could not close) it says so on the console and
    /// the file is left for redb to check at the next open, as after a crash; nothing committed
    /// is lost either way.
    pub fn close(self, wait: Duration) {
        self.begin_close();
        let deadline = Instant::now() + wait;
        let mut db = self.db;
        loop {
            match Arc::try_unwrap(db) {
                Ok(only) => {
                    if let Err(e) = only.close() {
                        tracing::warn!(error = %e, "cannot close the store; it is checked at the next start");
                    }
                    return;
                }
                Err(shared) if Instant::now() < deadline => {
                    db = shared;
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(shared) => {
                    tracing::warn!(
                        holders = Arc::strong_count(&shared) - 1,
                        "the store is still in use; it is checked at the next start"
                    );
                    return;
                }
            }
        }
    }
}
