//! The CSP nonce on the page's tree (`contentSecurityPolicyOnAST` of the pipeline's
//! `csp.js`, which `render` applies to the site's `head.html`): where the policy (a
//! `content-security-policy` meta, or the answer's policy headers) names `'nonce-aem'`,
//! that becomes this answer's nonce, in the policies and on the scripts and styles marked
//! `nonce="aem"`; a meta that asks to be moved (`move-as-header`, `move-to-http-header`)
//! becomes the header when the answer has none.
//!
//! The answer's headers are not the render's: it returns those it sets, for the delivery
//! to put over its own.

use html5ever::LocalName;

use super::CspInput;
use crate::dom::{HElement, HNode};

/// The placeholder a site writes where the nonce goes.
const NONCE_AEM: &str = "'nonce-aem'";

/// The policy header names, as the render returns them.
const CSP: &str = "content-security-policy";
const CSP_REPORT_ONLY: &str = "content-security-policy-report-only";

/// `contentSecurityPolicyOnAST` on `tree` (the parsed `head.html`): returns the response
/// headers to set, lower-case names.
pub(crate) fn on_tree(tree: &mut Vec<HNode>, csp: &CspInput) -> Vec<(String, String)> {
    let header = csp.header.as_deref().filter(|h| !h.is_empty());
    let header_ro = csp.header_report_only.as_deref().filter(|h| !h.is_empty());
    let meta_path = meta_csp(tree);
    let mut headers = Vec::new();
    if meta_path.is_none() && header.is_none() && header_ro.is_none() {
        return headers; // no policy at all
    }
    let meta_content = meta_path
        .as_deref()
        .and_then(|path| element_at(tree, path).attr("content"))
        .map(str::to_owned);
    let has_nonce = |policy: Option<&str>| policy.is_some_and(|p| p.contains(NONCE_AEM));
    if !(has_nonce(meta_content.as_deref()) || has_nonce(header) || has_nonce(header_ro)) {
        return headers;
    }
    let nonce = &csp.nonce;
    let with_nonce = |policy: &str| policy.replace(NONCE_AEM, &format!("'nonce-{nonce}'"));
    let applies = |directive: &str| {
        [meta_content.as_deref(), header, header_ro]
            .into_iter()
            .flatten()
            .any(|policy| directive_has_nonce(policy, directive))
    };
    let (script, style) = (applies("script-src"), applies("style-src"));
    if let Some(path) = &meta_path {
        let meta = element_at_mut(tree, path);
        // (A meta without `content` fails the reference's request here.)
        if let Some(content) = meta_content.as_deref() {
            set(meta, "content", with_nonce(content));
        }
    }
    if let Some(h) = header {
        headers.push((CSP.to_owned(), with_nonce(h)));
    }
    if let Some(h) = header_ro {
        headers.push((CSP_REPORT_ONLY.to_owned(), with_nonce(h)));
    }
    set_nonces(tree, nonce, script, style);

    if let Some(path) = &meta_path {
        let meta = element_at_mut(tree, path);
        let moves = ["move-as-header", "move-to-http-header"]
            .iter()
            .any(|a| meta.attr(a) == Some("true"));
        if moves {
            if header.is_none() {
                // The meta's policy, with its nonce, goes to the header, and the meta away.
                let content = meta.attr("content").unwrap_or("").to_owned();
                headers.push((CSP.to_owned(), content));
                remove_at(tree, path);
            } else {
                meta.attrs
                    .retain(|(k, _)| &**k != "move-as-header" && &**k != "move-to-http-header");
            }
        }
    }
    headers
}

/// `getMetaCSP`: the first `meta` whose `http-equiv` is `content-security-policy`, else the
/// first whose is `Content-Security-Policy` (the selector matches the value as written),
/// as the indices that lead to it.
fn meta_csp(tree: &[HNode]) -> Option<Vec<usize>> {
    fn find(nodes: &[HNode], value: &str, path: &mut Vec<usize>) -> bool {
        for (i, node) in nodes.iter().enumerate() {
            let HNode::Element(e) = node else { continue };
            path.push(i);
            if (e.is("meta") && e.attr("http-equiv") == Some(value))
                || find(&e.children, value, path)
            {
                return true;
            }
            path.pop();
        }
        false
    }
    ["content-security-policy", "Content-Security-Policy"]
        .into_iter()
        .find_map(|value| {
            let mut path = Vec::new();
            find(tree, value, &mut path).then_some(path)
        })
}

