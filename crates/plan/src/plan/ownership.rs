//! Which parts of a live document the repository manages, and the document apply writes.
//!
//! The service keeps one document per site (and per profile, and the org's), and parts of
//! it come from elsewhere: a CDN block or headers set by hand, minted API keys, secrets the
//! service made, a role granted in the platform's interface. The repository manages only
//! what it declares:
//! - each top-level part its compiled body has (`code`, `content`, `access`, `cdn`, …),
//!   whole;
//! - except the maps of [`PER_KEY`] (`access.admin.role`), managed key by key: a role the
//!   repository lists is replaced, one it does not list is left alone.
//!
//! The plan compares only the managed parts ([`owned`]); apply reads the document again,
//! refuses when it changed since the plan read it ([`digest`]), and writes the document
//! read with the managed parts replaced ([`merged`]). A part the repository stops
//! declaring stays on the service as it is.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::diff::SERVER_MANAGED;

/// Maps inside a managed part that the repository manages key by key.
pub const PER_KEY: [&str; 1] = ["/access/admin/role"];

/// The parts of a document that the plan writes through paths of their own before the
/// document itself (a site's `public.json`, `secrets/<id>.json`): [`digest`] leaves them
/// out, so that the plan's own writes do not read as someone else's.
const WRITTEN_APART: [&str; 2] = ["public", "secrets"];

/// `live` as far as `desired` manages it: its top-level parts that `desired` has, and of
/// the [`PER_KEY`] maps the keys `desired` has.
pub fn owned(live: &Value, desired: &Value) -> Value {
    let (Value::Object(live), Value::Object(wanted)) = (live, desired) else {
        return live.clone();
    };
    let managed: Map<String, Value> = live
        .iter()
        .filter(|(key, _)| wanted.contains_key(*key))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let mut out_value = Value::Object(managed);
    for pointer in PER_KEY {
        let keys: Vec<String> = desired
            .pointer(pointer)
            .and_then(Value::as_object)
            .map(|map| map.keys().cloned().collect())
            .unwrap_or_default();
        if let Some(Value::Object(map)) = out_value.pointer_mut(pointer) {
            map.retain(|key, _| keys.contains(key));
        }
        drop_emptied(&mut out_value, desired, pointer);
    }
    out_value
}

/// Removes the map at `pointer` and its ancestors below the top level where they are empty
/// and `desired` lacks them: what was left of them was unmanaged.
fn drop_emptied(value: &mut Value, desired: &Value, pointer: &str) {
    let mut pointer = pointer.to_string();
    while let Some((parent, key)) = pointer.rsplit_once('/') {
        if parent.is_empty() {
            return;
        }
        let empty = value
            .pointer(&pointer)
            .is_some_and(|v| v.as_object().is_some_and(Map::is_empty));
        if !empty || desired.pointer(&pointer).is_some() {
            return;
        }
        if let Some(Value::Object(map)) = value.pointer_mut(parent) {
            map.remove(key);
        }
        pointer = parent.to_string();
    }
}

