//! What a site's configuration gives, computed rather than read off a field: who holds
//! `config:admin-acl` on the site (its admins), whether its content needs a credential,
//! and whether every signed-in caller may read it. Every configuration write is checked
//! by comparing a site's powers before and after it ([`changes`]): a write that changes
//! who is admin, stops the site requiring a credential or opens it to every signed-in
//! caller needs an admin of that site, whichever field does it: `access.admin.role`,
//! `defaultRole`, a site, profile or org group's members, `extends.profile`, a profile's
//! access, or deleting a part.
//!
//! A holder entry resolves as [`permissions::holds`] reads it: `*`, an e-mail glob, a
//! group of the site (its own and its profile's), else of the org, or a user list (by its
//! path: previewing its sheet is not a configuration write). Holders compare as
//! lower-cased patterns, so the same people in another case or order are no change.

use std::collections::BTreeMap;

use siteops_config::model::api::{Groups, Holder, SiteConfig};

use super::permissions::{self, Lookup, Permission};
use super::roles::role_name;

/// What a site's configuration gives, with where each part comes from (a JSON pointer
/// into the site's configuration as it uses it, over its profile).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Powers {
    /// Who holds `config:admin-acl`: holder patterns (lower case; `*`, every signed-in
    /// caller), each with the first place that grants it.
    admins: BTreeMap<String, String>,
    /// What makes the content need a credential: `requireAuth`, the preview's or the
    /// site's authentication. Empty: the content is open.
    protection: Vec<&'static str>,
    /// Where every signed-in caller is let read the content (a role `*` holds that reads,
    /// a default role that reads, `*` in an `allow` list), if anywhere.
    everyone_reads: Option<String>,
}

/// A change of a site's powers that only an admin of the site may make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The field that makes it, as a JSON pointer.
    pub field: String,
    /// What it does, after "may": `change who is admin`.
    pub what: &'static str,
}

impl Powers {
    /// The powers of a site that uses `config` (its document over its profile), whose
    /// holder entries may name `org_groups`.
    pub fn of(config: &SiteConfig, org_groups: Option<&Groups>) -> Powers {
        let groups = [config.groups.as_ref(), org_groups];
        let mut powers = Powers::default();
        let access = config.access.as_ref();
        let admin = access.and_then(|access| access.admin.as_ref());
        let roles = admin
            .and_then(|admin| admin.role.as_ref())
            .into_iter()
            .flat_map(|roles| &roles.0);
        for (role, holders) in roles {
            let carries = permissions::of_role(role);
            let at = format!("/access/admin/role/{}", escape(role));
            for entry in holders {
                let patterns = resolve(entry, &groups);
                if carries.contains(&Permission::AdminAcl) {
                    for (pattern, from) in &patterns {
                        let from = from.clone().unwrap_or_else(|| at.clone());
                        powers.admins.entry(pattern.clone()).or_insert(from);
                    }
                }
                if carries.contains(&Permission::PreviewRead)
                    && patterns.iter().any(|(pattern, _)| pattern == "*")
                {
                    powers.everyone_reads.get_or_insert_with(|| at.clone());
                }
            }
        }
        for role in admin
            .and_then(|admin| admin.default_role.as_ref())
            .into_iter()
            .flatten()
        {
            let carries = permissions::of_role(role_name(*role));
            if carries.contains(&Permission::AdminAcl) {
                let at = "/access/admin/defaultRole".to_string();
                powers.admins.entry("*".into()).or_insert(at);
            }
            if carries.contains(&Permission::PreviewRead) {
                powers
                    .everyone_reads
                    .get_or_insert_with(|| "/access/admin/defaultRole".into());
            }
        }
        if access.is_some_and(|access| access.requires_auth()) {
            powers.protection.push("/access/admin/requireAuth");
        }
        let rule = access.and_then(|access| {
            let preview = access
                .preview
                .as_ref()
                .map(|rule| ("/access/preview", rule));
            preview.or_else(|| access.site.as_ref().map(|rule| ("/access/site", rule)))
        });
        if let Some((at, rule)) = rule {
            powers.protection.push(at);
            let opens = rule.allow.iter().flatten().any(|entry| {
                resolve(entry, &groups)
                    .iter()
                    .any(|(pattern, _)| pattern == "*")
            });
            if opens {
                powers
                    .everyone_reads
                    .get_or_insert_with(|| format!("{at}/allow"));
            }
        }
        powers
    }

