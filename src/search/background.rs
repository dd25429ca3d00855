//! The index's threads at background priority: on a two-core home server the mailbox comes
//! first and the index catches up.

/// Runs `f` on a thread of lower CPU priority, so the threads it starts (the search index's
/// writer and indexer) run below the sync, the pages and the search queries (Linux keeps a nice
/// value per thread, and a new thread inherits its creator's).
pub fn in_background<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        s.spawn(|| {
            lower_priority();
            f()
        })
        .join()
        .expect("background start")
    })
}

#[cfg(target_os = "linux")]
fn lower_priority() {
    /// Below the default of 0, well above idle (19): the index still keeps up with new mail.
    const NICE: libc::c_int = 10;
    // SAFETY: setpriority only reads its arguments; `who` 0 is the calling thread on Linux.
    let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICE) };
    if r != 0 {
        tracing::debug!(
            "cannot lower the indexer's priority: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}
