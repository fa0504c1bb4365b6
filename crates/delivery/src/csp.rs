//! The CSP nonce (`steps/csp.js`) on what is not rendered from markdown: the code's static
//! pages and `404.html` (`contentSecurityPolicyOnCode`). Where the answer's policy (its
//! `content-security-policy` headers, or a `<meta http-equiv>` in the body) names
//! `'nonce-aem'`, this answer's nonce replaces it, and the `nonce="aem"` of the scripts and
//! styles the policy covers becomes the nonce. Minimal intrusion: only the start tags it
//! changes are rewritten, byte for byte the rest of the text is the code's.
//!
//! The page rendered from markdown does the same on its tree in `siteops-ingest`; this
//! module only says whether it has something to do ([`page_needs_nonce`]).

use crate::response::Response;
use crate::start_tags::start_tags;

/// The placeholder a policy names.
pub const NONCE_AEM: &str = "'nonce-aem'";

const CSP: &str = "content-security-policy";
const CSP_REPORT_ONLY: &str = "content-security-policy-report-only";

/// The nonce of an answer from 18 random bytes, as the platform makes it (`createNonce`:
/// standard base64, 24 characters, no padding needed).
pub fn nonce_from(bytes: [u8; 18]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(24);
    for chunk in bytes.chunks(3) {
        let n = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        for shift in [18, 12, 6, 0] {
            out.push(char::from(ALPHABET[(n >> shift & 63) as usize]));
        }
    }
    out
}

/// `parseCSP` then `includes`: whether `directive`'s values name `'nonce-aem'` in `policy`
/// (the last of a repeated directive wins, as in the reference).
fn directive_has_nonce(policy: Option<&str>, directive: &str) -> bool {
    let Some(policy) = policy else {
        return false;
    };
    let mut found = None;
    for part in policy.split(';') {
        let mut words = part.trim().split(' ');
        if words.next() == Some(directive) {
            found = Some(words.collect::<Vec<_>>().join(" "));
        }
    }
    found.is_some_and(|values| values.contains(NONCE_AEM))
}

/// `shouldApplyNonce`: whether scripts, and styles, take the nonce under these policies.
fn should_apply(policies: &[Option<&str>]) -> (bool, bool) {
    let any = |directive| policies.iter().any(|p| directive_has_nonce(*p, directive));
    (any("script-src"), any("style-src"))
}

/// Whether a page rendered from markdown with `head_html` and these policy headers has a
/// nonce to apply (the render's `contentSecurityPolicyOnAST` does nothing otherwise).
pub fn page_needs_nonce(
    head_html: Option<&str>,
    header: Option<&str>,
    report_only: Option<&str>,
) -> bool {
    [head_html, header, report_only]
        .iter()
        .any(|text| text.is_some_and(|t| t.contains(NONCE_AEM)))
}

/// `contentSecurityPolicyOnCode`: `response`'s body and policy headers with `nonce`.
pub fn on_code(response: &mut Response, nonce: &str) {
    let header = response.header(CSP).map(str::to_owned);
    let report_only = response.header(CSP_REPORT_ONLY).map(str::to_owned);
    let body = String::from_utf8_lossy(&response.body).into_owned();
    let meta_based = body.contains("http-equiv=\"content-security-policy\"")
        || body.contains("http-equiv=\"Content-Security-Policy\"");
    if !(header.as_deref().is_some_and(|h| h.contains(NONCE_AEM))
        || report_only
            .as_deref()
            .is_some_and(|h| h.contains(NONCE_AEM))
        || (meta_based && body.contains(NONCE_AEM)))
    {
        return;
    }
    let with_nonce = format!("'nonce-{nonce}'");
    let (mut scripts, mut styles) = should_apply(&[header.as_deref(), report_only.as_deref()]);
    let mut out = String::with_capacity(body.len() + 64);
    let mut last = 0;
    for tag in start_tags(&body) {
        out.push_str(&body[last..tag.start]);
        last = tag.end;
        let raw = &body[tag.start..tag.end];
        let is_csp_meta = tag.name == "meta"
            && tag
                .attrs
                .iter()
                .any(|(n, v)| n.to_lowercase() == "http-equiv" && v.to_lowercase() == CSP);
        if is_csp_meta
            && let Some((_, content)) = tag
                .attrs
                .iter()
                .find(|(n, _)| n.to_lowercase() == "content")
        {
            // The meta's own policy decides from here on (without the report-only
            // header, as in the reference).
            (scripts, styles) = should_apply(&[Some(content), header.as_deref()]);
            let moved = tag
                .attrs
                .iter()
                .any(|(n, v)| (n == "move-as-header" || n == "move-to-http-header") && v == "true");
            if header.is_none() && moved {
                // The policy becomes the header and the meta leaves the body.
                response.set_header(CSP, content.replace(NONCE_AEM, &with_nonce));
                continue;
            }
            out.push_str(&raw.replace(NONCE_AEM, &with_nonce));
            continue;
        }
        let has_aem = tag.attr("nonce") == Some("aem");
        let takes_nonce = has_aem
            && match tag.name.as_str() {
                "script" => scripts,
                "link" if tag.attr("as") == Some("script") && scripts => true,
                "style" => styles,
                "link" => styles && tag.attr("rel") == Some("stylesheet"),
                _ => false,
            };
        if takes_nonce {
            out.push_str(&replace_first_nonce_aem(raw, nonce));
        } else {
            out.push_str(raw);
        }
    }
    out.push_str(&body[last..]);
    response.body = out.into_bytes();
    if let Some(header) = header {
        response.set_header(CSP, header.replace(NONCE_AEM, &with_nonce));
    }
    if let Some(report_only) = report_only {
        response.set_header(CSP_REPORT_ONLY, report_only.replace(NONCE_AEM, &with_nonce));
    }
}

