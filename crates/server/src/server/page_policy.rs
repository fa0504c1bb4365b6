//! The content security policy of preview pages, and of the media beside them.
//!
//! Content may hold `javascript:` and `data:text/html` links: the reference pipeline keeps
//! them in the page and in `.plain.html` (both outputs are in the guide's fidelity notes),
//! and siteops renders what the platform renders. The preview host therefore serves every
//! HTML answer with a policy under which such a link runs nothing: scripts only from URLs
//! or with the answer's nonce, no inline handlers, no `javascript:`, no plugins.
//!
//! The nonce is the answer's own ([`crate::preview::delivery::new_nonce`]), the one the
//! delivery gave the page where its code asks for one (`nonce="aem"`, `'nonce-aem'`), so
//! that a page with a policy of its own (the boilerplate's `script-src 'nonce-aem'
//! 'strict-dynamic'`) runs under both. Where the page has no nonce policy of its own,
//! the nonce goes on the scripts the page's code and siteops put outside `<main>` (those
//! of `head.html`, the live session's reload script) that have none; where it has one,
//! the page's nonces are the page's business, and only siteops's own scripts carry it (the
//! reload script is written with it), so a script the platform would block stays blocked.
//! Never on anything inside `<main>` (the content), nor on any script of a `.plain.html`
//! (content only), nor a second one on a script that has one. A policy the delivery set
//! (the page's `move-to-http-header`) stays: the host's is added beside it, and a browser
//! enforces both.
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

/// `response` (the answer to a request for `path`, whose nonce is `nonce`) with its
/// policy: the nonce on its trusted scripts when it is HTML, [`MEDIA_POLICY`] when it is
/// an image.
pub async fn apply(response: Response, path: &str, content_only: bool, nonce: &str) -> Response {
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
    let (mut parts, body) = response.into_parts();
    let known_small = axum::body::HttpBody::size_hint(&body)
        .upper()
        .is_some_and(|size| size <= REWRITE_LIMIT as u64);
    // A policy source naming this answer's nonce, however the page's meta element
    // escapes its quotes (`'nonce-…'`, `&#x27;nonce-…&#x27;`): the nonce is random.
    let own_source = format!("nonce-{nonce}");
    let header_names_it = parts
        .headers
        .get_all(header::CONTENT_SECURITY_POLICY)
        .iter()
        .any(|value| value.to_str().is_ok_and(|v| v.contains(&own_source)));
    let body = if content_only || !known_small || header_names_it {
        body
    } else {
        match axum::body::to_bytes(body, REWRITE_LIMIT).await {
            Ok(bytes) => match String::from_utf8(bytes.to_vec()) {
                // A meta policy the delivery gave the nonce: the page's own.
                Ok(html) if html.contains(&own_source) => Body::from(html),
                Ok(html) => {
                    parts.headers.remove(header::CONTENT_LENGTH);
                    Body::from(with_nonce(&html, nonce))
                }
                Err(_) => Body::from(bytes),
            },
            // An answer whose body fails mid-read: nothing sensible to send.
            Err(_) => Body::empty(),
        }
    };
    if let Ok(value) = HeaderValue::from_str(&policy(nonce)) {
        parts.headers.append(header::CONTENT_SECURITY_POLICY, value);
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

/// `html` with `nonce="…"` on every `<script` start tag outside `<main>…</main>` that has
/// no `nonce` attribute yet.
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
        if !is_tag
            || main.as_ref().is_some_and(|m| m.contains(&at))
            || has_attribute(&lower[after..], "nonce")
        {
            continue;
        }
        out.push_str(&html[copied..after]);
        out.push_str(&format!(" nonce=\"{nonce}\""));
        copied = after;
    }
    out.push_str(&html[copied..]);
    out
}

