//! Sign-in through a real OpenID provider on loopback (oauth2-mock-server, from npm, in
//! `tests/oidc/`): the authorization code flow with PKCE and a nonce, as a browser follows
//! it, and every way a return that is not the browser's own is refused. And the e-mail
//! sign-in refused wherever others can reach the service.
//!
//! `.ci/run` installs the provider (`npm ci` in `tests/oidc`); elsewhere the provider tests
//! are skipped with a message.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use serde_json::json;
use siteops_server::auth::SignIn;
use siteops_server::auth::oidc::OidcSettings;

use crate::harness::{ORG_ADMIN, TestServer};
use crate::support::repo_root;

/// The provider, stopped when dropped.
struct Provider {
    child: Child,
    issuer: String,
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A provider whose ID tokens sign in `address` (`verified` or not); `None` (the test is
/// skipped, with a message) where it is not installed, except in CI.
fn provider_or_skip(address: &str, verified: bool) -> Option<Provider> {
    let dir = repo_root().join("tests/oidc");
    let installed = dir
        .join("node_modules/oauth2-mock-server")
        .is_dir()
        .then_some(());
    siteops_testkit::or_skip(
        installed,
        "the OpenID provider (`npm ci` in tests/oidc installs it; .ci/run does)",
    )?;
    let mut child = Command::new("node")
        .arg(dir.join("provider.mjs"))
        .env("SIGN_IN_AS", address)
        .env("EMAIL_VERIFIED", if verified { "true" } else { "false" })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node starts the provider");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the provider says where it listens");
    let issuer = line
        .trim()
        .strip_prefix("issuer ")
        .unwrap_or_else(|| panic!("unexpected provider output: {line}"))
        .to_string();
    assert!(issuer.starts_with("http://127.0.0.1:"), "{issuer}");
    Some(Provider { child, issuer })
}

async fn server_for(provider: &Provider) -> TestServer {
    TestServer::start_signing_in(SignIn::Oidc(OidcSettings {
        issuer: provider.issuer.clone(),
        client_id: "siteops".into(),
        client_secret: Some("client-secret".into()),
        redirect_url: None,
    }))
    .await
}

/// A browser that does not follow redirects, so each step is seen.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// The value of the cookie `name` a response sets.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next()?.split_once('='))
        .find(|(key, value)| *key == name && !value.is_empty())
        .map(|(_, value)| value.to_string())
}

fn location(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(LOCATION)
        .and_then(|v| v.to_str().ok())
        .expect("a Location")
        .to_string()
}

/// `/admin/login` and the provider's approval: the return address and the pending cookie.
async fn begin(server: &TestServer, browser: &reqwest::Client) -> (String, String) {
    let login = browser
        .get(server.url("/admin/login"))
        .send()
        .await
        .expect("answered");
    assert_eq!(login.status(), StatusCode::SEE_OTHER);
    let pending = set_cookie(&login, "siteops_sign_in").expect("a pending cookie");
    let authorize = url::Url::parse(&location(&login)).expect("the provider's address");
    let query: std::collections::HashMap<_, _> = authorize.query_pairs().into_owned().collect();
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(query["scope"].split(' ').any(|s| s == "email"), "{query:?}");
    assert!(!query["nonce"].is_empty() && !query["state"].is_empty());
    assert_eq!(query["redirect_uri"], server.url("/admin/profile"));
    let approved = browser
        .get(authorize.as_str())
        .send()
        .await
        .expect("answered");
    assert!(approved.status().is_redirection(), "{}", approved.status());
    (location(&approved), pending)
}

async fn back(browser: &reqwest::Client, to: &str, pending: Option<&str>) -> reqwest::Response {
    let mut request = browser.get(to);
    if let Some(pending) = pending {
        request = request.header(COOKIE, format!("siteops_sign_in={pending}"));
    }
    request.send().await.expect("answered")
}

