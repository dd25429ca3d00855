use std::process::ExitCode;

fn main() -> ExitCode {
    limit_malloc_arenas();
    mailclient::cli::run()
}

/// glibc gives each thread that allocates concurrently an arena of its own (up to 8 per core)
/// and keeps what they free: the sync's parsers, the indexer and the blocking pool then hold
/// tens of MB they no longer use. Two arenas keep peak memory down at no measurable cost.
///
/// glibc also raises its mmap threshold each time a big block is freed (up to 32 MiB), after
/// which the sync's FETCH buffers and the indexer's blocks come from the arenas and stay
/// there, fragmented, once freed. A fixed threshold gives blocks over 256 KiB back to the
/// system on free, and a fixed trim threshold returns a free top of an arena over 1 MiB: the
/// 60,000-message sync's peak went from 173 to 137 MB (docs/BENCHMARKS.md, issue 23).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn limit_malloc_arenas() {
    // SAFETY: mallopt only sets allocator parameters; called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn limit_malloc_arenas() {}