/// Whether the start tag whose attributes begin `tag` (lower case, up to its `>`) has the
/// attribute `name`. Values are skipped, so `data-x="nonce"` is no `nonce`.
fn has_attribute(tag: &str, name: &str) -> bool {
    let bytes = tag.as_bytes();
    let skip_space = |mut at: usize| {
        while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b'/') {
            at += 1;
        }
        at
    };
    let mut at = skip_space(0);
    while at < bytes.len() && bytes[at] != b'>' {
        let start = at;
        while at < bytes.len()
            && !matches!(bytes[at], b'=' | b'>' | b'/')
            && !bytes[at].is_ascii_whitespace()
        {
            at += 1;
        }
        if &tag[start..at] == name {
            return true;
        }
        at = skip_space(at);
        if bytes.get(at) == Some(&b'=') {
            at = skip_space(at + 1);
            match bytes.get(at) {
                Some(&quote @ (b'"' | b'\'')) => {
                    at += 1;
                    while at < bytes.len() && bytes[at] != quote {
                        at += 1;
                    }
                    at += 1;
                }
                _ => {
                    while at < bytes.len() && bytes[at] != b'>' && !bytes[at].is_ascii_whitespace()
                    {
                        at += 1;
                    }
                }
            }
        }
        // A name of nothing (a stray `=`): step over it.
        if at == start {
            at += 1;
        }
        at = skip_space(at);
    }
    false
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

    #[test]
    fn a_script_with_a_nonce_gets_no_second() {
        let html = "<head><script nonce=\"aem\" src=\"/scripts/aem.js\" type=\"module\"></script>\
                    <script data-x=\"nonce\" type=module>a()</script>\
                    <script NONCE='x'>b()</script><script data-nonce=nonce>c()</script></head>";
        let expected = "<head><script nonce=\"aem\" src=\"/scripts/aem.js\" type=\"module\"></script>\
                    <script nonce=\"n1\" data-x=\"nonce\" type=module>a()</script>\
                    <script NONCE='x'>b()</script><script nonce=\"n1\" data-nonce=nonce>c()</script></head>";
        assert_eq!(with_nonce(html, "n1"), expected);
        assert!(!has_attribute(" =nonce>", "nonce"));
        assert!(!has_attribute("", "nonce"));
        assert!(has_attribute(" a b=1 nonce>", "nonce"));
    }

    fn html_answer(body: &'static str, policy: Option<&'static str>) -> Response {
        let mut response = Response::new(Body::from(body));
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        if let Some(policy) = policy {
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(policy),
            );
        }
        response
    }

    async fn text(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body");
        String::from_utf8(bytes.to_vec()).expect("utf-8")
    }

    /// The boilerplate's policy, as the delivery gives it the answer's nonce: the page's
    /// scripts are the page's; a script it did not give the nonce is not given one here.
    #[tokio::test]
    async fn a_page_with_a_nonce_policy_of_its_own_keeps_it_and_gets_the_hosts_beside() {
        let page = "<html><head><script nonce=\"N\" src=\"/scripts/aem.js\"></script>\
                    <script src=\"/scripts/other.js\"></script></head><body></body></html>";
        let own = "script-src 'nonce-N' 'strict-dynamic'; base-uri 'self'; object-src 'none';";
        let response = apply(html_answer(page, Some(own)), "/", false, "N").await;
        let policies: Vec<&str> = response
            .headers()
            .get_all(header::CONTENT_SECURITY_POLICY)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        assert_eq!(policies, [own, policy("N").as_str()]);
        assert_eq!(text(response).await, page);
        // The same policy as a meta element.
        let meta = "<html><head><meta http-equiv=\"content-security-policy\" content=\"script-src &#x27;nonce-N&#x27;\">\
                    <script src=\"/x.js\"></script></head></html>";
        let response = apply(html_answer(meta, None), "/", false, "N").await;
        assert_eq!(text(response).await, meta);
        // Without one, the host's nonce goes on the page's scripts.
        let plain = "<html><head><script src=\"/x.js\"></script></head></html>";
        let response = apply(html_answer(plain, None), "/", false, "N").await;
        assert!(
            text(response)
                .await
                .contains("<script nonce=\"N\" src=\"/x.js\">")
        );
        // Content only: never.
        let response = apply(html_answer(plain, None), "/a.plain.html", true, "N").await;
        assert_eq!(text(response).await, plain);
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
            let response = apply(answer(content_type), path, false, "n").await;
            let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok());
            assert_eq!(
                header(header::CONTENT_SECURITY_POLICY),
                Some(MEDIA_POLICY),
                "{path}"
            );
            assert_eq!(header(header::X_CONTENT_TYPE_OPTIONS), Some("nosniff"));
        }
        let css = apply(answer("text/css"), "/styles/styles.css", false, "n").await;
        assert!(css.headers().get(header::CONTENT_SECURITY_POLICY).is_none());
        let page = apply(answer("text/html"), "/", false, "n").await;
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
