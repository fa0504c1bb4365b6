//! What each of the platform's roles may do, and who holds a role.
//!
//! The roles and their permissions are the platform's (its administration service's
//! permission table: `admin` holds every permission, `basic_author` ⊂ `author` ⊂
//! `publish`, `develop` = `author` + code, `config_admin` = `publish` + `config:read` and
//! `config:write`, `config` only `config:read-redacted`), reduced to the permissions
//! siteops's routes ask for. A custom role (any other name `admin.role` grants) carries
//! no permission here: the platform gives it none either.
//!
//! A holder entry is `*` (every signed-in caller), an e-mail glob (`*@acme.example`,
//! `web@acme.example`; `*` stands for any run of characters, compared without regard to
//! case), or, without an `@`, the id of one of the site's `groups`, whose members' e-mail
//! addresses are matched the same way.

use siteops_config::model::api::Groups;

/// A permission a siteops route asks for (the platform's names in the docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// `config:read`.
    ConfigRead,
    /// `config:write`.
    ConfigWrite,
    /// `config:admin-acl`: change who administers the site, open it, delete it.
    AdminAcl,
    /// `preview:read`: the preview host's pages.
    PreviewRead,
    /// `preview:write`: preview a page.
    PreviewWrite,
    /// `code:write`: sync code.
    CodeWrite,
    /// `job:read`.
    JobRead,
}

use Permission::*;

const EVERY: &[Permission] = &[
    ConfigRead,
    ConfigWrite,
    AdminAcl,
    PreviewRead,
    PreviewWrite,
    CodeWrite,
    JobRead,
];
/// `basic_author`, and every role built on it (`basic_publish`, `author`, `publish`,
/// `develop`): preview, code, jobs; no configuration.
const AUTHORING: &[Permission] = &[PreviewRead, PreviewWrite, CodeWrite, JobRead];
const CONFIG_ADMIN: &[Permission] = &[
    PreviewRead,
    PreviewWrite,
    CodeWrite,
    JobRead,
    ConfigRead,
    ConfigWrite,
];

/// The permissions `role` carries.
pub fn of_role(role: &str) -> &'static [Permission] {
    match role {
        "admin" | "ops" => EVERY,
        "basic_author" | "basic_publish" | "author" | "publish" | "develop" => AUTHORING,
        "config_admin" => CONFIG_ADMIN,
        // The platform's defaults (read) and its `index` and `code` roles.
        "index" => &[PreviewRead],
        "code" => &[PreviewRead, CodeWrite, JobRead],
        // `config` reads configuration redacted only; `media_author` uploads media: neither
        // is a siteops route. Custom roles carry nothing.
        _ => &[],
    }
}

/// Whether `subject` (an e-mail address or technical account) is one of `holders`. A
/// group reference names a group of the first of `groups` that defines its id (the
/// site's, then the org's).
pub fn holds(holders: &[String], subject: &str, groups: &[Option<&Groups>]) -> bool {
    holders.iter().any(|entry| {
        let entry = entry.trim();
        if entry == "*" || entry.contains('@') {
            return glob_matches(entry, subject);
        }
        groups
            .iter()
            .flatten()
            .find_map(|groups| groups.0.get(entry))
            .is_some_and(|group| {
                group
                    .members
                    .iter()
                    .any(|member| glob_matches(&member.email, subject))
            })
    })
}

/// `pattern` with `*` for any run of characters, against `text`, ASCII case folded (as
/// e-mail addresses compare in practice).
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let pattern = pattern.trim().to_ascii_lowercase();
    let text = text.trim().to_ascii_lowercase();
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        // No `*`: the whole text.
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn globs() {
        for (pattern, text, matches) in [
            ("*", "a@b.example", true),
            ("*@acme.example", "Web@ACME.example", true),
            ("*@acme.example", "web@acme.example.evil", false),
            ("web@acme.example", "web@acme.example", true),
            ("web@acme.example", "xweb@acme.example", false),
            ("w*b@*.example", "web@acme.example", true),
            ("a*a", "a", false),
            ("a*a", "aa", true),
        ] {
            assert_eq!(glob_matches(pattern, text), matches, "{pattern} ~ {text}");
        }
    }

    #[test]
    fn group_references_name_the_sites_groups() {
        let groups: Groups = serde_json::from_value(json!({
            "writers": {"members": [{"email": "*@agency.example"}, {"email": "ann@acme.example"}]}
        }))
        .unwrap();
        let holders = ["writers".to_string()];
        assert!(holds(&holders, "bob@agency.example", &[Some(&groups)]));
        assert!(holds(&holders, "ANN@acme.example", &[None, Some(&groups)]));
        assert!(!holds(&holders, "eve@acme.example", &[Some(&groups)]));
        assert!(!holds(&holders, "bob@agency.example", &[None, None]));
        assert!(!holds(
            &["editors".into()],
            "ann@acme.example",
            &[Some(&groups)]
        ));
    }

    #[test]
    fn the_platforms_ladder() {
        assert!(of_role("author").contains(&PreviewWrite));
        assert!(!of_role("author").contains(&ConfigWrite));
        assert!(of_role("config_admin").contains(&PreviewWrite));
        assert!(of_role("config_admin").contains(&ConfigWrite));
        assert!(!of_role("config_admin").contains(&AdminAcl));
        assert!(of_role("admin").contains(&AdminAcl));
        assert!(of_role("translators").is_empty());
    }
}
