//! `cdn`: the production CDN (one vendor's settings with its purge credentials, or just
//! the host) and host overrides of the live, preview and review environments.
//!
//! Generic over what a credential is: `String` in an API body (the default), an
//! environment reference in a repository file, `Sensitive` in the validated model. One
//! shape, so the three cannot drift; [`CdnConfig::map_credentials`] goes from one to the
//! next.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A production host: up to six DNS labels, not a platform host (`*--*--*.aem.live`…).
/// Empty is allowed with a vendor block (the platform's pattern).
const PROD_HOST_PATTERN: &str = r"^$|^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.){1,5}[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$";
/// The same without the empty host, for a block that is only a host.
const HOST_ONLY_PATTERN: &str = r"^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.){1,5}[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$";

/// The platform refuses its own hosts as production hosts.
fn not_platform_host(schema: &mut schemars::Schema) {
    schema.insert(
        "not".into(),
        serde_json::json!({"pattern": r".*--.*--.*\.aem\.(live|page|reviews|network)$"}),
    );
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
// serde would ask `C: Default` of the defaulted `prod`, which an `Option` does not need.
#[serde(deny_unknown_fields, bound(deserialize = "C: Deserialize<'de>"))]
pub struct CdnConfig<C = String> {
    /// The production CDN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prod: Option<CdnProd<C>>,
    /// Overrides the live host (`$owner` and `$repo` are replaced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<CdnHost>,
    /// Overrides the preview host (`$owner` and `$repo` are replaced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<CdnHost>,
    /// Overrides the review host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<CdnHost>,
}

/// `cdn.prod`: a vendor's block, or only the production host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CdnProd<C = String> {
    Vendor(VendorCdn<C>),
    HostOnly(HostOnlyCdn),
}

/// A block that names only the production host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostOnlyCdn {
    /// Production host.
    #[schemars(regex(pattern = HOST_ONLY_PATTERN), transform = not_platform_host)]
    pub host: String,
}

