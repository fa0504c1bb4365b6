//! Who may do what with a site: a pure decision from the verified caller, the site's
//! access configuration and the service's org administrators.

use siteops_config::model::api::{AccessConfig, Groups, KnownRole, SiteConfig, User};

use super::Claims;
use super::permissions::{self, Lookup, Permission, UserLists};
use crate::sites::preview_authentication;

/// What a request wants to do with a site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Create a site: org administrators only.
    CreateSite,
    /// Read or change configuration (site, sub-resources, secrets, worker entries).
    Configure,
    /// Everything else a site administrator does: preview, code sync, jobs.
    Operate,
    /// Read the content of a site that requires authentication (its pages, media and
    /// files on the preview host): any role on the site.
    ReadContent,
    /// Change who is `admin` of a site (its `access.admin.role.admin` grants): site and
    /// org administrators only; a `config_admin` may change configuration, not raise
    /// anyone (itself included) to admin.
    GrantAdmin,
    /// Delete a site: site and org administrators only.
    DeleteSite,
    /// Stop a site's content requiring authentication (`requireAuth`): site and org
    /// administrators only; a `config_admin` cannot open a protected site.
    DropAuthentication,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// No valid token: 401.
    Unauthenticated,
    /// A valid token without the role: 403, with the reason.
    Forbidden(String),
}

/// The org administrators named with `serve --org-admin`: `ADDRESS` for every org, or
/// `org:ADDRESS` for one.
#[derive(Debug, Clone, Default)]
pub struct OrgAdmins(Vec<(Option<String>, String)>);

impl OrgAdmins {
    pub fn parse(specs: &[String]) -> OrgAdmins {
        OrgAdmins(
            specs
                .iter()
                .map(|spec| match spec.split_once(':') {
                    Some((org, address)) => (Some(org.to_string()), address.to_string()),
                    None => (None, spec.clone()),
                })
                .collect(),
        )
    }

    /// Whether `subject` administers every org (an `ADDRESS` without an org).
    pub fn is_admin_of_every_org(&self, subject: &str) -> bool {
        self.0
            .iter()
            .any(|(scope, address)| scope.is_none() && same_address(address, subject))
    }

    pub(crate) fn is_admin(&self, org: &str, subject: &str) -> bool {
        self.0.iter().any(|(scope, address)| {
            scope.as_deref().is_none_or(|s| s == org) && same_address(address, subject)
        })
    }
}

/// Whether two addresses (e-mail addresses, technical account identifiers) name the
/// same holder: the one comparison of addresses, case-insensitive, as e-mail addresses
/// are in practice.
pub(crate) fn same_address(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// [`authorize_in`] with an access block alone (no groups): the tests' shorthand. The
/// service always decides with the site's groups ([`Grants::of_site`]).
#[cfg(test)]
fn authorize(
    caller: Option<&Claims>,
    org: &str,
    site: &str,
    access: Option<&AccessConfig>,
    org_admins: &OrgAdmins,
    action: Action,
) -> Decision {
    let grants = Grants {
        access,
        ..Grants::default()
    };
    authorize_in(caller, org, site, grants, org_admins, action)
}

/// What a site document says about who holds its roles: its access block, the groups a
/// holder entry may name (the site's own, its profile's, then the org's), and the user
/// lists it names, as previewed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Grants<'a> {
    pub access: Option<&'a AccessConfig>,
    pub groups: Option<&'a Groups>,
    pub org_groups: Option<&'a Groups>,
    pub user_lists: Option<&'a UserLists>,
}

impl<'a> Grants<'a> {
    pub fn of(config: &'a SiteConfig) -> Grants<'a> {
        Grants {
            access: config.access.as_ref(),
            groups: config.groups.as_ref(),
            org_groups: None,
            user_lists: None,
        }
    }

    /// Who holds a stored site's roles: the access block it uses (its own over its
    /// profile's), its groups (its own and its profile's) and the org's, its user lists.
    pub fn of_site(site: &'a crate::sites::Site) -> Grants<'a> {
        Grants {
            access: site.effective.access.as_ref(),
            groups: site.effective.groups.as_ref(),
            org_groups: site.org_groups(),
            user_lists: Some(site.user_lists()),
        }
    }

    /// Where a holder entry's groups (the site's first) and user lists are looked up.
    fn lookup(&self) -> Lookup<'a> {
        Lookup {
            groups: [self.groups, self.org_groups],
            user_lists: self.user_lists,
        }
    }

    /// Whether `subject` holds a role that carries `permission`: a role `admin.role`
    /// grants it, or one of `admin.defaultRole`, which every signed-in caller holds.
    fn allow(&self, subject: &str, permission: Permission) -> bool {
        let Some(admin) = self.access.and_then(|access| access.admin.as_ref()) else {
            return false;
        };
        let granted = admin
            .role
            .iter()
            .flat_map(|roles| &roles.0)
            .any(|(role, holders)| {
                permissions::of_role(role).contains(&permission)
                    && permissions::holds(holders, subject, &self.lookup())
            });
        let by_default = admin
            .default_role
            .iter()
            .flatten()
            .any(|role| permissions::of_role(role_name(*role)).contains(&permission));
        granted || by_default
    }
}

/// A known role's name, as `admin.role` and the permission table spell it.
pub(crate) fn role_name(role: KnownRole) -> &'static str {
    match role {
        KnownRole::Admin => "admin",
        KnownRole::View => "view",
        KnownRole::Author => "author",
        KnownRole::Publish => "publish",
        KnownRole::Develop => "develop",
        KnownRole::BasicAuthor => "basic_author",
        KnownRole::BasicPublish => "basic_publish",
        KnownRole::Config => "config",
        KnownRole::ConfigAdmin => "config_admin",
    }
}

