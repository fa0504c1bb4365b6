//! `html-pipe`: the answer to a page request (a path without extension, `.plain.html`,
//! a code `.html`).

use siteops_ingest::render::{PageDelivery, PageOptions, page, plain_html};

use crate::bus::{Bus, Buses, Fetched};
use crate::config::PipelineConfig;
use crate::response::{DeliveryRequest, Response};

const HTML: &str = "text/html; charset=utf-8";

/// The answer to `request` for the site configured by `config`, reading from `buses`.
pub async fn html_pipe(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    buses: &impl Buses,
) -> Response {
    let path = request.url.path();
    let (web_path, plain) = match path.strip_suffix(".plain.html") {
        Some(stem) => (stem.to_owned(), true),
        None => (path.to_owned(), false),
    };
    let resource = if web_path.ends_with('/') {
        format!("{web_path}index.md")
    } else {
        format!("{web_path}.md")
    };
    let mut response = Response::new(200);
    response.set_header("content-type", HTML);
    match buses.get(Bus::Content, &resource).await {
        Fetched::Found(object) => {
            let markdown = String::from_utf8_lossy(&object.body);
            if plain {
                response.body = plain_html(&markdown).into_bytes();
            } else {
                let options = PageOptions {
                    url: request.url.clone(),
                    head_html: config.head_html().map(str::to_owned),
                    delivery: PageDelivery::default(),
                };
                let rendered = page(&markdown, &options);
                for (name, value) in rendered.headers {
                    response.set_header(&name, value);
                }
                response.body = rendered.html.into_bytes();
            }
        }
        Fetched::NotFound => {
            response.status = 404;
            response.set_header(
                "x-error",
                format!("failed to load {resource} from content-bus: 404"),
            );
        }
        Fetched::Failed(why) => {
            response.status = 502;
            response.set_header(
                "x-error",
                format!("failed to load {resource} from content-bus: {why}"),
            );
        }
    }
    response
}
