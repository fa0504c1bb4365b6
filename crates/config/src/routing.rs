//! How the transformation worker picks the entry for a page and computes its `{{id}}`.
//! Validation uses it to check entry examples; the worker serves pages with it.

use crate::endpoint::{EndpointTemplate, ExpandError};
use crate::model::api::WorkerEntry;
use siteops_jsregex::{JsRegex, JsRegexError};

/// The first entry, in array order, whose `path` is a prefix of the page path.
pub fn select<'e>(entries: &'e [WorkerEntry], page_path: &str) -> Option<(usize, &'e WorkerEntry)> {
    entries
        .iter()
        .enumerate()
        .find(|(_, entry)| page_path.starts_with(&entry.path))
}

/// Why an entry's regex gives no `{{id}}` for a page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// The entry's regex is not valid (configuration stored before validation, say).
    #[error("{0}")]
    Invalid(JsRegexError),
    #[error("the regex {0} does not match it")]
    NoMatch(String),
}

/// The `{{id}}` of a page: the whole match of the entry's regex, or `None` without one.
pub fn id(entry: &WorkerEntry, page_path: &str) -> Result<Option<String>, IdError> {
    let Some(literal) = &entry.regex else {
        return Ok(None);
    };
    let regex = JsRegex::parse(literal).map_err(IdError::Invalid)?;
    find_id(&regex, literal, page_path).map(Some)
}

/// The whole match of `regex` (parsed from `literal`) in `page_path`.
pub fn find_id(regex: &JsRegex, literal: &str, page_path: &str) -> Result<String, IdError> {
    match regex.find(page_path) {
        Ok(Some(found)) => Ok(found.to_string()),
        Ok(None) => Err(IdError::NoMatch(literal.to_string())),
        Err(error) => Err(IdError::Invalid(error)),
    }
}

/// What an entry makes of one page path: the id (the regex's whole match) and the
/// endpoint, with header placeholders left in place.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Resolution {
    pub id: Option<String>,
    pub endpoint: String,
}

/// Why an entry does not resolve a page path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    #[error("does not start with the entry's path `{0}`")]
    OutsidePath(String),
    #[error("{0}")]
    Id(IdError),
    #[error("the endpoint has invalid placeholders")]
    Placeholders,
    #[error("{0}")]
    Expand(ExpandError),
}

impl ResolveError {
    /// Whether the entry is at fault whatever the page (its regex or its endpoint does
    /// not parse, `{{id}}` without a regex, a placeholder in the origin): the entry's own
    /// rules report that, so no example repeats it.
    pub fn is_the_entrys(&self) -> bool {
        match self {
            // Matching that gives up is this page's problem; a regex that does not parse is the entry's.
            ResolveError::Id(IdError::Invalid(error)) => {
                !matches!(error, JsRegexError::MatchFailed { .. })
            }
            ResolveError::Placeholders => true,
            ResolveError::Expand(error) => {
                matches!(
                    error,
                    ExpandError::MissingId | ExpandError::PlaceholderInOrigin
                )
            }
            ResolveError::OutsidePath(_) | ResolveError::Id(IdError::NoMatch(_)) => false,
        }
    }
}

/// Resolves `page_path` with `entry`, or says why the entry does not handle it.
pub fn resolve(entry: &WorkerEntry, page_path: &str) -> Result<Resolution, ResolveError> {
    if !page_path.starts_with(&entry.path) {
        return Err(ResolveError::OutsidePath(entry.path.clone()));
    }
    let id = id(entry, page_path).map_err(ResolveError::Id)?;
    let template =
        EndpointTemplate::parse(&entry.endpoint).map_err(|_| ResolveError::Placeholders)?;
    let endpoint = template
        .explain(id.as_deref())
        .map_err(ResolveError::Expand)?;
    Ok(Resolution { id, endpoint })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, endpoint: &str, regex: Option<&str>) -> WorkerEntry {
        WorkerEntry {
            path: path.into(),
            endpoint: endpoint.into(),
            regex: regex.map(Into::into),
            template: None,
            headers: None,
            forward_headers: None,
            relative_url_prefix: None,
            array_key: None,
            path_key: None,
            template_api_key: None,
            use_aem_mapping: None,
        }
    }

    #[test]
    fn first_prefix_wins() {
        let entries = [
            entry("/p/", "https://a", None),
            entry("/p/x/", "https://b", None),
        ];
        assert_eq!(select(&entries, "/p/x/1").map(|(i, _)| i), Some(0));
        assert_eq!(select(&entries, "/q"), None);
    }

    #[test]
    fn resolution_fills_the_id_and_keeps_header_placeholders() {
        let e = entry(
            "/products/",
            "https://api.example.com/{{id}}.json?m={{headers.market}}",
            Some(r"/\d+$/"),
        );
        let resolved = resolve(&e, "/products/42").expect("resolves");
        assert_eq!(resolved.id.as_deref(), Some("42"));
        assert_eq!(
            resolved.endpoint,
            "https://api.example.com/42.json?m={{headers['market']}}"
        );
        assert!(resolve(&e, "/products/abc").is_err());
        assert!(resolve(&e, "/other/1").is_err());
    }
}