fn element_at<'a>(tree: &'a [HNode], path: &[usize]) -> &'a HElement {
    let (first, rest) = path.split_first().expect("a path to an element");
    let HNode::Element(e) = &tree[*first] else {
        unreachable!("the path leads through elements")
    };
    if rest.is_empty() {
        e
    } else {
        element_at(&e.children, rest)
    }
}

fn element_at_mut<'a>(tree: &'a mut [HNode], path: &[usize]) -> &'a mut HElement {
    let (first, rest) = path.split_first().expect("a path to an element");
    let HNode::Element(e) = &mut tree[*first] else {
        unreachable!("the path leads through elements")
    };
    if rest.is_empty() {
        e
    } else {
        element_at_mut(&mut e.children, rest)
    }
}

fn remove_at(tree: &mut Vec<HNode>, path: &[usize]) {
    match path.split_last() {
        Some((last, [])) => {
            tree.remove(*last);
        }
        Some((last, parent)) => {
            element_at_mut(tree, parent).children.remove(*last);
        }
        None => {}
    }
}

/// `shouldApplyNonce` for one directive of one policy (`parseCSP`: directives split at
/// `;`, each trimmed and cut at its first space; a later directive of a name wins).
fn directive_has_nonce(policy: &str, directive: &str) -> bool {
    let mut found = None;
    for part in policy.split(';') {
        let part = crate::sanitize::js_trim_start(crate::sanitize::js_trim_end(part));
        let (name, values) = part.split_once(' ').unwrap_or((part, ""));
        if name == directive {
            found = Some(values);
        }
    }
    found.is_some_and(|values| values.contains(NONCE_AEM))
}

/// The nonce on `script`s and `link`s `as="script"` (when the policies want one for
/// scripts) and `style`s and `link`s whose first `rel` is `stylesheet` (for styles) marked
/// `nonce="aem"`.
fn set_nonces(nodes: &mut [HNode], nonce: &str, script: bool, style: bool) {
    for node in nodes {
        let HNode::Element(e) = node else { continue };
        if e.attr("nonce") == Some("aem") && !e.foreign {
            let is_link = e.is("link");
            let for_script = e.is("script") || (is_link && e.attr("as") == Some("script"));
            let first_rel = e
                .attr("rel")
                .and_then(|r| r.split_ascii_whitespace().next());
            let for_style = e.is("style") || (is_link && first_rel == Some("stylesheet"));
            if (script && for_script) || (style && for_style) {
                set(e, "nonce", nonce.to_owned());
            }
        }
        set_nonces(&mut e.children, nonce, script, style);
    }
}