fn error_of(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("x-error")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn people_sign_in_through_the_provider_and_get_their_roles() {
    let Some(provider) = provider_or_skip(ORG_ADMIN, true) else {
        return;
    };
    let server = server_for(&provider).await;
    let browser = browser();
    let (back_to, pending) = begin(&server, &browser).await;
    assert!(
        back_to.starts_with(&server.url("/admin/profile?")),
        "{back_to}"
    );

    let signed_in = back(&browser, &back_to, Some(&pending)).await;
    assert_eq!(
        signed_in.status(),
        StatusCode::OK,
        "{}",
        error_of(&signed_in)
    );
    let token = set_cookie(&signed_in, "auth_token").expect("the auth_token cookie");
    let page = signed_in.text().await.expect("the profile page");
    assert!(page.contains(ORG_ADMIN), "{page}");

    // The token is the provider's address's: an org administrator creates a site.
    let created = server
        .put(
            "/admin/config/acme/sites/web.json",
            &token,
            &json!({"code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}}}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);

    // The same return again, with its pending cookie: a return is good once (refused
    // before the provider is asked, whether or not it would take its code again).
    let replayed = back(&browser, &back_to, Some(&pending)).await;
    assert_eq!(
        replayed.status(),
        StatusCode::FORBIDDEN,
        "{}",
        error_of(&replayed)
    );
    assert!(
        error_of(&replayed).contains("finished already"),
        "{}",
        error_of(&replayed)
    );
    assert!(set_cookie(&replayed, "auth_token").is_none());

    // The e-mail form is not a way in beside the provider.
    let form = browser
        .post(server.url("/admin/profile"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("email={ORG_ADMIN}&nonce=x"))
        .send()
        .await
        .expect("answered");
    assert_eq!(form.status(), StatusCode::FORBIDDEN);
    assert!(set_cookie(&form, "auth_token").is_none());
}

#[tokio::test]
async fn a_return_that_is_not_the_browsers_own_signs_no_one_in() {
    let Some(provider) = provider_or_skip(ORG_ADMIN, true) else {
        return;
    };
    let server = server_for(&provider).await;
    let victim = browser();
    let attacker = browser();
    let (victims_return, victims_pending) = begin(&server, &victim).await;
    let (_, attackers_pending) = begin(&server, &attacker).await;

    // Without the pending cookie (a link someone was sent), or with another browser's.
    let without = back(&attacker, &victims_return, None).await;
    assert_eq!(
        without.status(),
        StatusCode::FORBIDDEN,
        "{}",
        error_of(&without)
    );
    assert!(error_of(&without).contains("no sign-in is under way"));
    let other = back(&attacker, &victims_return, Some(&attackers_pending)).await;
    assert_eq!(other.status(), StatusCode::FORBIDDEN);
    assert!(error_of(&other).contains("`state` does not match"));
    // A forged pending cookie.
    let forged = back(&attacker, &victims_return, Some("e30.e30.e30")).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    for refused in [&without, &other, &forged] {
        assert!(set_cookie(refused, "auth_token").is_none());
    }
    // The provider's own refusal.
    let denied = back(
        &victim,
        &server.url("/admin/profile?error=access_denied&error_description=no"),
        Some(&victims_pending),
    )
    .await;
    assert_eq!(denied.status(), StatusCode::FORBIDDEN);

    // The victim's own return still signs the victim in.
    let own = back(&victim, &victims_return, Some(&victims_pending)).await;
    assert_eq!(own.status(), StatusCode::OK, "{}", error_of(&own));
}

#[tokio::test]
async fn an_address_the_provider_has_not_verified_is_refused() {
    let Some(provider) = provider_or_skip("someone@acme.example", false) else {
        return;
    };
    let server = server_for(&provider).await;
    let browser = browser();
    let (back_to, pending) = begin(&server, &browser).await;
    let refused = back(&browser, &back_to, Some(&pending)).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(
        error_of(&refused).contains("not verified"),
        "{}",
        error_of(&refused)
    );
    assert!(set_cookie(&refused, "auth_token").is_none());
}

/// The e-mail sign-in (an address is all it asks) never starts where others reach the
/// service: with `--allowed-host`, or listening beyond loopback (refused before binding).
#[tokio::test]
async fn the_email_sign_in_is_refused_beyond_loopback() {
    let temp = tempfile::tempdir().expect("temp dir");
    let base = || {
        TestServer::config(
            temp.path().to_path_buf(),
            &[ORG_ADMIN],
            siteops_server::preview::Limits::default(),
        )
    };
    for config in [
        siteops_server::server::ServerConfig {
            allowed_hosts: vec!["siteops.acme.example".into()],
            ..base()
        },
        siteops_server::server::ServerConfig {
            addr: "0.0.0.0:0".parse().expect("address"),
            ..base()
        },
    ] {
        let error = match siteops_server::server::start(config).await {
            Ok(_) => panic!("the e-mail sign-in started where others reach it"),
            Err(error) => format!("{error:#}"),
        };
        assert!(
            error.contains("--oidc-issuer") && error.contains("--no-sign-in"),
            "{error}"
        );
    }
    // Sign-in off: no sign-in page at all.
    let off = TestServer::start_signing_in(SignIn::Off).await;
    let login = off
        .client
        .get(off.url("/admin/login"))
        .send()
        .await
        .expect("answered");
    assert_eq!(login.status(), StatusCode::NOT_FOUND);
}

/// The `Set-Cookie` line of the cookie `name`, whole (its attributes too).
fn set_cookie_line(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

/// Reached over TLS (a proxy's `X-Forwarded-Proto: https`), the `auth_token` cookie is
/// `Secure`; reached over plain HTTP, it is not (a browser would drop it on loopback).
#[tokio::test]
async fn the_auth_token_cookie_is_secure_behind_tls() {
    let Some(provider) = provider_or_skip(ORG_ADMIN, true) else {
        return;
    };
    let server = server_for(&provider).await;
    for (proto, secure) in [(Some("https"), true), (None, false)] {
        let browser = browser();
        let (back_to, pending) = begin(&server, &browser).await;
        let mut request = browser
            .get(&back_to)
            .header(COOKIE, format!("siteops_sign_in={pending}"));
        if let Some(proto) = proto {
            request = request.header("x-forwarded-proto", proto);
        }
        let signed_in = request.send().await.expect("answered");
        assert_eq!(
            signed_in.status(),
            StatusCode::OK,
            "{}",
            error_of(&signed_in)
        );
        let line = set_cookie_line(&signed_in, "auth_token").expect("the auth_token cookie");
        let attributes: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(attributes.contains(&"Secure"), secure, "{proto:?}: {line}");
        assert!(attributes.contains(&"HttpOnly"), "{line}");
    }
}

/// An `email` claim that is not one clean address (spaces, a newline) is refused, never
/// trimmed into the address it holds (an org administrator's here).
#[tokio::test]
async fn an_email_claim_with_spaces_or_a_newline_is_refused() {
    let Some(provider) = provider_or_skip(&format!(" {ORG_ADMIN} \n"), true) else {
        return;
    };
    let server = server_for(&provider).await;
    let browser = browser();
    let (back_to, pending) = begin(&server, &browser).await;
    let refused = back(&browser, &back_to, Some(&pending)).await;
    assert_eq!(
        refused.status(),
        StatusCode::FORBIDDEN,
        "{}",
        error_of(&refused)
    );
    assert!(
        error_of(&refused).contains("is not one e-mail address"),
        "{}",
        error_of(&refused)
    );
    assert!(set_cookie(&refused, "auth_token").is_none());
}
