//! The bundled administration service, mounted under `/admin`: configuration API, sign-in,
//! and (through [`crate::server`]) the preview hosts' public configuration.

pub mod answers;
mod caller;
mod code;
pub mod config;
mod effective;
mod error;
mod login;
pub mod oidc;
pub mod preview;
pub mod repos;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::StatusCode;
use axum::routing::{any, get, post};

pub use caller::{caller, cookie_tokens, token_of, tokens_of};
pub use error::ApiError;
pub use login::{Identity, SignIn, SignInNonces};

use crate::app::AppState;
use crate::auth::SigningKey;
use crate::store::{Precondition, Store, StoreError};

/// Largest request body accepted (413 beyond).
pub const BODY_LIMIT: usize = 1024 * 1024;

/// Where the service keeps its token signing key.
pub const SIGNING_KEY: &str = crate::store::keys::SIGNING_KEY;

/// Loads the signing key from the store, creating it on first use: created only if absent,
/// so that instances starting together on one store agree on one key. With
/// `SITEOPS_SECRETS_KEY` it is stored sealed ([`crate::sites::sealed`]): a key found in the
/// clear (from before the secrets key was set) is sealed in place. Its file is readable by
/// its owner only (0600 on Unix), tightened if an older one was not.
pub async fn signing_key(store: &dyn Store) -> anyhow::Result<SigningKey> {
    use crate::sites::sealed;
    let open = |bytes: Vec<u8>| {
        sealed::open_bytes(SIGNING_KEY, bytes)
            .map(SigningKey::from_bytes)
            .map_err(|reason| anyhow::anyhow!("the token signing key `{SIGNING_KEY}`: {reason}"))
    };
    let seal = |bytes: &[u8]| {
        sealed::seal_bytes(SIGNING_KEY, bytes)
            .map_err(|reason| anyhow::anyhow!("the token signing key cannot be sealed: {reason}"))
    };
    let key = match store.get_versioned(SIGNING_KEY).await? {
        Some(stored) => {
            let key = open(stored.bytes.clone())?;
            let sealing = sealed::key().map_err(anyhow::Error::msg)?.is_some();
            if sealing && !sealed::is_sealed(&stored.bytes) {
                let sealed = seal(key.as_bytes())?;
                match store
                    .put_if(SIGNING_KEY, &sealed, Precondition::At(stored.version))
                    .await
                {
                    // Another instance sealed it first: the same key, sealed.
                    Ok(()) | Err(StoreError::Conflict { .. }) => {}
                    Err(error) => return Err(error.into()),
                }
            }
            key
        }
        None => {
            let key = SigningKey::generate()
                .map_err(|e| anyhow::anyhow!("no randomness for a signing key: {e}"))?;
            match store
                .put_if(SIGNING_KEY, &seal(key.as_bytes())?, Precondition::Absent)
                .await
            {
                Ok(()) => key,
                // Another instance created it first: theirs is the key.
                Err(StoreError::Conflict { .. }) => {
                    let bytes = store.get(SIGNING_KEY).await?.ok_or_else(|| {
                        anyhow::anyhow!("the signing key vanished right after it was created")
                    })?;
                    open(bytes)?
                }
                Err(error) => return Err(error.into()),
            }
        }
    };
    store.make_private(SIGNING_KEY).await?;
    Ok(key)
}

pub fn router(state: Arc<AppState>) -> Router {
    // Resources whose methods depend on the name (`public.json`, `secrets.json`) take
    // every method, and answer 405 with their own `Allow`.
    Router::new()
        .route("/openapi.json", get(openapi))
        .route("/login", get(login::login_page))
        .route("/profile", get(login::profile).post(login::sign_in))
        .route("/config/{org}/{file}", get(config::list_sites))
        .route("/config/{org}/sites/{file}", any(config::site))
        .route(
            "/config/{org}/sites/{site}/{file}",
            any(config::sub_resource),
        )
        .route(
            "/config/{org}/sites/{site}/secrets/{file}",
            any(config::secret),
        )
        .route("/code/{org}/{site}/{branch}", post(code::trigger))
        .route("/webhook/code/{org}/{site}", post(code::webhook))
        .route("/job/{org}/{site}/{branch}/code", get(code::list))
        .route("/job/{org}/{site}/{branch}/code/{name}", get(code::one))
        .route("/status/{org}/{site}/{branch}", get(effective::status))
        .route("/preview/{org}/{site}/{branch}", any(preview::handle))
        .route("/preview/{org}/{site}/{branch}/", any(preview::handle))
        .route(
            "/preview/{org}/{site}/{branch}/{*path}",
            any(preview::handle),
        )
        .fallback(|| async { ApiError::not_found("no such administration resource") })
        .with_state(state)
}

/// `GET /admin/openapi.json`: the document of this service ([`crate::openapi`]).
async fn openapi() -> axum::Json<&'static serde_json::Value> {
    static DOCUMENT: std::sync::LazyLock<serde_json::Value> =
        std::sync::LazyLock::new(crate::openapi::document);
    axum::Json(&DOCUMENT)
}

