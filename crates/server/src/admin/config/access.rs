//! Who may change who is `admin`, or open a protected site: the checks of a write of a
//! site's access block.

use std::collections::BTreeSet;

use axum::http::StatusCode;
use siteops_config::model::api::AccessConfig;

use crate::api::ApiError;
use crate::auth::Action;

/// The addresses an access configuration makes `admin`, compared as addresses are.
fn admin_grants(access: Option<&AccessConfig>) -> BTreeSet<String> {
    access
        .and_then(|a| a.holders("admin"))
        .into_iter()
        .flatten()
        .map(|entry| entry.trim().to_ascii_lowercase())
        .collect()
}

/// Whether an access configuration makes the site require authentication (`requireAuth`
/// `auto` or `true`), as [`Site::requires_auth`] reads it.
fn protects(access: Option<&AccessConfig>) -> bool {
    access.is_some_and(AccessConfig::requires_auth)
}

/// A write of a site's access block (`new` replacing `old`; `None`: no access block) that
/// changes who is `admin` ([`Action::GrantAdmin`]) or stops the site requiring
/// authentication ([`Action::DropAuthentication`]) needs an admin of the site or of the
/// org: a `config_admin` may not raise anyone (itself included) nor open a protected site
/// (protecting one is configuration). `permit` asks whether the caller may do an action
/// with the access block the site uses now (`uses`: its own over its profile's). `old` is
/// the document's own block, which `new` replaces. 403 naming the field, under `at` (the
/// access block's pointer in the body).
pub(super) fn check_access_change(
    permit: impl Fn(Option<&AccessConfig>, Action) -> Result<(), ApiError>,
    (org, site): (&str, &str),
    (old, uses): (Option<&AccessConfig>, Option<&AccessConfig>),
    new: Option<&AccessConfig>,
    at: &str,
) -> Result<(), ApiError> {
    let guarded = [
        (
            admin_grants(old) != admin_grants(new),
            Action::GrantAdmin,
            "admin/role/admin",
            "change who is admin",
        ),
        (
            protects(old) && !protects(new),
            Action::DropAuthentication,
            "admin/requireAuth",
            "stop the site requiring authentication",
        ),
    ];
    for (changed, action, field, what) in guarded {
        if !changed {
            continue;
        }
        permit(uses, action).map_err(|error| {
            if error.status == StatusCode::FORBIDDEN {
                ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!(
                        "{at}/{field}: only an admin of {org}/{site} (or an org administrator) may {what}"
                    ),
                )
            } else {
                error
            }
        })?;
    }
    Ok(())
}