    /// Whether `subject` is among the admins by address (an API key's roles are the
    /// caller's to check).
    pub fn is_admin(&self, subject: &str) -> bool {
        self.admins
            .keys()
            .any(|pattern| permissions::glob_matches(pattern, subject))
    }

    /// The admins' patterns, sorted.
    pub fn admins(&self) -> impl Iterator<Item = &str> {
        self.admins.keys().map(String::as_str)
    }

    /// Whether the content needs a credential.
    pub fn is_protected(&self) -> bool {
        !self.protection.is_empty()
    }
}

/// What going from `before` to `after` changes that only an admin of the site may: who
/// is admin (added or removed, so that no one else locks the admins out either), the
/// content no longer needing a credential, or protected content opened to every
/// signed-in caller. Empty: configuration anyone who configures the site may change.
pub fn changes(before: &Powers, after: &Powers) -> Vec<Change> {
    let mut changes = Vec::new();
    let added = after
        .admins
        .iter()
        .find(|(p, _)| !before.admins.contains_key(*p));
    let removed = before
        .admins
        .iter()
        .find(|(p, _)| !after.admins.contains_key(*p));
    if let Some((_, field)) = added.or(removed) {
        changes.push(Change {
            field: field.clone(),
            what: "change who is admin",
        });
    }
    if before.is_protected() && !after.is_protected() {
        changes.push(Change {
            field: before.protection[0].to_string(),
            what: "stop the site requiring authentication",
        });
    }
    if after.is_protected()
        && before.everyone_reads.is_none()
        && let Some(field) = &after.everyone_reads
    {
        changes.push(Change {
            field: field.clone(),
            what: "open the site to every signed-in caller",
        });
    }
    changes
}

/// The patterns a holder entry stands for, each with where it comes from when that is a
/// group's member (`None`: the entry itself): `*` and e-mail globs as they are, a group
/// reference as its members' addresses (the first of `groups` that defines it; none
/// when none does), a user list as its path: who it holds is the previewed sheet's, which
/// a configuration write does not change, so naming the list is what a write changes.
fn resolve(entry: &str, groups: &[Option<&Groups>; 2]) -> Vec<(String, Option<String>)> {
    let id = match Holder::of(entry) {
        Holder::Everyone => return vec![("*".into(), None)],
        Holder::Address(pattern) | Holder::UserList(pattern) => {
            return vec![(pattern.to_ascii_lowercase(), None)];
        }
        Holder::Invalid(_) => return Vec::new(),
        Holder::Group(id) => id,
    };
    let lookup = Lookup {
        groups: *groups,
        user_lists: None,
    };
    let Some((at, group)) = lookup.group(id) else {
        return Vec::new();
    };
    let owner = if at == 0 { "" } else { "the org's " };
    group
        .members
        .iter()
        .map(|member| {
            let from = format!("{owner}/groups/{}/members", escape(id));
            (member.email.trim().to_ascii_lowercase(), Some(from))
        })
        .collect()
}

