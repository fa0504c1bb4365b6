//! Sign-in through an OpenID Connect provider (`serve --oidc-issuer`), as the platform signs
//! people in through its identity provider: `/login` → the provider → `/profile`, which
//! sets the `auth_token` cookie.
//!
//! The authorization code flow with PKCE, by the `openidconnect` crate: discovery (cached
//! for [`METADATA_TTL`]), the authorization request with a fresh `state`, `nonce` and PKCE
//! challenge, the code exchange with the verifier and the client's credentials, and the ID
//! token's checks (signature by the provider's published keys, issuer, audience, expiry,
//! nonce). The provider's `email` claim is who signs in (refused when the provider says it
//! is not verified); the site roles (`access.admin.role`) and `--org-admin` are addresses,
//! so that is all the mapping needs.
//!
//! The request's pending state (state, nonce, PKCE verifier) rides in a cookie signed with
//! a key derived from the service's signing key ([`PENDING_PURPOSE`]): any instance behind
//! a load balancer can finish a sign-in another began, and the state can never pass for a
//! token. It is good once per browser for [`PENDING_SECONDS`], and only for the browser
//! that began it (the callback's `state` must equal the cookie's). A return is finished
//! once: its `state` is spent on this instance at the first return that carries it (kept
//! until the pending state expires), so replaying the return with its cookie fails; a
//! provider's code is single use too, which holds across instances.
//!
//! The `email` claim must be one clean address (exactly one `@`, no space or control
//! character anywhere): one that is not is refused, never trimmed into another identity.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointMaybeSet, EndpointNotSet,
    EndpointSet, HttpRequest, HttpResponse, IssuerUrl, Nonce, PkceCodeChallenge, PkceCodeVerifier,
    RedirectUrl, Scope, TokenResponse,
};
use serde::{Deserialize, Serialize};

use crate::auth::SigningKey;

/// The client as discovery makes it: an authorization endpoint, a token endpoint if the
/// provider has one.
type Client = CoreClient<
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

/// How long a discovered provider configuration (and its keys) is used before it is read
/// again: keys a provider rotates are picked up within this time.
const METADATA_TTL: Duration = Duration::from_secs(600);
/// How long a sign-in may take at the provider.
pub const PENDING_SECONDS: u64 = 10 * 60;
/// The purpose the pending state's key is derived for.
const PENDING_PURPOSE: &str = "siteops oidc pending sign-in v1";
/// The cookie that carries the pending state.
pub const PENDING_COOKIE: &str = "siteops_sign_in";
/// Longest answer read from the provider.
const ANSWER_LIMIT: usize = 1024 * 1024;
/// Longest a request to the provider may take.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);
/// Most returns remembered as spent at once (each for at most [`PENDING_SECONDS`]); past
/// it, returns are refused until some expire.
const SPENT_LIMIT: usize = 100_000;

/// What `serve` is told about its identity provider. The client secret comes from the
/// environment and is never printed.
#[derive(Clone)]
pub struct OidcSettings {
    /// The issuer URL; its `/.well-known/openid-configuration` is read.
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Where the provider sends the browser back (`…/admin/profile`); by default the
    /// request's own `Host` over `http`, which suits a loopback address; behind a load
    /// balancer, its public address.
    pub redirect_url: Option<String>,
}