/// A CDN vendor's block, by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum VendorCdn<C = String> {
    Fastly(FastlyCdn<C>),
    Cloudflare(CloudflareCdn<C>),
    Akamai(AkamaiCdn<C>),
    Managed(ManagedCdn),
    Cloudfront(CloudfrontCdn<C>),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FastlyCdn<C = String> {
    /// Production host.
    #[schemars(regex(pattern = PROD_HOST_PATTERN), transform = not_platform_host)]
    pub host: String,
    /// Routes of the CDN that the platform renders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<String>>,
    /// The Fastly service id.
    #[serde(rename = "serviceId")]
    pub service_id: String,
    /// A Fastly token for purging.
    #[serde(rename = "authToken")]
    pub auth_token: C,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloudflareCdn<C = String> {
    /// Production host.
    #[schemars(regex(pattern = PROD_HOST_PATTERN), transform = not_platform_host)]
    pub host: String,
    /// Routes of the CDN that the platform renders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<String>>,
    /// The Cloudflare plan.
    pub plan: String,
    #[serde(rename = "zoneId")]
    pub zone_id: String,
    /// A Cloudflare token for purging.
    #[serde(rename = "apiToken")]
    pub api_token: C,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AkamaiCdn<C = String> {
    /// Production host.
    #[schemars(regex(pattern = PROD_HOST_PATTERN), transform = not_platform_host)]
    pub host: String,
    /// Routes of the CDN that the platform renders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<String>>,
    /// The Akamai API host.
    pub endpoint: String,
    #[serde(rename = "clientSecret")]
    pub client_secret: C,
    #[serde(rename = "clientToken")]
    pub client_token: C,
    #[serde(rename = "accessToken")]
    pub access_token: C,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManagedCdn {
    /// Production host.
    #[schemars(regex(pattern = PROD_HOST_PATTERN), transform = not_platform_host)]
    pub host: String,
    /// Environment id.
    #[serde(rename = "envId", default, skip_serializing_if = "Option::is_none")]
    pub env_id: Option<String>,
    /// Routes of the CDN that the platform renders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloudfrontCdn<C = String> {
    /// Production host.
    #[schemars(regex(pattern = PROD_HOST_PATTERN), transform = not_platform_host)]
    pub host: String,
    /// Routes of the CDN that the platform renders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Vec<String>>,
    #[serde(rename = "distributionId")]
    pub distribution_id: String,
    #[serde(rename = "accessKeyId")]
    pub access_key_id: String,
    #[serde(rename = "secretAccessKey")]
    pub secret_access_key: C,
    /// Whether a purge invalidates by cache tag (schema 1.73.0).
    #[serde(
        rename = "tagInvalidationEnabled",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub tag_invalidation_enabled: Option<bool>,
}

/// `cdn.live`, `cdn.preview`, `cdn.review`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CdnHost {
    pub host: String,
}

// Not derived: a derive would ask `C: Default`, which no credential needs to be.
impl<C> Default for CdnConfig<C> {
    fn default() -> Self {
        CdnConfig {
            prod: None,
            live: None,
            preview: None,
            review: None,
        }
    }
}

impl<C> CdnConfig<C> {
    /// The same block with each credential turned by `f` (given the credential's API
    /// name); the first error stops it.
    pub fn map_credentials<D, E>(
        self,
        mut f: impl FnMut(&'static str, C) -> Result<D, E>,
    ) -> Result<CdnConfig<D>, E> {
        let prod = match self.prod {
            None => None,
            Some(CdnProd::HostOnly(host)) => Some(CdnProd::HostOnly(host)),
            Some(CdnProd::Vendor(vendor)) => Some(CdnProd::Vendor(match vendor {
                VendorCdn::Fastly(c) => VendorCdn::Fastly(FastlyCdn {
                    host: c.host,
                    route: c.route,
                    service_id: c.service_id,
                    auth_token: f("authToken", c.auth_token)?,
                }),
                VendorCdn::Cloudflare(c) => VendorCdn::Cloudflare(CloudflareCdn {
                    host: c.host,
                    route: c.route,
                    plan: c.plan,
                    zone_id: c.zone_id,
                    api_token: f("apiToken", c.api_token)?,
                }),
                VendorCdn::Akamai(c) => VendorCdn::Akamai(AkamaiCdn {
                    host: c.host,
                    route: c.route,
                    endpoint: c.endpoint,
                    client_secret: f("clientSecret", c.client_secret)?,
                    client_token: f("clientToken", c.client_token)?,
                    access_token: f("accessToken", c.access_token)?,
                }),
                VendorCdn::Managed(c) => VendorCdn::Managed(c),
                VendorCdn::Cloudfront(c) => VendorCdn::Cloudfront(CloudfrontCdn {
                    host: c.host,
                    route: c.route,
                    distribution_id: c.distribution_id,
                    access_key_id: c.access_key_id,
                    secret_access_key: f("secretAccessKey", c.secret_access_key)?,
                    tag_invalidation_enabled: c.tag_invalidation_enabled,
                }),
            })),
        };
        Ok(CdnConfig {
            prod,
            live: self.live,
            preview: self.preview,
            review: self.review,
        })
    }
}

/// The API names of the credentials of a `cdn.prod` block: what is masked in bodies.
pub const CDN_CREDENTIALS: [&str; 6] = [
    "authToken",
    "apiToken",
    "clientSecret",
    "clientToken",
    "accessToken",
    "secretAccessKey",
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_prod_block_is_a_vendor_or_a_host() {
        let fastly = json!({"prod": {"type": "fastly", "host": "www.acme.example", "serviceId": "s", "authToken": "t"}});
        let cdn: CdnConfig = serde_json::from_value(fastly.clone()).unwrap();
        assert!(matches!(
            cdn.prod,
            Some(CdnProd::Vendor(VendorCdn::Fastly(_)))
        ));
        assert_eq!(serde_json::to_value(&cdn).unwrap(), fastly);
        let host = json!({"prod": {"host": "www.acme.example"}});
        let cdn: CdnConfig = serde_json::from_value(host.clone()).unwrap();
        assert_eq!(serde_json::to_value(&cdn).unwrap(), host);
    }

    #[test]
    fn credentials_map_one_by_one() {
        let cdn: CdnConfig = serde_json::from_value(json!({"prod": {"type": "akamai", "host": "a.example", "endpoint": "e", "clientSecret": "1", "clientToken": "2", "accessToken": "3"}})).unwrap();
        let mut seen = Vec::new();
        let mapped = cdn
            .map_credentials(|name, value| {
                seen.push(name);
                Ok::<_, ()>(value.len())
            })
            .unwrap();
        assert_eq!(seen, ["clientSecret", "clientToken", "accessToken"]);
        assert!(matches!(
            mapped.prod,
            Some(CdnProd::Vendor(VendorCdn::Akamai(AkamaiCdn {
                access_token: 1,
                ..
            })))
        ));
    }
}
