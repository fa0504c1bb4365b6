//! Stores written by siteops from before one document per site kept a site's public
//! configuration (`config/<org>/sites/<site>/public.json`) and its secrets
//! (`…/<site>/secrets/<id>.json`: `{value, created, lastModified, origin?}`, sealed whole
//! when the service had a secrets key) beside the site's document. [`fold`] moves them
//! into the document, once, when the service opens the store: each in one transaction
//! under the site's lock, and the old keys are removed only once the document holding
//! their values is written, so nothing is lost if the service stops half way (the next
//! start folds what is left). What the document already holds wins: a part written since
//! is newer than the old file.

use serde::Deserialize;
use serde_json::{Value, json};

use super::{SECRET_ORIGIN, SiteError, read, read_sealed, sealed, without_managed};
use std::sync::Arc;

use crate::store::{KeyedLocks, Store, keys, transact};

/// An old secret file.
#[derive(Deserialize)]
struct OldSecret {
    value: String,
    #[serde(default)]
    created: Option<String>,
    #[serde(rename = "lastModified", default)]
    last_modified: Option<String>,
    #[serde(default)]
    origin: Option<String>,
}

/// Folds every old site folder of the store into its site's document; the number of
/// sites folded.
pub async fn fold_all(store: &Arc<dyn Store>, locks: &KeyedLocks) -> Result<usize, SiteError> {
    let mut folded = 0;
    for org in store.list("config").await? {
        if !crate::sites::is_name(&org) {
            continue;
        }
        let names = store.list(&keys::sites(&org)).await?;
        for site in names.iter().filter(|name| !name.contains('.')) {
            if names.contains(&format!("{site}.json")) && fold(store, locks, &org, site).await? {
                folded += 1;
            }
        }
    }
    Ok(folded)
}

/// Folds `org/site`'s old public configuration and secrets into its document, and removes
/// the old keys; whether there was anything to fold.
pub async fn fold(
    store: &Arc<dyn Store>,
    locks: &KeyedLocks,
    org: &str,
    site: &str,
) -> Result<bool, SiteError> {
    let _guard = locks.lock(&keys::site(org, site)).await;
    let public_key = keys::legacy_public(org, site);
    let secrets_folder = keys::legacy_secrets(org, site);
    let public: Option<Value> = read(store.as_ref(), &public_key).await?;
    let mut secrets = Vec::new();
    for file in store.list(&secrets_folder).await? {
        let Some(id) = file.strip_suffix(".json") else {
            continue;
        };
        let key = format!("{secrets_folder}/{file}");
        if let Some(secret) = read_sealed::<OldSecret>(store.as_ref(), &key).await? {
            secrets.push((id.to_string(), key, secret));
        }
    }
    if public.is_none() && secrets.is_empty() {
        return Ok(false);
    }
    let (public, secrets) = (&public, &secrets);
    let written = transact(store, move |view| {
        Box::pin(async move {
            let store = view.as_ref();
            let Some(mut document) = read::<Value>(store, &keys::site(org, site)).await? else {
                // No document: nothing to fold into; the old files stay as they are.
                return Ok::<bool, SiteError>(false);
            };
            let Value::Object(map) = &mut document else {
                return Err(SiteError::Damaged {
                    key: keys::site(org, site),
                    reason: "the document is not an object".into(),
                });
            };
            if let Some(public) = public
                && map.get("public").is_none_or(Value::is_null)
            {
                map.insert("public".into(), without_managed(public.clone()));
            }
            let entries = map.entry("secrets").or_insert_with(|| json!({}));
            if !entries.is_object() {
                *entries = json!({});
            }
            if let Value::Object(entries) = entries {
                for (id, _, old) in secrets {
                    if entries.contains_key(id) {
                        continue;
                    }
                    entries.insert(id.clone(), entry(org, site, id, old)?);
                }
            }
            // What is written reads back, or it is not written.
            let site = super::Site::from_json(org, site, document)?;
            let bytes = serde_json::to_vec_pretty(&site.json).expect("JSON serializes");
            store
                .put(&keys::site(org, site.name.as_str()), &bytes)
                .await?;
            Ok(true)
        })
    })
    .await?;
    if !written {
        return Ok(false);
    }
    store.delete(&public_key).await?;
    for (_, key, _) in secrets {
        store.delete(key).await?;
    }
    tracing::info!(site = %format!("{org}/{site}"), "folded the old public configuration and secrets into the site's document");
    Ok(true)
}

/// The document's entry of an old secret, its value sealed for the secret's name.
fn entry(org: &str, site: &str, id: &str, old: &OldSecret) -> Result<Value, SiteError> {
    let name = keys::secret(org, site, id);
    let value = sealed::seal_value(&name, &old.value).map_err(|reason| SiteError::Seal {
        key: name.clone(),
        reason,
    })?;
    let now = crate::time::now_rfc3339();
    let created = old.created.clone().unwrap_or_else(|| now.clone());
    let mut entry = json!({
        "id": id, "type": "key", "value": value,
        "created": created,
        "lastModified": old.last_modified.clone().unwrap_or(now),
    });
    if let Some(origin) = &old.origin {
        entry[SECRET_ORIGIN] = json!(origin);
    }
    Ok(entry)
}
