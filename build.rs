//! Points rust-embed at the web bundle: `web/dist` when it has been built (a release build: a
//! gzip copy of it), otherwise a generated page telling how to build it, so `cargo build`,
//! `clippy` and the Rust tests work on a fresh clone before `npm run build`.
//!
//! A release build embeds each bundle file that gzip makes at least a tenth smaller as
//! `<name>.gz` only (`src/http/assets.rs` sends those bytes as they are to a browser that accepts
//! gzip, and inflates them for one that does not); the rest (icons) as they are. The bundle is
//! 1.6 MB as built and about a third of that compressed, in the binary and on the wire. A debug
//! build reads `web/dist` itself at run time, so a rebuilt bundle is served without a cargo build.
//!
//! It also packs the binary's relative relocations (`-z pack-relative-relocs`, DT_RELR) where
//! glibc reads them: the position-independent executable's 2.1 MB of `.rela.dyn` becomes a few kB.
//! Such a binary needs glibc 2.36 or later where it runs; `MAILCLIENT_PLAIN_RELOCS=1` builds one
//! for an older system (docs/OPERATIONS.md).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::UNIX_EPOCH;

#[path = "src/http/bundle_gzip.rs"]
mod bundle_gzip;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dist = manifest.join("web").join("dist");
    println!("cargo:rerun-if-changed=web/dist");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    let built = dist.join("index.html").is_file();
    let dir = if built && !release {
        dist.clone()
    } else {
        let out = out_dir.join("web-embed");
        let _ = fs::remove_dir_all(&out);
        fs::create_dir_all(&out).unwrap();
        if built {
            compress_tree(&dist, &out);
        } else {
            fs::write(out.join("index.html"), NOT_BUILT).unwrap();
        }
        out
    };
    let stamp = stamp(if built { &dist } else { &dir });
    println!("cargo:rustc-env=EMBED_WEB_DIST={}", dir.display());
    println!("cargo:rustc-env=EMBED_WEB_STAMP={stamp}");
    if glibc_reads_packed_relocations() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Copies `from` into `to`, each file as `<name>.gz` when gzip saves a tenth or more.
fn compress_tree(from: &Path, to: &Path) {
    for e in fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            fs::create_dir_all(&dst).unwrap();
            compress_tree(&src, &dst);
            continue;
        }
        let raw = fs::read(&src).unwrap();
        match bundle_gzip::gzip_if_smaller(&raw, 9) {
            Some(gz) => {
                let mut name = e.file_name();
                name.push(".gz");
                fs::write(to.join(name), gz).unwrap();
            }
            None => fs::write(dst, raw).unwrap(),
        }
    }
}

/// Whether the binary may pack its relocations: a native Linux build against glibc 2.36 or
/// later, the first that reads DT_RELR (rustc links with its own LLD, which packs them whatever
/// the system's glibc, so the check is of the glibc the binary will load).
fn glibc_reads_packed_relocations() -> bool {
    println!("cargo:rerun-if-env-changed=MAILCLIENT_PLAIN_RELOCS");
    let native = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    if !native
        || std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux")
        || std::env::var("CARGO_CFG_TARGET_ENV").as_deref() != Ok("gnu")
        || std::env::var_os("MAILCLIENT_PLAIN_RELOCS").is_some()
    {
        return false;
    }
    // `getconf GNU_LIBC_VERSION` prints e.g. "glibc 2.36".
    let Ok(out) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut version = text.trim().trim_start_matches("glibc ").split('.');
    let major: u32 = version.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    let minor: u32 = version.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    (major, minor) >= (2, 36)
}

/// A cheap fingerprint of the bundle: file names, sizes and modification times.
fn stamp(dir: &Path) -> String {
    let mut acc: u64 = 1469598103934665603;
    let mut stack = vec![dir.to_path_buf()];
    let mut entries = Vec::new();
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(m) = e.metadata() {
                let t = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map(|d| d.as_nanos())
                    .unwrap_or(0);
                entries.push(format!("{}:{}:{}", p.display(), m.len(), t));
            }
        }
    }
    entries.sort();
    for b in entries.join("\n").bytes() {
        acc = (acc ^ b as u64).wrapping_mul(1099511628211);
    }
    format!("{acc:016x}")
}

const NOT_BUILT: &str = r#"<!doctype html>
<html lang="he" dir="rtl"><head><meta charset="utf-8"><title>mailclient</title></head>
<body><h1>ממשק הווב לא נבנה</h1>
<p>הקובץ הבינארי נבנה בלי ממשק הווב. בנו אותו כך: <code dir="ltr">cd web &amp;&amp; npm ci &amp;&amp; npm run build</code>, ואז בנו מחדש את mailclient.</p>
<p dir="ltr">The web app was not built. Run <code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code>, then rebuild mailclient.</p>
</body></html>
"#;