/// A JSON pointer's token for `name` (RFC 6901).
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn powers(site: serde_json::Value, org: Option<serde_json::Value>) -> Powers {
        let config: SiteConfig = serde_json::from_value(site).expect("a site");
        let org: Option<Groups> = org.map(|g| serde_json::from_value(g).expect("groups"));
        Powers::of(&config, org.as_ref())
    }

    fn fields(before: &Powers, after: &Powers) -> Vec<String> {
        changes(before, after)
            .into_iter()
            .map(|c| format!("{} {}", c.field, c.what))
            .collect()
    }

    #[test]
    fn admins_through_every_way_in() {
        let site = json!({
            "access": {"admin": {
                "role": {"admin": ["Web@acme.example", "owners", "org-owners"], "ops": ["ops@acme.example"], "author": ["*"]},
                "requireAuth": "auto"
            }},
            "groups": {"owners": {"members": [{"email": "own@acme.example"}]}}
        });
        let org = json!({"org-owners": {"members": [{"email": "boss@acme.example"}]}});
        let p = powers(site, Some(org));
        assert_eq!(
            p.admins().collect::<Vec<_>>(),
            [
                "boss@acme.example",
                "ops@acme.example",
                "own@acme.example",
                "web@acme.example"
            ]
        );
        assert!(p.is_admin("OWN@acme.example"));
        assert!(!p.is_admin("x@acme.example"));
        assert!(p.is_protected());
        assert_eq!(
            p.everyone_reads.as_deref(),
            Some("/access/admin/role/author")
        );
    }

    #[test]
    fn what_needs_an_admin() {
        let base = json!({
            "access": {"admin": {"role": {"admin": ["web@acme.example"], "config_admin": ["t@acme.example"]}, "requireAuth": "auto"}},
            "groups": {"owners": {"members": [{"email": "web@acme.example"}]}}
        });
        let with = |pointer: &str, value: serde_json::Value| {
            let mut site = base.clone();
            *site.pointer_mut(pointer).expect("a member") = value;
            site
        };
        let before = powers(base.clone(), None);
        for (site, expected) in [
            (base.clone(), vec![]),
            // Another config_admin, the same admin in another case: configuration.
            (
                with(
                    "/access/admin/role/config_admin",
                    json!(["t@acme.example", "u@acme.example"]),
                ),
                vec![],
            ),
            (
                with("/access/admin/role/admin", json!(["WEB@acme.example"])),
                vec![],
            ),
            // A group that holds the same person: no change, in either form.
            (with("/access/admin/role/admin", json!(["owners"])), vec![]),
            (
                with("/access/admin/role/admin", json!(["/groups/owners.json"])),
                vec![],
            ),
            (
                with(
                    "/access/admin/role/admin",
                    json!(["web@acme.example", "/admins.json"]),
                ),
                vec!["/access/admin/role/admin change who is admin"],
            ),
            (
                with(
                    "/access/admin/role/admin",
                    json!(["web@acme.example", "t@acme.example"]),
                ),
                vec!["/access/admin/role/admin change who is admin"],
            ),
            (
                with("/access/admin/role/admin", json!([])),
                vec!["/access/admin/role/admin change who is admin"],
            ),
            (
                {
                    let mut s = with("/access/admin/role/admin", json!(["owners"]));
                    s["groups"]["owners"]["members"] =
                        json!([{"email": "web@acme.example"}, {"email": "t@acme.example"}]);
                    s
                },
                vec!["/groups/owners/members change who is admin"],
            ),
            (
                with("/access/admin/requireAuth", json!(false)),
                vec!["/access/admin/requireAuth stop the site requiring authentication"],
            ),
            (
                {
                    let mut s = base.clone();
                    s["access"]["admin"]["defaultRole"] = json!(["admin"]);
                    s
                },
                vec![
                    "/access/admin/defaultRole change who is admin",
                    "/access/admin/defaultRole open the site to every signed-in caller",
                ],
            ),
            (
                {
                    let mut s = base.clone();
                    s["access"]["admin"]["defaultRole"] = json!(["basic_author"]);
                    s
                },
                vec!["/access/admin/defaultRole open the site to every signed-in caller"],
            ),
            (
                {
                    let mut s = base.clone();
                    s["access"]["admin"]["role"]["translators"] = json!(["*"]);
                    s
                },
                vec![],
            ),
        ] {
            let after = powers(site.clone(), None);
            assert_eq!(fields(&before, &after), expected, "{site}");
        }
    }

    #[test]
    fn site_authentication_protects() {
        let protected = powers(
            json!({"access": {"preview": {"allow": ["*@acme.example"]}}}),
            None,
        );
        assert!(protected.is_protected());
        let open = powers(json!({"access": {"live": {"allow": ["*"]}}}), None);
        assert_eq!(
            fields(&protected, &open),
            ["/access/preview stop the site requiring authentication"]
        );
        let everyone = powers(json!({"access": {"preview": {"allow": ["*"]}}}), None);
        assert_eq!(
            fields(&protected, &everyone),
            ["/access/preview/allow open the site to every signed-in caller"]
        );
        // Other readers are configuration.
        let more = powers(
            json!({"access": {"preview": {"allow": ["*@acme.example", "r@partner.example"]}}}),
            None,
        );
        assert!(fields(&protected, &more).is_empty());
    }
}
