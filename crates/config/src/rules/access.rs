//! Rules for the `access` and `public` documents.

use crate::diagnostic::{Code, Diagnostic};
use crate::document::push_token;
use crate::model::api::{AccessConfig, GROUP_REFERENCE_PREFIX, Holder, KNOWN_ROLES, PublicConfig};

pub fn access(access: &AccessConfig) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let Some(roles) = access.admin.as_ref().and_then(|admin| admin.role.as_ref()) else {
        return diagnostics;
    };
    for (role, holders) in &roles.0 {
        if !KNOWN_ROLES.contains(&role.as_str()) {
            diagnostics.push(
                Diagnostic::warning(
                    Code::UnknownRole,
                    format!("`{role}` is not one of the platform's roles: it is a custom role"),
                )
                .with_help(format!("the platform's roles: {}", KNOWN_ROLES.join(", ")))
                .at_key(format!("/admin/role/{role}")),
            );
        }
        if role == "config_admin" {
            continue;
        }
        for (index, entry) in holders.iter().enumerate() {
            if let Some(diagnostic) = invalid_holder(entry) {
                diagnostics.push(diagnostic.at_pointer(format!("/admin/role/{role}/{index}")));
            }
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

/// The problem with a holder entry, if it names nothing ([`Holder`]). A group's
/// existence is a rule across files (`validate`); a user list is any path of the site's
/// content.
fn invalid_holder(entry: &str) -> Option<Diagnostic> {
    let problem = |message: String, help: &str| {
        Some(Diagnostic::error(Code::InvalidAccessEntry, message).with_help(help.to_string()))
    };
    match Holder::of(entry) {
        Holder::Everyone | Holder::Group(_) | Holder::UserList(_) => None,
        Holder::Address(address) if is_email(address) => None,
        // An empty entry names no one; the platform's schema takes it.
        Holder::Invalid("") => None,
        Holder::Invalid(reference) if reference.starts_with(GROUP_REFERENCE_PREFIX) => problem(
            format!("`{reference}` is not a group reference: they are `/groups/<id>.json`"),
            "a group's id has letters, digits, `-`, `_` and `=`, for example `/groups/editors.json`",
        ),
        Holder::Address(_) | Holder::Invalid(_) => problem(
            format!(
                "`{}` is neither an e-mail address or glob, a group, a user list nor `*`",
                entry.trim()
            ),
            "list e-mail addresses (`*@acme.example` for a domain), groups (`/groups/editors.json`, or the id), user lists (a sheet's path, `/users.json`), or `*` to allow everyone",
        ),
    }
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
