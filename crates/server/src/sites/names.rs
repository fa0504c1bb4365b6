//! The names of orgs, sites, branches and secrets: they become store keys and host names.

/// The longest org, site, branch or secret name: `<name>.json` must fit a file name of
/// the store (255 bytes on common file systems). The config crate's, which its schemas and
/// name rules (`siteops_config::rules::NameKind`) share.
pub const MAX_NAME_LEN: usize = siteops_config::model::api::MAX_NAME_LEN as usize;

/// Whether `name` can name an org, site, branch or secret: `[a-z0-9][a-z0-9-]*`, at most
/// [`MAX_NAME_LEN`] characters.
pub fn is_name(name: &str) -> bool {
    name.len() <= MAX_NAME_LEN && siteops_config::rules::is_id(name)
}
