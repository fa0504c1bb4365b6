//! The page of one recent preview in `serve`: each source attempt (URL, status, time, the
//! fallback decision), each image with its allow-list decision, and the outcome.

use std::fmt::Write as _;

use super::RecentPreview;
use super::dashboard::{Addresses, STYLE};
use crate::html::escape_into;

pub fn page(preview: &RecentPreview, addresses: &Addresses) -> String {
    let mut out = String::with_capacity(8 * 1024);
    out.push_str("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Preview trace</title><style>");
    out.push_str(STYLE);
    out.push_str("</style></head><body><header><h1><a href=\"/\">siteops serve</a> · trace</h1><span class=\"meta\">");
    escape_into(
        &format!(
            "{}/{} ({}) {}",
            preview.site.org, preview.site.site, preview.branch, preview.path
        ),
        &mut out,
    );
    out.push_str("</span></header><main><section id=\"outcome\"><h2>Outcome</h2>");
    let class = if preview.status < 300 { "ok" } else { "bad" };
    let _ = write!(
        out,
        "<p><span class=\"{class}\" id=\"status\">{}</span> ",
        preview.status
    );
    if let Some(error) = &preview.error {
        escape_into(error, &mut out);
    }
    let host = addresses.preview_host(&preview.site, &preview.branch);
    out.push_str(" · <a id=\"page\" href=\"");
    escape_into(&format!("{host}{}", preview.path), &mut out);
    out.push_str("\">open the page</a></p></section>");

    out.push_str("<section id=\"fetch\"><h2>Source attempts</h2><table><tr><th>source</th><th>URL</th><th>status</th><th>time</th><th>decision</th></tr>");
    for attempt in &preview.trace.fetch {
        out.push_str("<tr class=\"attempt\"><td>");
        escape_into(&attempt.source, &mut out);
        out.push_str("</td><td>");
        escape_into(&attempt.url, &mut out);
        out.push_str("</td><td>");
        escape_into(&status(attempt.status), &mut out);
        let _ = write!(out, "</td><td>{} ms</td><td>", attempt.elapsed_ms);
        escape_into(&attempt.decision, &mut out);
        out.push_str("</td></tr>");
        for hop in &attempt.redirects {
            out.push_str("<tr><td></td><td>↳ ");
            escape_into(&hop.url, &mut out);
            out.push_str("</td><td>");
            escape_into(&status(hop.status), &mut out);
            let _ = write!(
                out,
                "</td><td></td><td>{}</td></tr>",
                if hop.authorization {
                    "with Authorization"
                } else {
                    "without Authorization"
                }
            );
        }
    }
    out.push_str("</table></section>");

    out.push_str("<section id=\"images\"><h2>Images</h2>");
    if preview.trace.images.is_empty() {
        out.push_str("<p>No images.</p>");
    } else {
        out.push_str("<table><tr><th>image</th><th>Authorization</th><th>status</th><th>attempts</th><th>decision</th><th>stored as</th></tr>");
        for image in &preview.trace.images {
            out.push_str("<tr class=\"image\"><td>");
            escape_into(image.url.as_deref().unwrap_or(&image.src), &mut out);
            let _ = write!(
                out,
                "</td><td>{}</td><td>",
                if image.allowed {
                    "allowed"
                } else {
                    "not allowed"
                }
            );
            escape_into(&status(image.status), &mut out);
            let _ = write!(out, "</td><td>{}</td><td>", image.attempts);
            escape_into(&image.decision, &mut out);
            out.push_str("</td><td>");
            escape_into(image.stored_as.as_deref().unwrap_or(""), &mut out);
            out.push_str("</td></tr>");
        }
        out.push_str("</table>");
    }
    if !preview.trace.ignored_img_src.is_empty() {
        out.push_str("<p>Ignored <code>x-html2md-img-src</code> tokens: ");
        escape_into(&preview.trace.ignored_img_src.join(" "), &mut out);
        out.push_str("</p>");
    }
    out.push_str("</section></main></body></html>");
    out
}

fn status(status: Option<u16>) -> String {
    status.map_or_else(|| "no answer".to_string(), |s| s.to_string())
}
