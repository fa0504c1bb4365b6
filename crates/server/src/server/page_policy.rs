//! The content security policy of preview pages, and of the media beside them.
//!
//! Content may hold `javascript:` and `data:text/html` links: the reference pipeline keeps
//! them in the page and in `.plain.html` (both outputs are in the guide's fidelity notes),
//! and siteops renders what the platform renders. The preview host therefore serves every
//! HTML answer with a policy under which such a link runs nothing: scripts only from URLs
//! or with the answer's nonce, no inline handlers, no `javascript:`, no plugins.
//!
//! The nonce goes on the scripts the page's code and siteops put outside `<main>` (those
//! of `head.html`, the live session's reload script), never on anything inside `<main>`
//! (the content) nor on any script of a `.plain.html` (content only).
//!
//! An image opened on its own is a document too: an SVG can hold markup that the SVG rules
//! did not foresee. So every image answer (the branch's media, an image of the code) gets
//! [`MEDIA_POLICY`], under which it runs nothing and loads nothing, and `nosniff`, so that
//! no browser reads it as another type.

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::Response;

use crate::preview::images::media::is_media_name;

/// Largest HTML answer rewritten; a larger one gets the policy without nonces.
const REWRITE_LIMIT: usize = 16 * 1024 * 1024;

/// The policy of an image answer: no script, no loads (inline styles for SVG), and a
/// sandbox (a unique origin, no scripts, no forms, no navigation of other windows).
pub const MEDIA_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/// The policy for an answer whose trusted scripts carry `nonce`.
pub fn policy(nonce: &str) -> String {
    format!("script-src 'self' 'nonce-{nonce}' http: https:; object-src 'none'; base-uri 'self'")
}

/// `response` (the answer to a request for `path`) with its policy: the nonce on its
/// trusted scripts when it is HTML, [`MEDIA_POLICY`] when it is an image.
pub async fn apply(response: Response, path: &str, content_only: bool) -> Response {
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or("");
    if content_type.starts_with("image/") || is_media_name(name) {
        return with_media_policy(response);
    }
    if !content_type.starts_with("text/html") {
        return response;
    }
    let nonce = new_nonce();
    let (mut parts, body) = response.into_parts();
    let known_small = axum::body::HttpBody::size_hint(&body)
        .upper()
        .is_some_and(|size| size <= REWRITE_LIMIT as u64);
    let body = if content_only || !known_small {
        body
    } else {
        match axum::body::to_bytes(body, REWRITE_LIMIT).await {
            Ok(bytes) => match String::from_utf8(bytes.to_vec()) {
                Ok(html) => {
                    parts.headers.remove(header::CONTENT_LENGTH);
                    Body::from(with_nonce(&html, &nonce))
                }
                Err(_) => Body::from(bytes),
            },
            // An answer whose body fails mid-read: nothing sensible to send.
            Err(_) => Body::empty(),
        }
    };
    if let Ok(value) = HeaderValue::from_str(&policy(&nonce)) {
        parts.headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    Response::from_parts(parts, body)
}

fn with_media_policy(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(MEDIA_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// `body` without the nonce that `policy` (the answer's header) names: the page as the
/// platform would serve it, for comparisons (the golden cases).
pub fn without_nonce(body: &[u8], policy: Option<&str>) -> Vec<u8> {
    let nonce = policy
        .and_then(|p| p.split("'nonce-").nth(1))
        .and_then(|rest| rest.split('\'').next());
    match (nonce, std::str::from_utf8(body)) {
        (Some(nonce), Ok(text)) => text
            .replace(&format!(" nonce=\"{nonce}\""), "")
            .into_bytes(),
        _ => body.to_vec(),
    }
}

fn new_nonce() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: a nonce nobody can know in advance is still better than none.
        bytes = (std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()))
        .to_le_bytes();
    }
    hex::encode(bytes)
}

/// `html` with `nonce="…"` on every `<script` start tag outside `<main>…</main>`.
pub(crate) fn with_nonce(html: &str, nonce: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let main = match (lower.find("<main"), lower.rfind("</main>")) {
        (Some(start), Some(end)) if start < end => Some(start..end),
        _ => None,
    };
    let mut out = String::with_capacity(html.len() + 64);
    let mut copied = 0;
    for (at, _) in lower.match_indices("<script") {
        let after = at + "<script".len();
        let is_tag = lower[after..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_whitespace() || c == '>' || c == '/');
        if !is_tag || main.as_ref().is_some_and(|m| m.contains(&at)) {
            continue;
        }
        out.push_str(&html[copied..after]);
        out.push_str(&format!(" nonce=\"{nonce}\""));
        copied = after;
    }
    out.push_str(&html[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_scripts_outside_main_get_the_nonce() {
        let html = "<html><head><SCRIPT src=\"/scripts/aem.js\" type=module></SCRIPT>\
                    <script>init()</script><scripts-x></head><body><main><div>\
                    <script>content()</script><a href=\"javascript:alert(1)\">x</a></div></main>\
                    <script>reload()</script></body></html>";
        let expected = "<html><head><SCRIPT nonce=\"n1\" src=\"/scripts/aem.js\" type=module></SCRIPT>\
                    <script nonce=\"n1\">init()</script><scripts-x></head><body><main><div>\
                    <script>content()</script><a href=\"javascript:alert(1)\">x</a></div></main>\
                    <script nonce=\"n1\">reload()</script></body></html>";
        assert_eq!(with_nonce(html, "n1"), expected);
        let back = without_nonce(expected.as_bytes(), Some(&policy("n1")));
        assert_eq!(String::from_utf8(back).expect("utf-8"), html);
    }

    #[tokio::test]
    async fn images_and_media_get_a_policy_that_runs_nothing() {
        let answer = |content_type: &'static str| {
            let mut response = Response::new(Body::from("<svg/>"));
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
            response
        };
        let media = "/a/media_0123456789abcdef0123456789abcdef01234567.img";
        for (content_type, path) in [
            ("image/svg+xml", "/icons/logo.svg"),
            ("image/png", "/x.png"),
            ("application/octet-stream", media),
        ] {
            let response = apply(answer(content_type), path, false).await;
            let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok());
            assert_eq!(
                header(header::CONTENT_SECURITY_POLICY),
                Some(MEDIA_POLICY),
                "{path}"
            );
            assert_eq!(header(header::X_CONTENT_TYPE_OPTIONS), Some("nosniff"));
        }
        let css = apply(answer("text/css"), "/styles/styles.css", false).await;
        assert!(css.headers().get(header::CONTENT_SECURITY_POLICY).is_none());
        let page = apply(answer("text/html"), "/", false).await;
        let policy = page.headers().get(header::CONTENT_SECURITY_POLICY);
        assert!(policy.is_some_and(|p| p.to_str().is_ok_and(|p| p.contains("nonce"))));
        assert!(!MEDIA_POLICY.contains("script-src"));
        assert!(MEDIA_POLICY.starts_with("default-src 'none'"));
    }

    #[test]
    fn the_policy_allows_no_inline_script_without_the_nonce() {
        let policy = policy("abc");
        let scripts = policy.split(';').next().expect("script-src");
        assert!(scripts.contains("'nonce-abc'"));
        assert!(!policy.contains("unsafe-inline"));
        assert!(policy.contains("object-src 'none'"));
    }
}