impl std::fmt::Debug for OidcSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcSettings")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("redirect_url", &self.redirect_url)
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    #[error("the identity provider `{issuer}` cannot be read: {reason}")]
    Discovery { issuer: String, reason: String },
    #[error("`{0}` is not a valid address for the sign-in's return")]
    RedirectUrl(String),
    #[error(
        "no sign-in is under way in this browser (or it took longer than {PENDING_SECONDS} s): sign in again from /admin/login"
    )]
    NoPendingSignIn,
    #[error("the sign-in's `state` does not match this browser's: sign in again from /admin/login")]
    StateMismatch,
    #[error("the identity provider refused the sign-in: {0}")]
    Refused(String),
    #[error("the identity provider's code exchange failed: {0}")]
    Exchange(String),
    #[error("the identity provider's ID token is not valid: {0}")]
    IdToken(String),
    #[error("the identity provider gave no e-mail address (ask for the `email` scope)")]
    NoEmail,
    #[error("the identity provider says the e-mail address {0} is not verified")]
    Unverified(String),
    #[error(
        "the identity provider's `email` claim {0:?} is not one e-mail address (one `@`, no spaces or control characters): not signed in"
    )]
    NotAnAddress(String),
    #[error(
        "this sign-in was finished already (a return is good once): sign in again from /admin/login"
    )]
    Spent,
    #[error("too many sign-ins under way: try again in a few minutes")]
    TooManyUnderWay,
}

impl OidcError {
    /// Whether the error is the caller's (a stale or forged return), not the provider's.
    pub(crate) fn is_callers(&self) -> bool {
        matches!(
            self,
            OidcError::NoPendingSignIn
                | OidcError::StateMismatch
                | OidcError::Refused(_)
                | OidcError::NoEmail
                | OidcError::Unverified(_)
                | OidcError::NotAnAddress(_)
                | OidcError::Spent
                | OidcError::TooManyUnderWay
        )
    }
}

/// The pending state of one sign-in, kept by the browser in a signed cookie.
#[derive(Debug, Serialize, Deserialize)]
struct Pending {
    state: String,
    nonce: String,
    verifier: String,
    exp: u64,
}

/// A sign-in begun: where to send the browser, and the cookie to set.
#[derive(Debug)]
pub struct Begun {
    pub authorize_url: String,
    pub pending_cookie: String,
}

/// The identity provider, with its discovered configuration cached.
pub struct OidcProvider {
    settings: OidcSettings,
    http: reqwest::Client,
    metadata: Mutex<Option<(Instant, CoreProviderMetadata)>>,
    /// The `state` of each return finished, until its pending state expires.
    spent: Mutex<std::collections::HashMap<String, u64>>,
}

