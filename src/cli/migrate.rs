//! `mailclient migrate`: applies pending store migrations and says what it did.

use crate::config::Config;
use crate::store::{SCHEMA_VERSION, Store};

pub fn run(config: &Config) -> anyhow::Result<()> {
    let (store, ran) = Store::open_and_migrate(&config.storage.data_dir)?;
    if ran.is_empty() {
        println!(
            "store {} is up to date (schema version {SCHEMA_VERSION})",
            store.path().display()
        );
    } else {
        for m in &ran {
            println!("applied migration {}: {}", m.version, m.name);
        }
        println!(
            "store {} is now at schema version {SCHEMA_VERSION}",
            store.path().display()
        );
    }
    Ok(())
}
