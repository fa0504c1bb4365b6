//! Whether an API key holds on a site: a key holds only while the document it was minted
//! for records it ([`Claims::key_holder`]): the site's own, the org's (every site of the
//! org), or a profile's (the sites laid over it). A token of a person always holds here
//! (its roles decide); so does one for another site or org, which [`super::authorize`]
//! refuses.

use super::{Claims, KeyHolder};
use crate::sites::{self, Site, SiteError};
use crate::store::Store;

/// Where an API key stands on a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyStanding {
    /// Not a key, a key for elsewhere (refused by its audience), or a key its document
    /// records.
    Holds,
    /// A key its document no longer records: revoked (401), with why.
    Revoked(String),
    /// A profile's key on a site not laid over that profile (403), with why.
    NotHere(String),
}

/// Where `caller`'s API key, if it is one, stands on `site`. Only an org's key reads a
/// document more (the org's); a site's and a profile's are read with the site.
pub async fn standing(
    store: &dyn Store,
    site: &Site,
    caller: &Claims,
) -> Result<KeyStanding, SiteError> {
    let (org, name) = (site.org.as_str(), site.name.as_str());
    let Some((id, holder)) = caller.key_holder() else {
        return Ok(KeyStanding::Holds);
    };
    if !caller.covers(org, name) {
        return Ok(KeyStanding::Holds);
    }
    let revoked = |of: String| {
        KeyStanding::Revoked(format!(
            "the API key `{id}` is not one of {of}'s (revoked?)"
        ))
    };
    Ok(match holder {
        KeyHolder::Site if site.records_key(id) => KeyStanding::Holds,
        KeyHolder::Site => revoked(format!("{org}/{name}")),
        KeyHolder::Profile(profile) if !site.extends(profile) => KeyStanding::NotHere(format!(
            "the API key `{id}` is profile {org}/{profile}'s, which {org}/{name} does not extend"
        )),
        KeyHolder::Profile(profile) if site.profile_records_key(profile, id) => KeyStanding::Holds,
        KeyHolder::Profile(profile) => revoked(format!("profile {org}/{profile}")),
        KeyHolder::Org => {
            let document = sites::load_org(store, org).await?;
            if document.is_some_and(|document| document.records_key(id)) {
                KeyStanding::Holds
            } else {
                revoked(format!("the org {org}"))
            }
        }
    })
}