impl std::fmt::Debug for OidcProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcProvider")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl OidcProvider {
    pub fn new(settings: OidcSettings) -> OidcProvider {
        siteops_plan::http::install_crypto_provider();
        let http = reqwest::Client::builder()
            .timeout(PROVIDER_TIMEOUT)
            // The openidconnect crate's advice: no redirects, so a provider's answer can
            // never send the service's requests elsewhere.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("siteops/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("the HTTP client configuration is valid");
        OidcProvider {
            settings,
            http,
            metadata: Mutex::new(None),
            spent: Mutex::default(),
        }
    }

    pub fn settings(&self) -> &OidcSettings {
        &self.settings
    }

    /// Where the provider returns the browser: the configured address, else `host`'s.
    pub fn redirect_url(&self, host: &str) -> String {
        self.settings
            .redirect_url
            .clone()
            .unwrap_or_else(|| format!("http://{host}/admin/profile"))
    }

    async fn metadata(&self) -> Result<CoreProviderMetadata, OidcError> {
        if let Some((at, metadata)) = &*self.metadata.lock().unwrap_or_else(|p| p.into_inner())
            && at.elapsed() < METADATA_TTL
        {
            return Ok(metadata.clone());
        }
        let discovery = |reason: String| OidcError::Discovery {
            issuer: self.settings.issuer.clone(),
            reason,
        };
        let issuer =
            IssuerUrl::new(self.settings.issuer.clone()).map_err(|e| discovery(e.to_string()))?;
        let metadata = CoreProviderMetadata::discover_async(issuer, &http_client(&self.http))
            .await
            .map_err(|e| discovery(error_chain(&e)))?;
        *self.metadata.lock().unwrap_or_else(|p| p.into_inner()) =
            Some((Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    /// The provider's client, returning the browser to `redirect_url`.
    async fn client(&self, redirect_url: &str) -> Result<Client, OidcError> {
        let metadata = self.metadata().await?;
        let redirect = RedirectUrl::new(redirect_url.to_string())
            .map_err(|_| OidcError::RedirectUrl(redirect_url.to_string()))?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(self.settings.client_id.clone()),
            self.settings.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(redirect))
    }

    /// Begins a sign-in: the provider's authorization address (with a fresh state, nonce
    /// and PKCE challenge) and the signed cookie that remembers them.
    pub async fn begin(
        &self,
        redirect_url: &str,
        key: &SigningKey,
        now: u64,
    ) -> Result<Begun, OidcError> {
        let client = self.client(redirect_url).await?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scope(Scope::new("email".into()))
            .set_pkce_challenge(challenge)
            .url();
        let pending = Pending {
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            verifier: verifier.secret().clone(),
            exp: now + PENDING_SECONDS,
        };
        Ok(Begun {
            authorize_url: url.to_string(),
            pending_cookie: key.derive(PENDING_PURPOSE).sign_json(&pending),
        })
    }

    /// Finishes a sign-in on the provider's return: checks `state` against the browser's
    /// pending cookie, exchanges `code`, checks the ID token; the address it signs in.
    pub async fn finish(
        &self,
        code: &str,
        state: &str,
        pending_cookie: Option<&str>,
        redirect_url: &str,
        key: &SigningKey,
        now: u64,
    ) -> Result<String, OidcError> {
        let pending: Pending = pending_cookie
            .and_then(|cookie| key.derive(PENDING_PURPOSE).verify_json(cookie).ok())
            .filter(|pending: &Pending| pending.exp > now)
            .ok_or(OidcError::NoPendingSignIn)?;
        if !super::constant_time_eq(pending.state.as_bytes(), state.as_bytes()) {
            return Err(OidcError::StateMismatch);
        }
        // Spent before the provider is asked: two returns at once cannot both go on.
        self.spend(&pending.state, pending.exp, now)?;
        let client = self.client(redirect_url).await?;
        let answer = client
            .exchange_code(AuthorizationCode::new(code.to_string()))
            .map_err(|e| OidcError::Exchange(error_chain(&e)))?
            .set_pkce_verifier(PkceCodeVerifier::new(pending.verifier))
            .request_async(&http_client(&self.http))
            .await
            .map_err(|e| OidcError::Exchange(error_chain(&e)))?;
        let id_token = answer
            .id_token()
            .ok_or_else(|| OidcError::IdToken("the answer has none".into()))?;
        let claims = id_token
            .claims(&client.id_token_verifier(), &Nonce::new(pending.nonce))
            .map_err(|e| OidcError::IdToken(error_chain(&e)))?;
        let email = claims.email().ok_or(OidcError::NoEmail)?.to_string();
        if !is_one_address(&email) {
            return Err(OidcError::NotAnAddress(email));
        }
        if claims.email_verified() == Some(false) {
            return Err(OidcError::Unverified(email));
        }
        Ok(email)
    }

    /// Marks the return of `state` (good until `exp`) finished; [`OidcError::Spent`] when
    /// it was already.
    fn spend(&self, state: &str, exp: u64, now: u64) -> Result<(), OidcError> {
        let mut spent = self.spent.lock().unwrap_or_else(|p| p.into_inner());
        spent.retain(|_, until| *until > now);
        if spent.contains_key(state) {
            return Err(OidcError::Spent);
        }
        if spent.len() >= SPENT_LIMIT {
            return Err(OidcError::TooManyUnderWay);
        }
        spent.insert(state.to_string(), exp);
        Ok(())
    }
}

/// Whether `text` is one e-mail address as a claim must give it: exactly one `@` with
/// something on each side, and no whitespace or control character anywhere (a claim is
/// never trimmed: ` admin@acme.example\n` is not `admin@acme.example`).
pub(crate) fn is_one_address(text: &str) -> bool {
    text.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty() && !domain.is_empty() && !domain.contains('@')
    }) && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// An error with its causes, one line.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ProviderHttpError(String);