/// What each action asks: the platform's permissions (see [`permissions`]).
fn needs(action: Action) -> &'static [Permission] {
    match action {
        Action::CreateSite => &[],
        Action::Configure => &[Permission::ConfigRead, Permission::ConfigWrite],
        Action::Operate => &[Permission::PreviewWrite],
        Action::ReadContent => &[Permission::PreviewRead],
        Action::GrantAdmin | Action::DeleteSite | Action::DropAuthentication => {
            &[Permission::AdminAcl]
        }
    }
}

/// [`authorize`] with the site's groups, which holder entries may name.
pub fn authorize_in(
    caller: Option<&Claims>,
    org: &str,
    site: &str,
    grants: Grants<'_>,
    org_admins: &OrgAdmins,
    action: Action,
) -> Decision {
    let Some(caller) = caller else {
        return Decision::Unauthenticated;
    };
    if !caller.covers(org, site) {
        return Decision::Forbidden(format!("the token is for {}, not {org}/{site}", caller.aud));
    }
    if caller.roles.is_none() && org_admins.is_admin(org, &caller.sub) {
        return Decision::Allow;
    }
    if action == Action::CreateSite {
        return Decision::Forbidden(format!(
            "creating a site in {org} needs an org administrator"
        ));
    }
    let allowed = match &caller.roles {
        // An API key holds the roles it was minted with, and nothing by its subject
        // (whether it is still recorded, the caller of this checks against the site's
        // document).
        Some(roles) => needs(action).iter().all(|permission| {
            roles
                .iter()
                .any(|role| permissions::of_role(role).contains(permission))
        }),
        None => needs(action)
            .iter()
            .all(|permission| grants.allow(&caller.sub, *permission)),
    };
    if allowed {
        return Decision::Allow;
    }
    Decision::Forbidden(format!(
        "{} has no role on {org}/{site} that allows this",
        caller.sub
    ))
}

/// Whether `caller` may read `config`'s content, by a role on the site
/// ([`Action::ReadContent`]) or by the site authentication's `allow` list (whose group
/// references may name the org's groups, `org_groups`, and whose user lists are
/// `user_lists`). The other way in, a site token (`secretId`), is the caller's to check:
/// it needs the secrets.
pub fn may_read_content(
    caller: Option<&Claims>,
    (org, site): (&str, &str),
    config: &SiteConfig,
    (org_groups, user_lists): (Option<&Groups>, Option<&UserLists>),
    org_admins: &OrgAdmins,
) -> Decision {
    let grants = Grants {
        org_groups,
        user_lists,
        ..Grants::of(config)
    };
    let decision = authorize_in(caller, org, site, grants, org_admins, Action::ReadContent);
    match (&decision, caller, preview_authentication(config)) {
        (Decision::Forbidden(_), Some(caller), Some(rule))
            if caller.covers(org, site)
                && caller.roles.is_none()
                && rule.allow.as_deref().is_some_and(|allow| {
                    permissions::holds(allow, &caller.sub, &grants.lookup())
                }) =>
        {
            Decision::Allow
        }
        _ => decision,
    }
}

/// What a request does with the org's own documents (the org document, its profiles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrgAction {
    /// Read them (`config:read`).
    Read,
    /// Write them (`config:write`).
    Write,
    /// Change who holds the org's roles (its `users`): an admin only, so that a
    /// `config_admin` cannot raise itself.
    GrantAdmin,
}

