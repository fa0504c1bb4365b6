//! Who may do what with a site: a pure decision from the verified caller, the site's
//! access configuration and the service's org administrators.

use siteops_config::model::api::AccessConfig;

use super::Claims;

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

pub fn authorize(
    caller: Option<&Claims>,
    org: &str,
    site: &str,
    access: Option<&AccessConfig>,
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
    let holders = |role| access.and_then(|a| a.holders(role));
    // An API key holds the roles it was minted with, and nothing by its subject (whether
    // it is still recorded, the caller of this checks against the site's document).
    let (is_admin, is_config_admin) = match &caller.roles {
        Some(roles) => (
            roles.iter().any(|role| role == "admin"),
            roles.iter().any(|role| role == "config_admin"),
        ),
        None => (
            holders("admin").is_some_and(|list| {
                list.iter()
                    .any(|entry| entry == "*" || same_address(entry, &caller.sub))
            }),
            holders("config_admin")
                .is_some_and(|list| list.iter().any(|entry| same_address(entry, &caller.sub))),
        ),
    };
    match action {
        _ if is_admin => Decision::Allow,
        Action::Configure | Action::ReadContent if is_config_admin => Decision::Allow,
        _ => Decision::Forbidden(format!(
            "{} has no role on {org}/{site} that allows this",
            caller.sub
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use siteops_config::model::api::{AdminAccess, AdminRoles};

    fn caller(sub: &str) -> Claims {
        Claims {
            sub: sub.into(),
            iat: 0,
            exp: u64::MAX,
            aud: "*".into(),
            jti: None,
            roles: None,
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
        assert!(matches!(
            decide(Some("tech@techacct.example"), Operate),
            Decision::Forbidden(_)
        ));
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
}
