//! What the platform delivers around a page's stored markdown, as
//! `@adobe/helix-html-pipeline` does it: its `html-pipe` (folder mappings, redirects, the
//! code's static pages and `404.html`, metadata sheets, custom headers, the CSP nonce,
//! `/index` refused), `json-pipe` (sheets filtered by `limit`, `offset`, `sheet`),
//! `robots-pipe` and the sitemap pipes.
//!
//! Pure: what the pipeline reads from the platform's two buses (the content bus: pages'
//! markdown, sheets; the code bus: the site's code) it asks of a [`Buses`] the caller
//! gives, and randomness (the nonce) comes in with the request. `siteops ingest` reads
//! the buses from local files, the preview host from its store and the site's code.
//!
//! ```text
//! Request + PipelineConfig ──path info──▶ fetch (content | code bus, folder mapping)
//!   ──▶ redirect (301) | 404 (+ 404.html) | code (CSP on code) | markdown
//!   ──▶ render (siteops-ingest: metadata sheets, section metadata, CSP on the tree)
//!   ──▶ custom headers ──▶ Response
//! ```

pub mod bus;
pub mod config;
pub mod csp;
pub mod custom_headers;
mod dates;
pub mod html_pipe;
mod js_json;
mod json_filter;
pub mod json_pipe;
pub mod modifiers;
pub mod path_info;
mod pipe_support;
pub mod response;
pub mod robots;
mod sheets;
pub mod sitemap;
mod start_tags;

pub use bus::{Bus, BusObject, Buses, Fetched, MAX_OBJECT_BYTES};
pub use config::PipelineConfig;
pub use html_pipe::html_pipe;
pub use json_pipe::json_pipe;
pub use modifiers::Modifiers;
pub use response::{DeliveryRequest, Partition, Response};
pub use robots::robots_pipe;
pub use sitemap::sitemap_pipe;
