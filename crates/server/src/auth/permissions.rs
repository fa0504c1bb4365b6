//! What each of the platform's roles may do, and who holds a role.
//!
//! The roles and their permissions are the platform's (its administration service's
//! permission table: `admin` holds every permission, `basic_author` ⊂ `author` ⊂
//! `publish`, `develop` = `author` + code, `config_admin` = `publish` + `config:read` and
//! `config:write`, `config` only `config:read-redacted`), reduced to the permissions
//! siteops's routes ask for. A custom role (any other name `admin.role` grants) carries
//! no permission here: the platform gives it none either.
//!
//! `view` (the platform's schema of 1.73.0) reads: the platform's permission table of
//! that release is not public, and siteops gives it the platform's read-only defaults
//! (`PERMISSIONS_DEFAULT`: `preview:read`, `live:read`, `code:read`, …), of which its
//! routes ask for `preview:read`.
//!
//! A holder entry ([`Holder`]) is `*` (every signed-in caller), an e-mail glob
//! (`*@acme.example`, `web@acme.example`; `*` stands for any run of characters, compared
//! without regard to case), a group (`/groups/<id>.json`, or the bare id: one of the
//! site's `groups`, else the org's), whose members' e-mail addresses are matched the same
//! way, or a user list (`/users.json`), whose addresses, read from the site's previewed
//! sheet ([`UserLists`]), are matched the same way.

use siteops_config::model::api::{Groups, Holder};

pub use crate::sites::UserLists;

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
        // The platform's defaults (read), `view`, and its `index` and `code` roles.
        "view" | "index" => &[PreviewRead],
        "code" => &[PreviewRead, CodeWrite, JobRead],
        // `config` reads configuration redacted only; `media_author` uploads media: neither
        // is a siteops route. Custom roles carry nothing.
        _ => &[],
    }
}

/// Where holder entries look their groups and user lists up: the site's groups, then
/// the org's, and the site's user lists.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lookup<'a> {
    pub groups: [Option<&'a Groups>; 2],
    pub user_lists: Option<&'a UserLists>,
}

impl<'a> Lookup<'a> {
    /// The group `id`: the first of `groups` that defines it.
    pub fn group(&self, id: &str) -> Option<(usize, &'a siteops_config::model::api::Group)> {
        self.groups
            .iter()
            .enumerate()
            .find_map(|(at, groups)| Some((at, groups.as_ref()?.0.get(id)?)))
    }

    /// The addresses user list `path` holds (none when it has not been previewed).
    pub fn user_list(&self, path: &str) -> &'a [String] {
        self.user_lists
            .map(|lists| lists.get(path))
            .unwrap_or_default()
    }
}

/// Whether `subject` (an e-mail address or technical account) is one of `holders`, its
/// groups and user lists looked up in `lookup`.
pub fn holds(holders: &[String], subject: &str, lookup: &Lookup<'_>) -> bool {
    holders.iter().any(|entry| match Holder::of(entry) {
        Holder::Everyone => true,
        Holder::Address(pattern) => glob_matches(pattern, subject),
        Holder::Group(id) => lookup.group(id).is_some_and(|(_, group)| {
            group
                .members
                .iter()
                .any(|member| glob_matches(&member.email, subject))
        }),
        Holder::UserList(path) => lookup
            .user_list(path)
            .iter()
            .any(|pattern| glob_matches(pattern, subject)),
        Holder::Invalid(_) => false,
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
        let site = Lookup {
            groups: [Some(&groups), None],
            user_lists: None,
        };
        let org = Lookup {
            groups: [None, Some(&groups)],
            user_lists: None,
        };
        for holders in [
            ["writers".to_string()],
            ["/groups/writers.json".to_string()],
        ] {
            assert!(holds(&holders, "bob@agency.example", &site));
            assert!(holds(&holders, "ANN@acme.example", &org));
            assert!(!holds(&holders, "eve@acme.example", &site));
            assert!(!holds(&holders, "bob@agency.example", &Lookup::default()));
        }
        assert!(!holds(&["editors".into()], "ann@acme.example", &site));
        assert!(!holds(
            &["/groups/writers".into()],
            "ann@acme.example",
            &site
        ));
    }

    #[test]
    fn user_lists_hold_the_addresses_of_their_sheet() {
        let sheet = json!({"data": [{"email": "ann@acme.example"}, {"email": "*@agency.example"}]});
        let lists =
            UserLists([("/users.json".to_string(), UserLists::addresses_of(&sheet))].into());
        let lookup = Lookup {
            groups: [None, None],
            user_lists: Some(&lists),
        };
        let holders = ["/users.json".to_string()];
        assert!(holds(&holders, "ANN@acme.example", &lookup));
        assert!(holds(&holders, "zed@agency.example", &lookup));
        assert!(!holds(&holders, "bob@acme.example", &lookup));
        assert!(!holds(&["/other.json".into()], "ann@acme.example", &lookup));
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
        assert_eq!(of_role("view"), [PreviewRead]);
    }
}
