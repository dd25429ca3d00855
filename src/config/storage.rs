//! `[storage]`: where the data lives and how much memory the store's page cache may take.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct StorageConfig {
    pub data_dir: PathBuf,
    /// The store's page cache, in MiB: bounds memory however large the mailbox.
    pub cache_size_mb: u64,
}

impl Default for StorageConfig {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./data"),
            cache_size_mb: crate::store::DEFAULT_CACHE_MB,
        }
    }
}

impl StorageConfig {
    /// A data directory is named; the cache has room to work.
    pub fn check(&self, c: &Check) -> Checked {
        c.ensure(
            !self.data_dir.as_os_str().is_empty(),
            "data_dir",
            &"",
            "must not be empty",
        )?;
        c.at_least("cache_size_mb", self.cache_size_mb, 4, "")
    }
}