/// The document apply writes: `live` without the fields the service stamps, each part
/// `desired` has replaced by its, and the keys of the [`PER_KEY`] maps that `desired`
/// lacks kept from `live`.
pub fn merged(live: &Value, desired: &Value) -> Value {
    let (Value::Object(live_map), Value::Object(wanted)) = (live, desired) else {
        return desired.clone();
    };
    let mut out = live_map.clone();
    for field in SERVER_MANAGED {
        out.remove(field);
    }
    for (key, value) in wanted {
        out.insert(key.clone(), value.clone());
    }
    let mut out = Value::Object(out);
    for pointer in PER_KEY {
        let Some(Value::Object(kept)) = live.pointer(pointer) else {
            continue;
        };
        // Only where the repository manages the part that holds the map.
        let part = pointer.split('/').nth(1).unwrap_or_default();
        if !wanted.contains_key(part) {
            continue;
        }
        let Some(map) = object_at(&mut out, pointer) else {
            continue;
        };
        for (key, value) in kept {
            map.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    out
}

/// The object at `pointer`, made (with its ancestors) where absent; `None` where a value
/// on the way is not an object.
fn object_at<'a>(value: &'a mut Value, pointer: &str) -> Option<&'a mut Map<String, Value>> {
    let mut here = value;
    for segment in pointer.split('/').skip(1) {
        let map = here.as_object_mut()?;
        here = map
            .entry(segment.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    here.as_object_mut()
}

/// `sha256:<hex>` of a live document as read (`absent` when there is none), without the
/// fields the service stamps and the parts written apart ([`WRITTEN_APART`]): apply
/// compares the document it reads before writing with what the plan read.
pub fn digest(live: Option<&Value>) -> String {
    let Some(live) = live else {
        return "absent".into();
    };
    let mut live = live.clone();
    if let Value::Object(map) = &mut live {
        for field in SERVER_MANAGED.iter().chain(&WRITTEN_APART) {
            map.remove(*field);
        }
    }
    // serde_json's map is sorted: the serialization is canonical.
    let bytes = serde_json::to_vec(&live).expect("JSON serializes");
    format!("sha256:{}", hex::encode(Sha256::digest(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn live() -> Value {
        json!({
            "version": 1,
            "created": "2024-01-01T00:00:00Z",
            "lastModified": "2024-01-02T00:00:00Z",
            "code": {"owner": "acme", "repo": "web"},
            "cdn": {"prod": {"type": "fastly", "host": "www.acme.example"}},
            "apiKeys": {"k1": {"id": "k1", "roles": ["publish"]}},
            "secrets": {"made": {"id": "made", "hash": "h"}},
            "access": {"admin": {"role": {"admin": ["a@acme.example"], "author": ["b@acme.example"]}}},
        })
    }

    #[test]
    fn the_plan_compares_only_the_parts_and_roles_the_repository_declares() {
        let desired = json!({
            "code": {"owner": "acme", "repo": "web"},
            "access": {"admin": {"role": {"admin": ["c@acme.example"]}}},
        });
        assert_eq!(
            owned(&live(), &desired),
            json!({
                "code": {"owner": "acme", "repo": "web"},
                "access": {"admin": {"role": {"admin": ["a@acme.example"]}}},
            })
        );
        // Roles the repository does not list leave nothing behind to compare.
        let no_roles = json!({"access": {"site": {"requireAuth": "auto"}}});
        assert_eq!(owned(&live(), &no_roles), json!({"access": {}}));
        let other_role = json!({"access": {"admin": {"role": {"publish": ["p@acme.example"]}}}});
        assert_eq!(
            owned(&live(), &other_role),
            json!({"access": {"admin": {"role": {}}}})
        );
    }

    #[test]
    fn apply_writes_the_live_document_with_the_managed_parts_replaced() {
        let desired = json!({
            "code": {"owner": "acme", "repo": "site"},
            "access": {"admin": {"role": {"admin": ["c@acme.example"]}}},
        });
        assert_eq!(
            merged(&live(), &desired),
            json!({
                "version": 1,
                "code": {"owner": "acme", "repo": "site"},
                "cdn": {"prod": {"type": "fastly", "host": "www.acme.example"}},
                "apiKeys": {"k1": {"id": "k1", "roles": ["publish"]}},
                "secrets": {"made": {"id": "made", "hash": "h"}},
                "access": {"admin": {"role": {"admin": ["c@acme.example"], "author": ["b@acme.example"]}}},
            })
        );
        // Without `access` in the repository, the live one stays whole.
        let code_only = json!({"code": {"owner": "acme", "repo": "site"}});
        assert_eq!(merged(&live(), &code_only)["access"], live()["access"]);
        // Roles kept even where the repository's access has no `admin` block.
        let site_only = json!({"access": {"site": {"requireAuth": "auto"}}});
        assert_eq!(
            merged(&live(), &site_only)["access"],
            json!({"site": {"requireAuth": "auto"}, "admin": {"role": {"admin": ["a@acme.example"], "author": ["b@acme.example"]}}})
        );
    }

    #[test]
    fn the_digest_ignores_stamps_and_the_parts_written_apart() {
        let mut later = live();
        later["lastModified"] = json!("2024-02-01T00:00:00Z");
        later["secrets"]["new"] = json!({"id": "new"});
        later["public"] = json!({"x": 1});
        assert_eq!(digest(Some(&live())), digest(Some(&later)));
        later["cdn"]["prod"]["host"] = json!("acme.example");
        assert_ne!(digest(Some(&live())), digest(Some(&later)));
        assert_eq!(digest(None), "absent");
    }
}
