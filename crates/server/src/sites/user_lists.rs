//! User lists: a role entry that is a path of the site's content (`/users.json`, any
//! entry that starts with `/` but not `/groups/`, as the platform's admin reads it) names a
//! sheet whose e-mail addresses hold the role. The platform reads the sheet as previewed
//! (previewing it makes the configuration be read again), and so does siteops: the sheet
//! previewed on the site's `main` branch, read when the site is, so that a new preview of
//! it changes who holds the role from the next request on.
//!
//! Which cells are addresses is siteops's reading (the platform's reader of user lists is
//! not public): the cells of the columns `email`, `e-mail` or `user` (any case) that have
//! an `@` (an address or a glob) or are `*`, of every row of the sheet, or of every sheet
//! of a multi-sheet.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::store::{Store, StoreError, keys};

/// The user lists a site's roles name, each as read from the site's previewed sheet:
/// path (`/users.json`) -> the addresses and globs it lists. A list not previewed is
/// absent: it gives no one the role.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserLists(pub BTreeMap<String, Vec<String>>);

/// The columns of a user list's rows that hold addresses, compared without regard to case.
const ADDRESS_COLUMNS: [&str; 3] = ["email", "e-mail", "user"];

/// The branch whose previews user lists are read from.
const BRANCH: &str = "main";

/// The file a previewed sheet's JSON is stored in (`preview::store::JSON`).
const SHEET_FILE: &str = "data.json";

/// The most a user list is read of; a larger sheet gives no one its role.
const MAX_SHEET_BYTES: usize = 4 * 1024 * 1024;

impl UserLists {
    /// The addresses user list `path` holds (none when it has not been previewed).
    pub fn get(&self, path: &str) -> &[String] {
        self.0.get(path).map(Vec::as_slice).unwrap_or_default()
    }

    /// The addresses a previewed sheet lists ([`ADDRESS_COLUMNS`]).
    pub fn addresses_of(sheet: &Value) -> Vec<String> {
        let sheets: Vec<&Value> = match sheet.get(":names").and_then(Value::as_array) {
            Some(names) => names
                .iter()
                .filter_map(|name| sheet.get(name.as_str()?))
                .collect(),
            None => vec![sheet],
        };
        let rows = sheets
            .into_iter()
            .filter_map(|sheet| sheet.get("data")?.as_array())
            .flatten()
            .filter_map(Value::as_object);
        let mut found = Vec::new();
        for row in rows {
            for (column, value) in row {
                let address = value.as_str().map(str::trim).unwrap_or_default();
                let is_address_column = ADDRESS_COLUMNS
                    .iter()
                    .any(|name| column.trim().eq_ignore_ascii_case(name));
                if is_address_column && (address.contains('@') || address == "*") {
                    found.push(address.to_string());
                }
            }
        }
        found
    }
}

/// What a preview record says of where its files are (`preview::store::PreviewRecord`,
/// which this module, below the preview's, cannot name).
#[derive(Deserialize)]
struct Record {
    revision: String,
    files: Vec<String>,
}

/// The user lists `paths` of `org/site`, each as previewed on `main` (absent when not).
pub(crate) async fn load<'a>(
    store: &dyn Store,
    (org, site): (&str, &str),
    paths: impl IntoIterator<Item = &'a str>,
) -> Result<UserLists, StoreError> {
    let mut lists = BTreeMap::new();
    for path in paths {
        if let Some(sheet) = previewed_sheet(store, (org, site), path).await? {
            lists.insert(path.to_string(), UserLists::addresses_of(&sheet));
        }
    }
    Ok(UserLists(lists))
}

/// The JSON previewed at `path` on the site's `main` branch, if any. A record or sheet
/// that does not parse reads as none (the preview's reader logs those).
async fn previewed_sheet(
    store: &dyn Store,
    (org, site): (&str, &str),
    path: &str,
) -> Result<Option<Value>, StoreError> {
    let page = keys::preview_page(org, site, BRANCH, path);
    // A revision's files never change; if a newer preview removed them between the two
    // reads, the record is read once more.
    for _ in 0..2 {
        let Some(bytes) = store.get(&page.record()).await? else {
            return Ok(None);
        };
        let Ok(record) = serde_json::from_slice::<Record>(&bytes) else {
            return Ok(None);
        };
        if !record.files.iter().any(|file| file == SHEET_FILE) {
            return Ok(None);
        }
        if let Some(bytes) = store
            .get_immutable(&page.file(&record.revision, SHEET_FILE))
            .await?
        {
            if bytes.len() > MAX_SHEET_BYTES {
                return Ok(None);
            }
            return Ok(serde_json::from_slice(&bytes).ok());
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_addresses_of_a_sheet() {
        let sheet = json!({
            "total": 3, "data": [
                {"Email": "ann@acme.example", "Name": "Ann"},
                {"email": "*@agency.example"},
                {"name": "bob@acme.example"},
                {"email": "not an address"}
            ], ":type": "sheet"
        });
        assert_eq!(
            UserLists::addresses_of(&sheet),
            ["ann@acme.example", "*@agency.example"]
        );
        let multi = json!({
            ":names": ["a", "b"], ":type": "multi-sheet",
            "a": {"data": [{"user": "x@acme.example"}]},
            "b": {"data": [{"e-mail": "y@acme.example"}]}
        });
        assert_eq!(
            UserLists::addresses_of(&multi),
            ["x@acme.example", "y@acme.example"]
        );
        assert!(UserLists::addresses_of(&json!(null)).is_empty());
    }
}