fn set(e: &mut HElement, name: &str, value: String) {
    match e.attrs.iter_mut().find(|(k, _)| &**k == name) {
        Some((_, v)) => *v = value,
        None => e.attrs.push((LocalName::from(name), value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_fragment;
    use crate::render::html::format_and_serialise;

    const NONCE: &str = "ckE0bmQwbW1tckE0bmQwbW1t";
    const POLICY: &str =
        "script-src 'nonce-aem' 'strict-dynamic'; style-src 'nonce-aem'; base-uri 'self';";
    const POLICY_N: &str = "script-src 'nonce-ckE0bmQwbW1tckE0bmQwbW1t' 'strict-dynamic'; \
         style-src 'nonce-ckE0bmQwbW1tckE0bmQwbW1t'; base-uri 'self';";
    const ELEMENTS: &str = "<link nonce=\"aem\" rel=\"preload\" as=\"script\" href=\"/a.js\">\
        <script nonce=\"aem\" src=\"/a.js\"></script>\
        <link nonce=\"aem\" rel=\"stylesheet\" href=\"/s.css\">\
        <style nonce=\"aem\">b{}</style>";

    fn run(head: &str, header: Option<&str>, ro: Option<&str>) -> (String, Vec<(String, String)>) {
        let mut tree = parse_fragment(head);
        let csp = CspInput {
            nonce: NONCE.into(),
            header: header.map(str::to_owned),
            header_report_only: ro.map(str::to_owned),
        };
        let headers = on_tree(&mut tree, &csp);
        (format_and_serialise(tree, false), headers)
    }

    /// The serialiser writes `'` in attribute values as a reference, as the reference does.
    fn attr(value: &str) -> String {
        value.replace('\'', "&#x27;")
    }

    fn count(html: &str, what: &str) -> usize {
        html.matches(what).count()
    }

    #[test]
    fn a_meta_policy_gets_the_nonce_and_so_do_its_elements() {
        let (html, headers) = run(
            &format!(
                "<meta http-equiv=\"content-security-policy\" content=\"{POLICY}\">{ELEMENTS}"
            ),
            None,
            None,
        );
        assert!(headers.is_empty());
        assert!(
            html.contains(&format!("content=\"{}\"", attr(POLICY_N))),
            "{html}"
        );
        assert_eq!(count(&html, &format!("nonce=\"{NONCE}\"")), 4, "{html}");
    }

    #[test]
    fn header_policies_get_the_nonce() {
        let (html, headers) = run(ELEMENTS, Some(POLICY), Some("script-src 'nonce-aem'"));
        assert_eq!(
            headers,
            [
                (CSP.to_owned(), POLICY_N.to_owned()),
                (
                    CSP_REPORT_ONLY.to_owned(),
                    format!("script-src 'nonce-{NONCE}'")
                ),
            ]
        );
        assert_eq!(count(&html, &format!("nonce=\"{NONCE}\"")), 4, "{html}");
    }

    #[test]
    fn only_the_directives_that_name_the_placeholder_get_it() {
        let (html, _) = run(ELEMENTS, Some("script-src 'nonce-aem'"), None);
        assert_eq!(count(&html, &format!("nonce=\"{NONCE}\"")), 2, "{html}");
        assert_eq!(count(&html, "nonce=\"aem\""), 2, "{html}");
        let (html, _) = run(ELEMENTS, Some("style-src 'self' 'nonce-aem'"), None);
        assert!(
            html.contains(&format!("<style nonce=\"{NONCE}\">")),
            "{html}"
        );
        assert!(html.contains("<script nonce=\"aem\""), "{html}");
    }

    #[test]
    fn a_meta_asked_to_move_becomes_the_header_unless_there_is_one() {
        let meta = format!(
            "<meta http-equiv=\"content-security-policy\" content=\"{POLICY}\" move-as-header=\"true\">"
        );
        let (html, headers) = run(&meta, None, None);
        assert_eq!(headers, [(CSP.to_owned(), POLICY_N.to_owned())]);
        assert!(!html.contains("<meta"), "{html}");

        let (html, headers) = run(&meta, Some("frame-ancestors 'self'"), None);
        assert_eq!(
            headers,
            [(CSP.to_owned(), "frame-ancestors 'self'".to_owned())]
        );
        assert!(html.contains(&attr(POLICY_N)), "{html}");
        assert!(!html.contains("move-as-header"), "{html}");
    }

    #[test]
    fn without_the_placeholder_nothing_changes() {
        let head = "<meta http-equiv=\"content-security-policy\" content=\"script-src 'nonce-r4nD0m'\" move-as-header=\"true\"><script nonce=\"aem\"></script>";
        let (html, headers) = run(head, Some("script-src 'nonce-r4nD0m'"), None);
        assert!(headers.is_empty());
        assert_eq!(html, format_and_serialise(parse_fragment(head), false));
        let (html, headers) = run("<meta http-equiv=\"content-security-policy\">", None, None);
        assert!(headers.is_empty());
        assert!(html.contains("<meta http-equiv=\"content-security-policy\">"));
    }

    #[test]
    fn the_capitalised_meta_is_found_after_any_lower_case_one() {
        let head = format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'nonce-aem'\">\
             <meta http-equiv=\"content-security-policy\" content=\"{POLICY}\">"
        );
        let (html, _) = run(&head, None, None);
        assert!(
            html.contains(&attr("content=\"script-src 'nonce-aem'\"")),
            "{html}"
        );
        assert!(html.contains(&attr(POLICY_N)), "{html}");
    }
}
