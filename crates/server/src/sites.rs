//! Typed reads of what the administration service stores: a site document's fields
//! (`code`, `content`, `access`) and other JSON records (public configuration, repository
//! registrations, jobs, worker configurations).
//!
//! Every document was validated when it was written, so one that does not read back is
//! damaged (edited by hand, or written by another version): that is an error naming the
//! document and what is wrong, never a silent "absent", which could, for instance, turn a
//! site that requires authentication into an open one. The HTTP answer (500) is made at
//! the route edge ([`crate::admin::ApiError`] from [`SiteError`]).

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::store::{Store, StoreError};
use siteops_config::model::api::{AccessConfig, CodeConfig, ContentConfig};

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("the stored document `{key}` is damaged: {reason}")]
    Damaged { key: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Store key of a site document.
pub fn site_key(org: &str, site: &str) -> String {
    format!("config/{org}/sites/{site}.json")
}

/// Store key of a site's public configuration.
pub fn public_key(org: &str, site: &str) -> String {
    format!("config/{org}/sites/{site}/public.json")
}

/// The JSON record at `key`, typed; `None` when there is none.
pub fn read<T: DeserializeOwned>(store: &dyn Store, key: &str) -> Result<Option<T>, SiteError> {
    let Some(bytes) = store.get(key)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|error| SiteError::Damaged {
            key: key.to_string(),
            reason: error.to_string(),
        })
}

/// A field of `org/site`'s stored document, typed; `None` when the document has none.
pub fn field<T: DeserializeOwned>(
    org: &str,
    site: &str,
    document: &Value,
    name: &str,
) -> Result<Option<T>, SiteError> {
    match document.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => T::deserialize(value)
            .map(Some)
            .map_err(|error| SiteError::Damaged {
                key: site_key(org, site),
                reason: format!("`{name}`: {error}"),
            }),
    }
}

pub fn code(org: &str, site: &str, document: &Value) -> Result<Option<CodeConfig>, SiteError> {
    field(org, site, document, "code")
}

pub fn content(
    org: &str,
    site: &str,
    document: &Value,
) -> Result<Option<ContentConfig>, SiteError> {
    field(org, site, document, "content")
}

pub fn access(org: &str, site: &str, document: &Value) -> Result<Option<AccessConfig>, SiteError> {
    field(org, site, document, "access")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_damaged_field_names_the_document_and_the_field() {
        let document = json!({"code": {"owner": "acme"}, "access": null});
        assert!(
            access("acme", "web", &document)
                .expect("null is absent")
                .is_none()
        );
        assert!(content("acme", "web", &document).expect("absent").is_none());
        let error = code("acme", "web", &document).expect_err("damaged");
        let message = error.to_string();
        assert!(
            message.starts_with(
                "the stored document `config/acme/sites/web.json` is damaged: `code`: missing field"
            ),
            "{message}"
        );
    }
}