/// `raw.replace(/nonce="aem"/i, ...)`: the first `nonce="aem"` in any case.
fn replace_first_nonce_aem(raw: &str, nonce: &str) -> String {
    const NEEDLE: &str = "nonce=\"aem\"";
    let found = raw
        .as_bytes()
        .windows(NEEDLE.len())
        .position(|w| w.eq_ignore_ascii_case(NEEDLE.as_bytes()));
    match found {
        Some(at) => format!(
            "{}nonce=\"{nonce}\"{}",
            &raw[..at],
            &raw[at + NEEDLE.len()..]
        ),
        None => raw.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: &str = "script-src 'nonce-aem' 'strict-dynamic'; style-src 'nonce-aem'; base-uri 'self'; object-src 'none';";

    fn code(body: &str, header: Option<&str>) -> Response {
        let mut response = Response::new(200);
        if let Some(header) = header {
            response.set_header(CSP, header);
        }
        response.body = body.as_bytes().to_vec();
        on_code(&mut response, "N0nce");
        response
    }

    fn body(response: &Response) -> &str {
        std::str::from_utf8(&response.body).unwrap()
    }

    #[test]
    fn header_policy_rewrites_covered_tags_only() {
        let page = "<html><head><script NONCE=\"aem\" src=a></script>\n<link nonce=\"aem\" rel=\"preload\" as=\"script\" href=\"/a.js\"/><style nonce=\"aem\">b{}</style><link rel=\"stylesheet\" nonce=\"aem\"><img nonce=\"aem\"></head></html>";
        let response = code(page, Some("script-src 'nonce-aem'"));
        assert_eq!(
            body(&response),
            page.replacen("NONCE=\"aem\"", "nonce=\"N0nce\"", 1)
                .replacen(
                    "nonce=\"aem\" rel=\"preload\"",
                    "nonce=\"N0nce\" rel=\"preload\"",
                    1
                )
        );
        assert_eq!(response.header(CSP), Some("script-src 'nonce-N0nce'"));
    }

    #[test]
    fn meta_policy_is_rewritten_or_moved() {
        let meta = format!("<meta http-equiv=\"content-security-policy\" content=\"{POLICY}\">");
        let page = format!("{meta}\n<script nonce=\"aem\"></script><style nonce=\"aem\"></style>");
        let response = code(&page, None);
        assert_eq!(
            body(&response),
            page.replace("'nonce-aem'", "'nonce-N0nce'")
                .replace("nonce=\"aem\"", "nonce=\"N0nce\"")
        );
        assert_eq!(response.header(CSP), None);

        let moved = page.replace("<meta ", "<meta move-as-header=\"true\" ");
        let response = code(&moved, None);
        assert_eq!(
            body(&response),
            "\n<script nonce=\"N0nce\"></script><style nonce=\"N0nce\"></style>"
        );
        assert_eq!(
            response.header(CSP),
            Some(POLICY.replace("'nonce-aem'", "'nonce-N0nce'").as_str())
        );

        // A header already there: the meta stays (as written), the header takes the nonce.
        let response = code(&moved, Some("frame-ancestors 'self'"));
        assert!(body(&response).starts_with("<meta move-as-header=\"true\""));
        assert_eq!(response.header(CSP), Some("frame-ancestors 'self'"));
    }

    #[test]
    fn nothing_without_the_placeholder() {
        let page = "<script nonce=\"aem\"></script>";
        assert_eq!(body(&code(page, None)), page);
        assert_eq!(body(&code(page, Some("script-src 'self'"))), page);
        let response = code("", Some("script-src 'nonce-aem'"));
        assert_eq!(response.header(CSP), Some("script-src 'nonce-N0nce'"));
    }

    #[test]
    fn the_pipeline_tests_nonce() {
        let bytes: [u8; 18] = b"rA4nd0mmmrA4nd0mmm".to_owned();
        assert_eq!(nonce_from(bytes), "ckE0bmQwbW1tckE0bmQwbW1t");
    }

    #[test]
    fn pages_needing_a_nonce() {
        assert!(page_needs_nonce(
            Some("<meta content=\"'nonce-aem'\">"),
            None,
            None
        ));
        assert!(page_needs_nonce(None, None, Some("script-src 'nonce-aem'")));
        assert!(!page_needs_nonce(
            Some("<script nonce=\"aem\">"),
            None,
            None
        ));
    }
}
