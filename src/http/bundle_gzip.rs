//! The one rule for which web bundle files travel gzip, shared by `build.rs` (a release build
//! embeds `<name>.gz` in place of such a file) and `assets.rs` (a debug build, which reads the
//! bundle from `web/dist` at run time, compresses it on the fly the same way).

use std::io::Write;

/// The file's gzip when that saves a tenth or more (text does: about 70%; the PNG icons do not).
/// The header has no name and a zero time, so one bundle always compresses to the same bytes.
pub fn gzip_if_smaller(raw: &[u8], level: u32) -> Option<Vec<u8>> {
    let mut gz = flate2::GzBuilder::new().write(Vec::new(), flate2::Compression::new(level));
    gz.write_all(raw).ok()?;
    let gz = gz.finish().ok()?;
    (gz.len() * 10 <= raw.len() * 9).then_some(gz)
}
