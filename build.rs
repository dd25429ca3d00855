//! Points rust-embed at the web bundle: `web/dist` when it has been built, otherwise a
//! generated page telling how to build it, so `cargo build`, `clippy` and the Rust tests work
//! on a fresh clone before `npm run build`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dist = manifest.join("web").join("dist");
    println!("cargo:rerun-if-changed=web/dist");
    let dir = if dist.join("index.html").is_file() {
        dist
    } else {
        let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("web-not-built");
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("index.html"), NOT_BUILT).unwrap();
        out
    };
    println!("cargo:rustc-env=EMBED_WEB_DIST={}", dir.display());
    println!("cargo:rustc-env=EMBED_WEB_STAMP={}", stamp(&dir));
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
