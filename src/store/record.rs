//! Record encoding. Records are JSON so the file stays inspectable and old records read with
//! new fields defaulted (`#[serde(default)]`); a change that defaults cannot express is a
//! migration.

use serde::Serialize;
use serde::de::DeserializeOwned;

pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("records serialize to JSON")
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> anyhow::Result<T> {
    Ok(serde_json::from_slice(bytes)?)
}