/// The longest org, site, branch or secret name: `<name>.json` must fit a file name of
/// the store (255 bytes on common file systems).
pub const MAX_NAME_LEN: usize = 250;

/// Whether `name` can name an org, site, branch or secret: `[a-z0-9][a-z0-9-]*`, at most
/// [`MAX_NAME_LEN`] characters.
pub fn is_name(name: &str) -> bool {
    name.len() <= MAX_NAME_LEN && siteops_config::rules::is_id(name)
}

/// Checks org, site, branch and secret names from a request path: `[a-z0-9][a-z0-9-]*`
/// (no path traversal, no surprises), at most [`MAX_NAME_LEN`] characters, 400 otherwise,
/// before anything touches the store. Each pair is (what, name).
pub fn check_names(names: &[(&str, &str)]) -> Result<(), ApiError> {
    for (what, name) in names {
        if name.len() > MAX_NAME_LEN {
            return Err(ApiError::bad_request(format!(
                "invalid {what} name: {} characters, longer than the {MAX_NAME_LEN} allowed",
                name.len()
            )));
        }
        if !siteops_config::rules::is_id(name) {
            return Err(ApiError::bad_request(format!(
                "invalid {what} name `{name}`: names are [a-z0-9][a-z0-9-]*"
            )));
        }
    }
    Ok(())
}

/// Longest a request body may take to arrive (408 beyond): a client that sends its body a
/// byte a second holds nothing for long.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Reads a request body of at most [`BODY_LIMIT`] bytes, arriving within [`BODY_TIMEOUT`].
pub async fn read_body(body: Body) -> Result<axum::body::Bytes, ApiError> {
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, BODY_LIMIT)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {BODY_LIMIT} bytes (or could not be read)"),
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// Reads a JSON request body as [`read_body`] does, refusing one whose `Content-Type` is
/// not JSON (415): a browser's cross-site form can send `text/plain`, never JSON, so a body
/// that says it is something else is never taken for a configuration. A body without a
/// `Content-Type` is read (scripts and CLIs).
pub async fn read_json_body(
    headers: &axum::http::HeaderMap,
    body: Body,
) -> Result<axum::body::Bytes, ApiError> {
    if let Some(value) = headers.get(axum::http::header::CONTENT_TYPE)
        && !is_json(value.to_str().unwrap_or_default())
    {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "the request body is `{}`: send JSON, with content-type: application/json",
                String::from_utf8_lossy(value.as_bytes())
            ),
        ));
    }
    read_body(body).await
}

/// `application/json` or `application/<something>+json`, parameters aside.
fn is_json(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|subtype| subtype.ends_with("+json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn mode(path: &std::path::Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .expect("key file")
            .permissions()
            .mode()
            & 0o777
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn the_signing_key_file_is_private_and_a_loose_one_is_tightened() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::store::FsStore::open(dir.path()).expect("store");
        let path = dir.path().join(SIGNING_KEY);
        let key = signing_key(&store).await.expect("created");
        assert_eq!(mode(&path), 0o600);

        // A key file left readable by others (an older version, a copy) is tightened,
        // and kept: tokens signed with it stay valid.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let again = signing_key(&store).await.expect("loaded");
        assert_eq!(again.as_bytes(), key.as_bytes());
        assert_eq!(mode(&path), 0o600);
    }

    #[test]
    fn json_content_types() {
        for json in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
            "application/merge-patch+json",
        ] {
            assert!(is_json(json), "{json}");
        }
        for other in [
            "text/plain",
            "text/plain; charset=application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
            "",
        ] {
            assert!(!is_json(other), "{other}");
        }
    }

    /// Instances starting together on one store agree on one key: one that read "no key"
    /// just before another instance created it takes the other's key.
    #[tokio::test]
    async fn the_signing_key_is_created_once() {
        use crate::store::{FsStore, Precondition, StoreError, Versioned};
        use std::sync::atomic::{AtomicBool, Ordering};

        /// A store where another instance creates the key right after this one's first read.
        struct Racing {
            inner: FsStore,
            raced: AtomicBool,
        }
        #[crate::store::async_trait]
        impl Store for Racing {
            async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
                if !self.raced.swap(true, Ordering::SeqCst) {
                    self.inner.put(key, b"the other instance's key").await?;
                    return Ok(None);
                }
                self.inner.get_versioned(key).await
            }
            async fn put_if(
                &self,
                key: &str,
                bytes: &[u8],
                c: Precondition,
            ) -> Result<(), StoreError> {
                self.inner.put_if(key, bytes, c).await
            }
            async fn delete(&self, key: &str) -> Result<bool, StoreError> {
                self.inner.delete(key).await
            }
            async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
                self.inner.list(prefix).await
            }
            async fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
                self.inner.delete_all(prefix).await
            }
            fn location(&self) -> String {
                self.inner.location()
            }
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let racing = Racing {
            inner: FsStore::open(dir.path()).expect("store"),
            raced: AtomicBool::new(false),
        };
        let key = signing_key(&racing).await.expect("taken");
        assert_eq!(key.as_bytes(), b"the other instance's key");
    }
}
