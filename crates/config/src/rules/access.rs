//! Rules for the `access` and `public` documents.

use crate::diagnostic::{Code, Diagnostic};
use crate::document::push_token;
use crate::model::api::{AccessConfig, PublicConfig};

pub fn access(access: &AccessConfig) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let Some(roles) = access.admin.as_ref().and_then(|admin| admin.role.as_ref()) else {
        return diagnostics;
    };
    for (index, entry) in roles.get("admin").into_iter().flatten().enumerate() {
        if entry != "*" && !is_email(entry) {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidAccessEntry,
                    format!("`{entry}` is neither an e-mail address nor `*`"),
                )
                .with_help("list e-mail addresses, or `*` to allow everyone")
                .at_pointer(format!("/admin/role/admin/{index}")),
            );
        }
    }
    for (index, entry) in roles.get("config_admin").into_iter().flatten().enumerate() {
        if entry.is_empty() || entry.chars().any(char::is_whitespace) {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidAccessEntry,
                    format!("`{entry}` is not a technical account identifier"),
                )
                .with_help("technical account identifiers have no spaces, for example `1A2B3C@techacct.example.com`")
                .at_pointer(format!("/admin/role/config_admin/{index}")),
            );
        }
    }
    diagnostics
}

/// A practical e-mail check: one `@`, a non-empty local part, a dotted domain, no spaces.
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    let labels_ok = domain
        .split('.')
        .all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'));
    !local.is_empty()
        && domain.contains('.')
        && labels_ok
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
        && !domain.contains('@')
}

pub fn public(public: &PublicConfig) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let Some(paths) = &public.paths else {
        return diagnostics;
    };
    for (index, mapping) in paths.mappings.iter().flatten().enumerate() {
        let valid = mapping
            .split_once(':')
            .is_some_and(|(from, to)| is_abs_path(from) && is_abs_path(to));
        if !valid {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidMapping,
                    format!("mapping `{mapping}` is not `<source path>:<target path>`"),
                )
                .with_help("both sides are absolute paths, for example `/content/site/:/`")
                .at_pointer(push_token("/paths/mappings", &index.to_string())),
            );
        }
    }
    for (index, include) in paths.includes.iter().flatten().enumerate() {
        if !is_abs_path(include) {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidInclude,
                    format!("include `{include}` is not an absolute path prefix"),
                )
                .with_help("includes start with `/`, for example `/content/site/`")
                .at_pointer(push_token("/paths/includes", &index.to_string())),
            );
        }
    }
    diagnostics
}

fn is_abs_path(path: &str) -> bool {
    path.starts_with('/') && !path.contains(':') && !path.chars().any(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for good in ["a@b.co", "first.last+tag@sub.example.com"] {
            assert!(is_email(good), "{good}");
        }
        for bad in [
            "a", "@b.co", "a@b", "a b@c.de", "a@b..c", "a@@b.co", "a@-b.co",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
