//! The page of one recent preview in `serve`: each source attempt (URL, status, time, the
//! fallback decision), each image with its allow-list decision, and the outcome.

use maud::html;

use super::RecentPreview;
use super::dashboard::{Addresses, layout, status_class};

pub fn page(preview: &RecentPreview, addresses: &Addresses) -> String {
    let host = addresses.preview_host(&preview.site, &preview.branch);
    let header = html! {
        h1 { a href="/" { "siteops serve" } " · trace" }
        span.meta {
            (preview.site.org) "/" (preview.site.site) " (" (preview.branch) ") " (preview.path)
        }
    };
    let failed: Vec<_> = preview.trace.images.iter().filter(|i| i.failed()).collect();
    let trace = &preview.trace;
    let main = html! {
        section #outcome {
            h2 { "Outcome" }
            p {
                span class=(status_class(preview.status)) #status { (preview.status) } " "
                @if let Some(error) = &preview.error { (error) }
                " · " a #page href={ (host) (preview.path) } { "open the page" }
            }
            @for warning in &preview.warnings {
                p.warn.conversion-warning { (warning) }
            }
            @if !failed.is_empty() {
                p.warn #failed-images {
                    "The page rendered, but " (failed.len()) " of its images failed (they became "
                    code { "about:error" } "): "
                    @for image in &failed {
                        code { (image.url.as_deref().unwrap_or(&image.src)) } " (" (image.decision) ") "
                    }
                }
            }
        }
        section #fetch {
            h2 { "Source attempts" }
            table {
                tr { th { "source" } th { "URL" } th { "status" } th { "answered by" } th { "time" } th { "decision" } }
                @for attempt in &trace.fetch {
                    tr.attempt {
                        td { (attempt.source) }
                        td { (attempt.url) }
                        td { (status(attempt.status)) }
                        td.answered { (answered(attempt.answered_by.as_ref())) }
                        td { (attempt.elapsed_ms) " ms" }
                        td { (attempt.decision) }
                    }
                    @for hop in &attempt.redirects {
                        tr {
                            td {}
                            td { "↳ " (hop.url) }
                            td { (status(hop.status)) }
                            td.answered { (answered(hop.answered_by.as_ref())) }
                            td {}
                            td {
                                @if hop.authorization { "with Authorization" }
                                @else { "without Authorization" }
                            }
                        }
                    }
                }
            }
        }
        section #images {
            h2 { "Images" }
            @if trace.images.is_empty() {
                p { "No images." }
            } @else {
                table {
                    tr {
                        th { "image" } th { "Authorization" } th { "status" } th { "answered by" } th { "attempts" }
                        th { "decision" } th { "stored as" }
                    }
                    @for image in &trace.images {
                        tr.image {
                            td { (image.url.as_deref().unwrap_or(&image.src)) }
                            td { @if image.allowed { "allowed" } @else { "not allowed" } }
                            td { (status(image.status)) }
                            td.answered { (answered(image.answered_by())) }
                            td { (image.attempts) }
                            td { (image.decision) }
                            td { (image.stored_as.as_deref().unwrap_or("")) }
                        }
                    }
                }
            }
            @if !trace.ignored_img_src.is_empty() {
                p { "Ignored " code { "x-html2md-img-src" } " tokens: " (trace.ignored_img_src.join(" ")) }
            }
        }
    };
    layout("Preview trace", header, main).into_string()
}

fn status(status: Option<u16>) -> String {
    status.map_or_else(|| "no answer".to_string(), |s| s.to_string())
}

/// Who answered a request: the network, a mock (its file), or nobody (no mock matched a
/// host the mocks stand in for, or anything offline).
fn answered(by: Option<&siteops_server::preview::trace::AnsweredBy>) -> String {
    by.map_or_else(|| "no answer".to_string(), ToString::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 44: the conversion's warnings (a second metadata block…) were only in the
    /// admin API's answer, not where the page's trace is read.
    #[test]
    fn the_conversions_warnings_are_on_the_trace() {
        let preview = RecentPreview {
            id: 1,
            site: siteops_config::model::SiteId {
                org: "acme".into(),
                site: "blog".into(),
            },
            branch: "main".into(),
            path: "/posts/kettle-guide".into(),
            status: 200,
            error: None,
            at: 0,
            trace: Default::default(),
            warnings: vec!["the page has 2 `metadata` blocks <b>".into()],
        };
        let html = page(&preview, &Addresses::default());
        assert!(
            html.contains("the page has 2 `metadata` blocks &lt;b&gt;"),
            "{html}"
        );
    }
}
