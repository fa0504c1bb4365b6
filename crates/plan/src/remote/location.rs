//! Where each resource lives on the two services: written once, in the config crate's
//! `api_path`, which the compile output and the bundled service's store keys share.

pub use siteops_config::api_path::{Location, PathFamily, Service};
