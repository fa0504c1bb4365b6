//! Plans and applies, like Terraform: the compiled resources of the sites repository
//! against the live state of an administration service.
//!
//! - [`plan`]: the diff (pure: compiled resources and live state in, a plan out), its
//!   renderings (terminal, markdown, JSON) and the live state's digest;
//! - [`remote`]: the administration API client (retries, rate limits, locations);
//! - [`apply`]: a plan carried out in dependency order, with a report;
//! - [`http`]: the one outgoing HTTP client configuration siteops uses;
//! - [`scope`], [`shard`]: which sites a plan covers (`--site`, `--shard`, `--prune`).
//!
//! Depends on the configuration core and the network; never on the bundled server.

pub mod apply;
pub mod http;
pub mod plan;
pub mod remote;
pub mod scope;
pub mod shard;
pub mod versions;
