//! The org's own documents in the validated model: `org.toml` as the org document and each
//! `<name>.profile.toml` as a profile document, with their credentials (org secrets, a
//! profile's CDN purge tokens) still environment references, as a site's are. Compilation
//! reads the values.

use super::load::{Loaded, Parsed};
use super::{cdn_credential_pointer, sensitive};
use crate::document::push_token;
use crate::model::files::{OrgFile, ProfileFile};
use crate::model::{Org, Profile, api};

/// Every org document and profile that parsed, sorted by org and name.
pub(super) fn model(loaded: &Loaded) -> (Vec<Org>, Vec<Profile>) {
    let orgs = (loaded.orgs.iter())
        .map(|(name, parsed)| org(name, parsed))
        .collect();
    let profiles = (loaded.profiles.iter())
        .map(|((org, name), parsed)| profile(org, name, parsed))
        .collect();
    (orgs, profiles)
}

fn org(name: &str, parsed: &Parsed<OrgFile>) -> Org {
    let file = parsed.value.clone();
    let secrets = (file.secrets.iter())
        .map(|(id, env)| {
            let pointer = format!("{}/env", push_token("/secrets", id));
            (id.clone(), sensitive(parsed, &pointer, env))
        })
        .collect();
    Org {
        name: name.to_string(),
        config: api::OrgConfig {
            version: Some(1),
            title: file.title,
            description: file.description,
            users: file.users,
            groups: file.groups,
            api_keys: file.api_keys,
            access: file.access,
            editor: file.editor,
            registry: file.registry,
            ..api::OrgConfig::default()
        },
        secrets,
    }
}

fn profile(org: &str, name: &str, parsed: &Parsed<ProfileFile>) -> Profile {
    let file = parsed.value.clone();
    let parts = file.parts;
    let cdn = parts.cdn.and_then(|cdn| {
        cdn.map_credentials(|field, env| {
            let pointer = cdn_credential_pointer(field);
            Ok::<_, std::convert::Infallible>(sensitive(parsed, &pointer, &env))
        })
        .ok()
    });
    Profile {
        org: org.to_string(),
        name: name.to_string(),
        config: api::ProfileConfig {
            version: Some(1),
            title: parts.title,
            description: parts.description,
            code: file.code,
            content: file.content,
            folders: parts.folders,
            headers: parts.headers,
            access: file.access,
            groups: parts.groups,
            sidekick: parts.sidekick,
            metadata: parts.metadata,
            robots: parts.robots,
            public: file.public,
            editor: parts.editor,
            events: parts.events,
            features: parts.features,
            limits: parts.limits,
            ..api::ProfileConfig::default()
        },
        cdn,
    }
}
