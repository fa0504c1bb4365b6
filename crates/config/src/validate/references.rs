//! Rules across an org's files: what a site names must exist where it is defined. A
//! site's `extends.profile` names a profile of the org (`default` may be absent); its
//! access blocks' group references, site-authentication secrets and API key ids name
//! groups, secrets and keys of the site, its profile or the org (`org.toml`).

use std::collections::BTreeSet;

use super::load::{Loaded, Parsed};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::api::{AccessConfig, Holder};

/// The names an org's sites may refer to.
#[derive(Default)]
struct Known<'a> {
    groups: BTreeSet<&'a str>,
    secrets: BTreeSet<&'a str>,
    api_keys: BTreeSet<&'a str>,
}

pub(super) fn check(loaded: &Loaded, out: &mut Vec<Diagnostic>) {
    // A profile's own access block is checked once, against the profile and the org: a
    // problem in it is reported once however many sites extend it.
    for ((org, _), profile) in &loaded.profiles {
        if let Some(access) = &profile.value.access {
            let mut known = org_known(loaded, org);
            add_groups(&mut known, profile.value.parts.groups.as_ref());
            access_references(profile, "/access", access, &known, out);
        }
    }
    for site in &loaded.sites {
        let org = site.id.org.as_str();
        let extends = site
            .site
            .as_ref()
            .and_then(|s| s.value.parts.extends.as_ref())
            .and_then(|e| e.profile.as_deref());
        let profile_name = extends.unwrap_or("default");
        let profile = loaded
            .profiles
            .get(&(org.to_string(), profile_name.to_string()));
        // `default` is the platform's implicit profile: naming it needs no file.
        if let (Some(name), None, Some(parsed)) = (extends, profile, site.site.as_ref())
            && name != "default"
        {
            out.push(
                parsed.locate(
                    Diagnostic::error(
                        Code::UnknownProfile,
                        format!("profile `{name}` does not exist in {org}"),
                    )
                    .with_help(format!(
                        "add sites/{org}/{name}.profile.toml, or remove `extends`"
                    ))
                    .at_pointer("/extends/profile"),
                ),
            );
        }
        let mut known = org_known(loaded, org);
        if let Some(profile) = profile {
            add_groups(&mut known, profile.value.parts.groups.as_ref());
        }
        if let Some(parsed) = &site.site {
            add_groups(&mut known, parsed.value.parts.groups.as_ref());
        }
        if let Some(secrets) = &site.secrets {
            known
                .secrets
                .extend(secrets.value.keys().map(String::as_str));
        }
        if let Some(access) = &site.access {
            access_references(access, "", &access.value, &known, out);
        }
    }
}

fn add_groups<'a>(known: &mut Known<'a>, groups: Option<&'a crate::model::api::Groups>) {
    known.groups.extend(
        groups
            .into_iter()
            .flat_map(|g| g.0.keys().map(String::as_str)),
    );
}

/// What the org's `org.toml` defines.
fn org_known<'a>(loaded: &'a Loaded, org: &str) -> Known<'a> {
    let mut known = Known::default();
    if let Some(org_file) = loaded.orgs.get(org) {
        let value = &org_file.value;
        known.groups.extend(
            value
                .groups
                .iter()
                .flat_map(|g| g.0.keys().map(String::as_str)),
        );
        known
            .secrets
            .extend(value.secrets.keys().map(String::as_str));
        known.api_keys.extend(
            value
                .api_keys
                .iter()
                .flat_map(|k| k.0.values().map(|key| key.id.as_str())),
        );
    }
    known
}

/// The references of one access block, at `prefix` in its file.
fn access_references<T>(
    file: &Parsed<T>,
    prefix: &str,
    access: &AccessConfig,
    known: &Known<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let mut lists: Vec<(String, &[String])> = Vec::new();
    if let Some(roles) = access.admin.as_ref().and_then(|a| a.role.as_ref()) {
        // `config_admin` lists technical accounts, never groups.
        for (role, holders) in roles.0.iter().filter(|(role, _)| *role != "config_admin") {
            lists.push((format!("{prefix}/admin/role/{role}"), holders));
        }
    }
    let sites = [
        ("site", &access.site),
        ("preview", &access.preview),
        ("live", &access.live),
    ];
    for (name, block) in sites {
        let Some(block) = block else { continue };
        if let Some(allow) = &block.allow {
            lists.push((format!("{prefix}/{name}/allow"), allow));
        }
        for (index, id) in block.secret_id.iter().flatten().enumerate() {
            if !known.secrets.contains(id.as_str()) {
                out.push(file.locate(
                    Diagnostic::error(
                        Code::UnknownOrgSecret,
                        format!("secret `{id}` is declared neither in org.toml nor in the site's secrets.toml"),
                    )
                    .with_help("declare it under `[secrets]` of sites/<org>/org.toml")
                    .at_pointer(format!("{prefix}/{name}/secretId/{index}")),
                ));
            }
        }
        api_keys(
            file,
            &format!("{prefix}/{name}/apiKeyId"),
            block.api_key_id.as_deref(),
            known,
            out,
        );
    }
    let admin_keys = access.admin.as_ref().and_then(|a| a.api_key_id.as_deref());
    api_keys(
        file,
        &format!("{prefix}/admin/apiKeyId"),
        admin_keys,
        known,
        out,
    );
    for (pointer, holders) in lists {
        for (index, entry) in holders.iter().enumerate() {
            let Holder::Group(id) = Holder::of(entry) else {
                continue;
            };
            if !known.groups.contains(id) {
                out.push(file.locate(
                    Diagnostic::error(
                        Code::UnknownGroup,
                        format!("group `{id}` is defined neither by the site, its profile nor the org"),
                    )
                    .with_help("define it under `[groups]` (site.toml, the profile or org.toml), or write an e-mail address")
                    .at_pointer(format!("{pointer}/{index}")),
                ));
            }
        }
    }
}

fn api_keys<T>(
    file: &Parsed<T>,
    pointer: &str,
    ids: Option<&[String]>,
    known: &Known<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for (index, id) in ids.into_iter().flatten().enumerate() {
        if !known.api_keys.contains(id.as_str()) {
            out.push(
                file.locate(
                    Diagnostic::warning(
                        Code::UnknownApiKey,
                        format!("no API key recorded for the org has the id `{id}`: no key gets in by it"),
                    )
                    .with_help("a revoked key's id can go; a key the service minted is recorded under `[apiKeys]` of sites/<org>/org.toml (`siteops import` writes the records)")
                    .at_pointer(format!("{pointer}/{index}")),
                ),
            );
        }
    }
}