/// Whether `caller` may do `action` with `org`'s own documents: an org administrator
/// (`serve --org-admin`) may, and so may a user of the org document (`users`, matched by
/// address) holding a role that carries the permission (`admin`; `config_admin` reads and
/// writes, not [`OrgAction::GrantAdmin`]). API keys, minted for one site, may not.
pub fn authorize_org(
    caller: Option<&Claims>,
    org: &str,
    users: &[User],
    org_admins: &OrgAdmins,
    action: OrgAction,
) -> Decision {
    let Some(caller) = caller else {
        return Decision::Unauthenticated;
    };
    if !caller.covers_org(org) {
        return Decision::Forbidden(format!(
            "the token is for {}, not the org {org}",
            caller.aud
        ));
    }
    if caller.roles.is_some() {
        return Decision::Forbidden(format!("an API key does not configure the org {org}"));
    }
    if org_admins.is_admin(org, &caller.sub) {
        return Decision::Allow;
    }
    let needs = match action {
        OrgAction::Read => Permission::ConfigRead,
        OrgAction::Write => Permission::ConfigWrite,
        OrgAction::GrantAdmin => Permission::AdminAcl,
    };
    let holds = users
        .iter()
        .filter(|user| same_address(&user.email, &caller.sub))
        .flat_map(|user| &user.roles)
        .any(|role| permissions::of_role(role_name(*role)).contains(&needs));
    if holds {
        Decision::Allow
    } else {
        Decision::Forbidden(format!(
            "{} has no role on the org {org} that allows this",
            caller.sub
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::content_is_protected;
    use siteops_config::model::api::{AdminAccess, AdminRoles};

    fn caller(sub: &str) -> Claims {
        Claims {
            sub: sub.into(),
            iat: 0,
            exp: u64::MAX,
            aud: "*".into(),
            jti: None,
            roles: None,
            profile: None,
        }
    }

    fn access(admin: &[&str], config_admin: &[&str]) -> AccessConfig {
        let holders = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        AccessConfig {
            admin: Some(AdminAccess {
                role: Some(AdminRoles::of([
                    ("admin", holders(admin)),
                    ("config_admin", holders(config_admin)),
                ])),
                ..AdminAccess::default()
            }),
            ..AccessConfig::default()
        }
    }

    #[test]
    fn the_role_matrix() {
        let org_admins =
            OrgAdmins::parse(&["root@acme.example".into(), "globex:g@globex.example".into()]);
        let site = access(&["web@acme.example"], &["tech@techacct.example"]);
        let decide = |who: Option<&str>, action| {
            authorize(
                who.map(caller).as_ref(),
                "acme",
                "web",
                Some(&site),
                &org_admins,
                action,
            )
        };
        use Action::*;
        assert_eq!(decide(None, Configure), Decision::Unauthenticated);
        for action in [CreateSite, Configure, Operate] {
            assert_eq!(
                decide(Some("root@acme.example"), action),
                Decision::Allow,
                "{action:?}"
            );
            assert!(
                matches!(
                    decide(Some("g@globex.example"), action),
                    Decision::Forbidden(_)
                ),
                "{action:?}"
            );
            assert!(
                matches!(
                    decide(Some("stranger@x.example"), action),
                    Decision::Forbidden(_)
                ),
                "{action:?}"
            );
        }
        assert_eq!(decide(Some("WEB@acme.example"), Configure), Decision::Allow);
        assert_eq!(decide(Some("web@acme.example"), Operate), Decision::Allow);
        assert!(matches!(
            decide(Some("web@acme.example"), CreateSite),
            Decision::Forbidden(_)
        ));
        assert_eq!(
            decide(Some("tech@techacct.example"), Configure),
            Decision::Allow
        );
        assert_eq!(
            decide(Some("Tech@TechAcct.example"), Configure),
            Decision::Allow,
            "config_admin addresses compare as admin ones do: case-insensitively"
        );
        assert_eq!(
            decide(Some("ROOT@acme.example"), CreateSite),
            Decision::Allow
        );
        assert_eq!(
            decide(Some("tech@techacct.example"), Operate),
            Decision::Allow,
            "the platform's config_admin holds publish's permissions: it previews"
        );
        for who in [
            "web@acme.example",
            "tech@techacct.example",
            "root@acme.example",
        ] {
            assert_eq!(decide(Some(who), ReadContent), Decision::Allow, "{who}");
        }
        assert!(matches!(
            decide(Some("stranger@x.example"), ReadContent),
            Decision::Forbidden(_)
        ));
        assert_eq!(
            decide(Some("web@acme.example"), GrantAdmin),
            Decision::Allow
        );
        assert_eq!(
            decide(Some("root@acme.example"), GrantAdmin),
            Decision::Allow
        );
        for action in [GrantAdmin, DeleteSite, DropAuthentication] {
            assert!(
                matches!(
                    decide(Some("tech@techacct.example"), action),
                    Decision::Forbidden(_)
                ),
                "{action:?}"
            );
            assert_eq!(decide(Some("web@acme.example"), action), Decision::Allow);
        }
    }

    #[test]
    fn wildcard_admins_and_scoped_tokens() {
        let everyone = access(&["*"], &[]);
        let none = OrgAdmins::default();
        assert_eq!(
            authorize(
                Some(&caller("a@b.example")),
                "o",
                "s",
                Some(&everyone),
                &none,
                Action::Operate
            ),
            Decision::Allow
        );
        let mut scoped = caller("a@b.example");
        scoped.aud = "o/other".into();
        assert!(matches!(
            authorize(
                Some(&scoped),
                "o",
                "s",
                Some(&everyone),
                &none,
                Action::Operate
            ),
            Decision::Forbidden(_)
        ));
        assert!(matches!(
            authorize(
                Some(&caller("a@b.example")),
                "o",
                "s",
                None,
                &none,
                Action::Configure
            ),
            Decision::Forbidden(_)
        ));
    }

    fn config(value: serde_json::Value) -> SiteConfig {
        serde_json::from_value(value).expect("a site document")
    }

    #[test]
    fn the_platforms_roles_and_groups() {
        let site = config(serde_json::json!({
            "access": {"admin": {
                "role": {
                    "author": ["*@agency.example"],
                    "publish": ["editors"],
                    "translators": ["t@acme.example"]
                },
                "defaultRole": ["basic_author"]
            }},
            "groups": {"editors": {"members": [{"email": "ed@acme.example"}]}}
        }));
        let none = OrgAdmins::default();
        let decide = |who: &str, action| {
            authorize_in(
                Some(&caller(who)),
                "acme",
                "web",
                Grants::of(&site),
                &none,
                action,
            )
        };
        use Action::*;
        assert_eq!(decide("ann@agency.example", Operate), Decision::Allow);
        assert_eq!(decide("ann@agency.example", ReadContent), Decision::Allow);
        assert!(matches!(
            decide("ann@agency.example", Configure),
            Decision::Forbidden(_)
        ));
        assert_eq!(
            decide("ed@acme.example", Operate),
            Decision::Allow,
            "a group's member"
        );
        assert!(matches!(
            decide("ed@acme.example", GrantAdmin),
            Decision::Forbidden(_)
        ));
        // Every signed-in caller holds the default role; a custom role carries nothing more.
        assert_eq!(decide("t@acme.example", Operate), Decision::Allow);
        assert!(matches!(
            decide("t@acme.example", Configure),
            Decision::Forbidden(_)
        ));
    }

    #[test]
    fn view_reads_and_user_lists_hold_as_previewed() {
        let site = config(serde_json::json!({
            "access": {"admin": {"role": {
                "view": ["/groups/readers.json"],
                "publish": ["/users.json"]
            }}},
            "groups": {"readers": {"members": [{"email": "rea@acme.example"}]}}
        }));
        let none = OrgAdmins::default();
        let previewed = UserLists(
            [(
                "/users.json".to_string(),
                vec!["pub@acme.example".to_string()],
            )]
            .into(),
        );
        let decide = |who: &str, lists: Option<&UserLists>, action| {
            let grants = Grants {
                user_lists: lists,
                ..Grants::of(&site)
            };
            authorize_in(Some(&caller(who)), "acme", "web", grants, &none, action)
        };
        use Action::*;
        assert_eq!(
            decide("rea@acme.example", None, ReadContent),
            Decision::Allow
        );
        for action in [Operate, Configure] {
            assert!(matches!(
                decide("rea@acme.example", None, action),
                Decision::Forbidden(_)
            ));
        }
        assert!(matches!(
            decide("pub@acme.example", None, Operate),
            Decision::Forbidden(_)
        ));
        assert_eq!(
            decide("pub@acme.example", Some(&previewed), Operate),
            Decision::Allow
        );
    }

    #[test]
    fn site_authentication_reads_the_preview_rule_over_the_sites() {
        let site = config(serde_json::json!({
            "access": {
                "site": {"allow": ["*@acme.example"]},
                "preview": {"allow": ["reviewers"], "secretId": ["preview-token"]}
            },
            "groups": {"reviewers": {"members": [{"email": "rev@partner.example"}]}}
        }));
        assert!(content_is_protected(&site));
        assert_eq!(
            preview_authentication(&site).and_then(|r| r.secret_id.clone()),
            Some(vec!["preview-token".to_string()])
        );
        let none = OrgAdmins::default();
        let read = |who: Option<&str>| {
            may_read_content(
                who.map(caller).as_ref(),
                ("acme", "web"),
                &site,
                (None, None),
                &none,
            )
        };
        assert_eq!(read(Some("rev@partner.example")), Decision::Allow);
        assert!(
            matches!(read(Some("web@acme.example")), Decision::Forbidden(_)),
            "the preview's rule replaces the site's"
        );
        assert_eq!(read(None), Decision::Unauthenticated);
        let open = config(serde_json::json!({"access": {"live": {"allow": ["*"]}}}));
        assert!(
            !content_is_protected(&open),
            "the live site's rule is not the preview's"
        );
    }
}
