//! The delivery's other answers: a sheet's JSON (`json-pipe`), `/robots.txt`
//! (`robots-pipe`), `/sitemap.xml` and `/sitemap-index.xml` (the sitemap pipes).
//! Skeleton: each answers 404 until built.

use crate::bus::Buses;
use crate::config::PipelineConfig;
use crate::response::{DeliveryRequest, Response};

/// `json-pipe`: a sheet from the content bus (else the code bus), filtered by the
/// request's `limit` (default 1,000), `offset` and `sheet` parameters.
pub async fn json_pipe(
    _request: &DeliveryRequest,
    _config: &PipelineConfig,
    _buses: &impl Buses,
) -> Response {
    Response::new(404)
}

/// `robots-pipe`: `/robots.txt` from `robots.txt` of the configuration, else the code's.
pub async fn robots_pipe(
    _request: &DeliveryRequest,
    _config: &PipelineConfig,
    _buses: &impl Buses,
) -> Response {
    Response::new(404)
}

/// The sitemap pipes: `/sitemap.xml`, `/sitemap-index.xml` and the sitemaps a site's
/// `sitemap.yaml` (or its sitemap configuration) names.
pub async fn sitemap_pipe(
    _request: &DeliveryRequest,
    _config: &PipelineConfig,
    _buses: &impl Buses,
) -> Response {
    Response::new(404)
}