/// The provider's HTTP client for the `openidconnect` crate: this crate's reqwest, no
/// redirects, answers read up to [`ANSWER_LIMIT`]. Each request runs as its own task,
/// whose handle is the `Send + Sync` future the crate asks for.
fn http_client(
    client: &reqwest::Client,
) -> impl Fn(
    HttpRequest,
) -> std::pin::Pin<
    Box<dyn Future<Output = Result<HttpResponse, ProviderHttpError>> + Send + Sync>,
> + use<> {
    let client = client.clone();
    move |request: HttpRequest| {
        let task = tokio::spawn(send(client.clone(), request));
        Box::pin(async move { task.await.map_err(|e| ProviderHttpError(e.to_string()))? })
    }
}

async fn send(
    client: reqwest::Client,
    request: HttpRequest,
) -> Result<HttpResponse, ProviderHttpError> {
    let (parts, body) = request.into_parts();
    let response = client
        .request(parts.method, parts.uri.to_string())
        .headers(parts.headers)
        .body(body)
        .send()
        .await
        .map_err(|e| ProviderHttpError(error_chain(&e)))?;
    let status = response.status();
    let headers = response.headers().clone();
    let body = siteops_plan::http::read_limited(response, ANSWER_LIMIT)
        .await
        .map_err(|e| ProviderHttpError(e.to_string()))?;
    let mut answer = HttpResponse::new(body);
    *answer.status_mut() = status;
    *answer.headers_mut() = headers;
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pending_state_never_passes_for_a_token_and_tokens_never_for_it() {
        let key = SigningKey::from_bytes(b"the service's key".to_vec());
        let pending = Pending {
            state: "s".into(),
            nonce: "n".into(),
            verifier: "v".into(),
            exp: 1000,
        };
        let cookie = key.derive(PENDING_PURPOSE).sign_json(&pending);
        assert!(key.verify(&cookie, 1).is_err());
        let token = key.sign(&crate::auth::Claims {
            sub: "a@b.example".into(),
            iat: 0,
            exp: 1000,
            aud: "*".into(),
            jti: None,
            roles: None,
            profile: None,
        });
        assert!(
            key.derive(PENDING_PURPOSE)
                .verify_json::<Pending>(&token)
                .is_err()
        );
        let read: Pending = key
            .derive(PENDING_PURPOSE)
            .verify_json(&cookie)
            .expect("its own");
        assert_eq!((read.state.as_str(), read.exp), ("s", 1000));
    }

    #[test]
    fn an_email_claim_is_one_clean_address_or_refused() {
        for good in ["a@acme.example", "first.last+tag@sub.acme.example"] {
            assert!(is_one_address(good), "{good}");
        }
        for bad in [
            " admin@acme.example",
            "admin@acme.example\n",
            "admin @acme.example",
            "admin@acme.example\u{0}",
            "a@b@acme.example",
            "@acme.example",
            "admin@",
            "admin",
            "",
        ] {
            assert!(!is_one_address(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_return_is_spent_once() {
        let provider = OidcProvider::new(OidcSettings {
            issuer: "http://127.0.0.1:1".into(),
            client_id: "c".into(),
            client_secret: None,
            redirect_url: None,
        });
        provider.spend("s", 100, 10).expect("first");
        assert!(matches!(
            provider.spend("s", 100, 20),
            Err(OidcError::Spent)
        ));
        provider.spend("t", 100, 20).expect("another");
        // Forgotten once its pending state has expired (and then refused as expired).
        provider.spend("s", 200, 100).expect("expired, forgotten");
    }

    #[test]
    fn the_client_secret_is_never_printed() {
        let settings = OidcSettings {
            issuer: "http://127.0.0.1:1".into(),
            client_id: "siteops".into(),
            client_secret: Some("hunter2".into()),
            redirect_url: None,
        };
        assert!(!format!("{settings:?}").contains("hunter2"));
        assert!(!format!("{:?}", OidcProvider::new(settings)).contains("hunter2"));
    }
}
