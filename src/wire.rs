//! The wire contract: every body a handler returns (and the request bodies the web sends), as
//! TypeScript for the web app. Each feature lists its types in its own `wire_types` (with
//! [`export`]); `app::typescript` joins them into `web/src/api/generated.ts`, and
//! `tests/wire.rs` fails when that file differs from what the structs say
//! (`UPDATE_WIRE=1 cargo test --test wire` rewrites it).

use ts_rs::{Config, TS};

/// The generated file's first lines.
pub const HEADER: &str = "// Generated from the server's types by `UPDATE_WIRE=1 cargo test --test wire`.\n// Do not edit: change the Rust type (see src/wire.rs) and regenerate.\n\n";

/// The TypeScript configuration: ids and timestamps are JSON numbers, read as `number`.
pub fn config() -> Config {
    Config::new().with_large_int("number")
}

/// `export type …` of a type, for a feature's `wire_types`.
pub fn export<T: TS + ?Sized>(cfg: &Config) -> String {
    format!("export {}\n", T::decl(cfg))
}

/// A feature's `wire_types(cfg)`: the `export type …` of every type listed.
#[macro_export]
macro_rules! wire_types {
    ($($t:ty),* $(,)?) => {
        /// This feature's part of the wire contract (see `crate::wire`).
        pub fn wire_types(cfg: &ts_rs::Config) -> Vec<String> {
            vec![$($crate::wire::export::<$t>(cfg)),*]
        }
    };
}

/// A TypeScript union of string literals, as ts-rs writes one (tests compare a generated union
/// with the list the server checks against).
pub fn union(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    quoted.join(" | ")
}
