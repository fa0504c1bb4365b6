//! The two path families of the configuration API: the older one under `/admin` (the
//! interface's, `admin.hlx.page`'s paths) and the newer one under `/api` (the platform's
//! OpenAPI document, `api.aem.live`'s paths). The same handlers serve both; where the two
//! answer differently, a handler takes the [`Family`] of its request and shapes its answer
//! with it, so the difference is stated once, here.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde_json::Value;

use super::ApiError;

/// The code source types the newer family takes: the platform's one, and the interface's
/// external repository, which it answers as that one.
const ANSWERABLE_TYPES: [&str; 2] = ["github", "byogit"];

/// The path family a request came by. The newer family's router marks its requests (an
/// extension, [`Family::Newer`]); a request without the mark came by the older family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Family {
    #[default]
    Older,
    Newer,
}

impl Family {
    /// A configuration document (or the aggregated one) as this family answers it. The
    /// older family answers what is stored. The newer answers as the platform's schemas
    /// say: its code schema has one source type, `github`, and tells an external
    /// repository by its URL host, so the interface's `byogit` is answered as `github`
    /// (its `url`, `raw_url`, `owner` and `repo` are the platform's fields too).
    pub fn shape(self, mut answer: Value) -> Value {
        if self == Family::Newer
            && let Some(kind) = answer.pointer_mut("/code/source/type")
            && kind == "byogit"
        {
            *kind = Value::String("github".into());
        }
        answer
    }

    /// A profile document as this family answers it: as [`Family::shape`] does, and in
    /// the newer family without `apiKeys`, a field the platform's profile schema does not
    /// have (siteops records a profile's keys there; `apiKeys.json` lists them).
    pub fn shape_profile(self, answer: Value) -> Value {
        let mut answer = self.shape(answer);
        if self == Family::Newer
            && let Value::Object(map) = &mut answer
        {
            map.remove("apiKeys");
        }
        answer
    }

    /// Checks a site document about to be written by this family. The newer family's
    /// site schema requires `code` and `content` (the older family takes a site without
    /// them: the interface creates a site, then writes its `code.json`; a site set up the
    /// file-based way has no `content`); 400 naming the first that is missing. Its code
    /// source is one the newer family can answer ([`Family::check_profile`]).
    pub fn check_site(self, document: &Value) -> Result<(), ApiError> {
        if self != Family::Newer {
            return Ok(());
        }
        for part in ["code", "content"] {
            // A member sent as `null` is absent (it is stored so).
            if document.get(part).is_none_or(Value::is_null) {
                return Err(ApiError::bad_request(format!(
                    "`/{part}` is required: a site's document has one (the platform's site \
                     schema)"
                )));
            }
        }
        self.check_profile(document)
    }

    /// Checks a profile document (or a site's, through [`Family::check_site`]) about to
    /// be written by this family. The newer family's code schema knows one source type,
    /// `github`; the interface's `byogit` is taken too (it is answered as `github`), any
    /// other hosted type is the older family's only.
    pub fn check_profile(self, document: &Value) -> Result<(), ApiError> {
        let kind = document
            .pointer("/code/source/type")
            .and_then(Value::as_str);
        match kind {
            Some(kind) if self == Family::Newer && !ANSWERABLE_TYPES.contains(&kind) => {
                Err(ApiError::bad_request(format!(
                    "/code/source/type: `{kind}` is not a code source type here: `github` \
                     (or `byogit`, answered as `github`), as the platform's code schema says"
                )))
            }
            _ => Ok(()),
        }
    }

    pub fn is_newer(self) -> bool {
        self == Family::Newer
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Family {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<Family>()
            .copied()
            .unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_newer_family_answers_byogit_as_github_and_the_older_as_stored() {
        let stored = json!({"code": {"owner": "o", "repo": "r", "source": {"type": "byogit", "url": "https://git.example/o/r"}}});
        let newer = Family::Newer.shape(stored.clone());
        assert_eq!(newer.pointer("/code/source/type"), Some(&json!("github")));
        assert_eq!(
            newer.pointer("/code/source/url"),
            stored.pointer("/code/source/url")
        );
        assert_eq!(Family::Older.shape(stored.clone()), stored);
        let hosted =
            json!({"code": {"source": {"type": "github", "url": "https://github.com/o/r"}}});
        assert_eq!(Family::Newer.shape(hosted.clone()), hosted);
    }
}
