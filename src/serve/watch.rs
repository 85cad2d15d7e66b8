//! The watcher: polls the rule files' fingerprints and swaps in a new
//! decider when their content changes and loads.

use super::*;

/// How often the watcher looks at the rule files. A file replaced by a
/// rename is loaded at the next poll (0–100 ms after the rename); a file
/// written in place once it has held still for one interval (100–200 ms
/// after the last write) — well within the one second the engine is
/// promised.
pub(super) const POLL: Duration = Duration::from_millis(100);

/// A file whose mtime is this recent may still change without its size or
/// mtime changing (timestamps are coarse); its content is re-read at each
/// poll until it is older than this ("racily clean", as git calls it).
pub(super) const RACY: Duration = Duration::from_secs(2);

/// What `stat` says about a file: enough to notice an edit in place (size,
/// mtime, ctime) and an atomic rename (inode, device).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fingerprint {
    pub(super) len: u64,
    pub(super) mtime: (i64, i64),
    pub(super) ctime: (i64, i64),
    pub(super) ino: u64,
    pub(super) dev: u64,
}

impl Fingerprint {
    pub(super) fn of(path: &Path) -> Option<Fingerprint> {
        let m = std::fs::metadata(path).ok()?;
        Some(Fingerprint {
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
            ino: m.ino(),
            dev: m.dev(),
        })
    }

    /// Modified so recently that a further same-size write could leave the
    /// fingerprint unchanged (or dated in the future: clock skew).
    pub(super) fn is_racy(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return true;
        };
        // A time before 1970 (negative) is long past: the epoch will do.
        // Nanoseconds are below 10⁹, so they always fit.
        let mtime = Duration::new(
            u64::try_from(self.mtime.0).unwrap_or(0),
            u32::try_from(self.mtime.1).unwrap_or(0),
        );
        mtime + RACY > now
    }
}

/// Whether a file changed by being replaced (another inode in its place)
/// rather than written in place.
pub(super) fn replaced(now: Option<Fingerprint>, before: Option<Fingerprint>) -> bool {
    match (now, before) {
        (Some(n), Some(b)) => (n.ino, n.dev) != (b.ino, b.dev),
        (Some(_), None) => false,
        (None, _) => false,
    }
}

/// The watcher: polls the files' fingerprints every [`POLL`]; once a change
/// has been stable for one poll (at once for a file replaced by a rename)
/// and through the read (so a file being written is not read half way),
/// re-reads the files, and if their bytes
/// differ from the last ones loaded, loads them whole and swaps the new
/// decider in — or, if they do not load, keeps the one in force and says
/// why. Each distinct content is reported once.
pub(super) fn watch(opts: &Options, sources: &Sources, initial: Vec<FileRead>, live: &LiveDecider) {
    let mut seen: Vec<Option<Fingerprint>> = initial.iter().map(|r| r.fingerprint).collect();
    let mut read_at = seen.clone();
    let mut last: Vec<Result<Vec<u8>, String>> = initial.into_iter().map(|r| r.bytes).collect();
    loop {
        std::thread::sleep(POLL);
        let now = sources.fingerprints();
        if now != seen {
            // A file replaced by a rename was written whole before it
            // appeared: read it now. A file changed in place may still be
            // being written: wait for it to hold still for one poll.
            let replaced = now
                .iter()
                .zip(&seen)
                .all(|(n, s)| n == s || replaced(*n, *s));
            seen = now.clone();
            if !replaced {
                continue;
            }
        }
        let racy = now.iter().flatten().any(|f| f.is_racy(SystemTime::now()));
        if now == read_at && !racy {
            continue;
        }
        let started = Instant::now();
        let reads = sources.read();
        let fingerprints: Vec<_> = reads.iter().map(|r| r.fingerprint).collect();
        if fingerprints != now || reads.iter().any(|r| !r.settled) {
            // Written while we read: wait for it to settle.
            continue;
        }
        read_at = fingerprints;
        let bytes: Vec<_> = reads.iter().map(|r| r.bytes.clone()).collect();
        if bytes == last {
            continue;
        }
        last = bytes;
        let result = catch_unwind(AssertUnwindSafe(|| load_decider(opts, sources, &reads)))
            .unwrap_or_else(|_| {
                Err(Failure {
                    diagnostics: vec![whole_file(
                        permc_grammar::diagnostic::CheckId::InternalError,
                        "",
                        "permc failed while loading the policy; please report it",
                    )],
                })
            });
        match result {
            Ok(loaded) => {
                let generation = live.set(Arc::from(loaded.decider));
                event(&json!({
                    "event": "reloaded",
                    "generation": generation,
                    "files": sources.names(),
                    "loadMs": started.elapsed().as_secs_f64() * 1000.0,
                    "version": output::JSON_VERSION,
                    "diagnostics": loaded.warnings,
                }));
            }
            Err(f) => event(&json!({
                "event": "reload_failed",
                "generation": live.generation.load(Ordering::Acquire),
                "files": sources.names(),
                "version": output::JSON_VERSION,
                "diagnostics": f.diagnostics,
            })),
        }
    }
}
