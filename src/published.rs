//! Every document siteops publishes under `schemas/`: the JSON schemas of the API bodies
//! and repository files, and the OpenAPI document of the service. `siteops schema` writes
//! them; a test fails when the checked-in ones are stale.

use serde_json::Value;
use siteops_config::schema::SchemaKind;

/// The OpenAPI document's path under `schemas/`.
pub const OPENAPI_FILE: &str = "openapi.json";

/// Each document with its path under `schemas/`.
pub fn documents() -> Vec<(&'static str, Value)> {
    let mut documents: Vec<(&'static str, Value)> = SchemaKind::ALL
        .iter()
        .map(|kind| (kind.file_name(), kind.generate()))
        .collect();
    documents.push((OPENAPI_FILE, siteops_server::api::openapi::document()));
    documents
}
