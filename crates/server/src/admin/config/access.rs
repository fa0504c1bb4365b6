//! Who may change what a site's configuration gives: every write of a site document (whole
//! or a part, a restore included), of a profile and of the org's document is checked by
//! computing the powers ([`Powers`]) of each site it reaches, before and after, and a
//! change that only an admin may make ([`changes`]: who is admin, the content no longer
//! protected, protected content opened to every signed-in caller) needs an admin of that
//! site. Fields are not listed here: whichever field makes the change (a role, the default
//! role, a group's members, the profile extended, a profile's or the org's groups), the
//! computed powers show it.
//!
//! Who is an admin of a site is [`authorize_in`] with [`Action::GrantAdmin`] over the
//! site as it is before the write (its roles, its groups, its profile's, the org's, and an
//! API key's own roles); an org administrator is one of every site of the org.

use axum::http::StatusCode;
use serde_json::Value;

use crate::api::{ApiError, SiteAccess};
use crate::auth::{Action, Claims, Decision, Grants, Powers, authorize_in, changes};
use crate::sites::{self, Layers, OrgDocument, Profile, Site};
use crate::store::{Store, keys};

/// Whether `caller` administers `site` as it is now.
pub(super) fn is_admin_of(access: &SiteAccess, caller: &Claims, site: &Site) -> bool {
    let grants = Grants::of_site(site);
    let names = (site.org.as_str(), site.name.as_str());
    let decision = authorize_in(
        Some(caller),
        names.0,
        names.1,
        grants,
        &access.org_admins,
        Action::GrantAdmin,
    );
    decision == Decision::Allow
}

/// The powers of a site as it uses its configuration.
fn powers_of(site: &Site) -> Powers {
    Powers::of(&site.effective, site.org_groups())
}

/// A write that makes `before`'s document `new` (the whole document as it will be
/// stored): allowed unless it changes what only an admin may and `caller` is not an
/// admin of the site; 403 naming the field otherwise.
pub(super) async fn check_site_write(
    store: &dyn Store,
    access: &SiteAccess,
    caller: &Claims,
    before: &Site,
    new: &Value,
) -> Result<(), ApiError> {
    let after = Site::from_json(&before.org, &before.name, new.clone())?;
    let after = sites::compose(store, after, Layers::default()).await?;
    let found = changes(&powers_of(before), &powers_of(&after));
    let Some(change) = found.first() else {
        return Ok(());
    };
    if is_admin_of(access, caller, before) {
        return Ok(());
    }
    // A field the document itself does not have came with the profile it now extends.
    let field =
        if before.profile_name() != after.profile_name() && new.pointer(&change.field).is_none() {
            format!(
                "/extends/profile (profile {}'s {})",
                after.profile_name(),
                change.field
            )
        } else {
            change.field.clone()
        };
    Err(forbidden(format!(
        "{field}: only an admin of {}/{} (or an org administrator) may {}",
        before.org, before.name, change.what
    )))
}

/// A document of the org's (a profile, or the org's own) as a write leaves it.
pub(super) enum OrgLayer<'a> {
    /// Profile `name`, or `None` when the write deletes it.
    Profile(&'a str, Option<&'a Profile>),
    /// The org's document, or `None` when the write deletes it.
    Org(Option<&'a OrgDocument>),
}

/// A write of a profile or of the org's document, which every site of the org that
/// extends the profile (or names the org's groups) uses: allowed for an org administrator
/// (`org_admin`), else unless it changes, on some site, what only an admin of that site
/// may while `caller` is not one; 403 naming the field and the site otherwise.
pub(super) async fn check_org_layer_write(
    store: &dyn Store,
    access: &SiteAccess,
    caller: &Claims,
    org: &str,
    layer: OrgLayer<'_>,
    org_admin: bool,
) -> Result<(), ApiError> {
    if org_admin {
        return Ok(());
    }
    for file in store.list(&keys::sites(org)).await? {
        let Some(name) = file.strip_suffix(".json") else {
            continue;
        };
        let Some(before) = sites::load(store, org, name).await? else {
            continue;
        };
        let layers = match &layer {
            OrgLayer::Profile(profile, _) if before.profile_name() != *profile => continue,
            OrgLayer::Profile(profile, new) => Layers {
                profile: Some((profile.to_string(), *new)),
                org: None,
            },
            OrgLayer::Org(new) => Layers {
                profile: None,
                org: Some(*new),
            },
        };
        let own = Site::from_json(org, name, before.json.clone())?;
        let after = sites::compose(store, own, layers).await?;
        let found = changes(&powers_of(&before), &powers_of(&after));
        let Some(change) = found.first() else {
            continue;
        };
        if is_admin_of(access, caller, &before) {
            continue;
        }
        let (document, field) = match &layer {
            OrgLayer::Profile(profile, _) => (format!("profile {org}/{profile}"), &change.field),
            OrgLayer::Org(_) => (format!("the org {org}"), &change.field),
        };
        let field = field.strip_prefix("the org's ").unwrap_or(field);
        return Err(forbidden(format!(
            "{field} of {document}: {org}/{name} uses it, and only an admin of {org}/{name} \
             (or of the org) may {}",
            change.what
        )));
    }
    Ok(())
}

fn forbidden(message: String) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, message)
}
