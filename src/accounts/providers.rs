//! The provider table and a detected provider as the API answers them (`GET /api/providers`,
//! `GET /api/providers/detect`); the records are `crate::mail::providers`'.

use serde::Serialize;
use ts_rs::TS;

use crate::mail::providers::{Detected, Provider};

/// `GET /api/providers`.
#[derive(Debug, Serialize, TS)]
pub struct ProvidersResponse {
    pub providers: Vec<Provider>,
}

/// `GET /api/providers/detect`: the address, normalized, and its provider.
#[derive(Debug, Serialize, TS)]
pub struct DetectProviderResponse {
    pub email: String,
    pub provider: Detected,
}
