//! Telling open pages that the repository was applied again: server-sent events at
//! [`EVENTS_PATH`] (on every host `serve` answers), and the small script `serve` puts into
//! preview pages, which reloads the page when a newer reload than its own is announced.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use super::{Live, LiveEvent};

pub const EVENTS_PATH: &str = "/.siteops/events";

/// The event stream for one open page: the current generation first (so a page that
/// missed a reload while connecting catches up), then every reload.
pub fn stream(live: Arc<Live>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let current = live
        .snapshot
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .generation;
    let receiver = live.subscribe();
    let first = Event::default()
        .event("hello")
        .data(format!("{{\"generation\":{current}}}"));
    let updates = stream::unfold(receiver, |mut receiver| async move {
        loop {
            match receiver.recv().await {
                Ok(event) => return Some((Ok(to_sse(&event)), receiver)),
                // Missed some: the next one still carries the newest generation.
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(stream::once(async move { Ok(first) }).chain(updates))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

fn to_sse(event: &LiveEvent) -> Event {
    match event {
        LiveEvent::Reloaded { generation } => Event::default()
            .event("reloaded")
            .data(format!("{{\"generation\":{generation}}}")),
        LiveEvent::Failed {
            generation,
            message,
        } => Event::default()
            .event("failed")
            .data(serde_json::json!({"generation": generation, "message": message}).to_string()),
        LiveEvent::CodeChanged { repo, paths } => Event::default()
            .event("code")
            .data(serde_json::json!({"repo": repo.to_string(), "paths": paths}).to_string()),
    }
}

/// The script put before `</body>` of preview pages in serve mode. It reloads the page
/// when a reload newer than `generation` (the one the page was made with) is announced, or
/// when a file of the page's code (`code`: `owner/repo`) changed. When only stylesheets
/// changed, the page's `<link rel="stylesheet">` to them are swapped for fresh ones
/// instead: the new sheet loads beside the old, which goes once it has, so the page keeps
/// its state and never shows unstyled.
pub fn reload_script(generation: u64, code: &str) -> String {
    let code = serde_json::Value::from(code)
        .to_string()
        .replace('<', "\\u003c");
    format!(
        "<script>(()=>{{const made={generation},code={code};const events=new EventSource('{EVENTS_PATH}');\
         const reload=()=>{{events.close();location.reload();}};\
         const check=e=>{{if(JSON.parse(e.data).generation>made)reload();}};\
         events.addEventListener('hello',check);events.addEventListener('reloaded',check);\
         events.addEventListener('code',e=>{{const d=JSON.parse(e.data);if(d.repo!==code)return;\
         if(!d.paths.every(p=>p.toLowerCase().endsWith('.css')))return reload();\
         for(const link of document.querySelectorAll('link[rel=stylesheet]')){{\
         const url=new URL(link.href,location.href);if(url.origin!==location.origin||!d.paths.includes(url.pathname))continue;\
         url.searchParams.set('siteops',Date.now());const next=link.cloneNode();next.href=url.href;\
         next.onload=next.onerror=()=>link.remove();link.after(next);}}}});}})();</script>"
    )
}

/// `html` with the reload script before its `</body>` (or at its end).
pub fn inject(html: &str, generation: u64, code: &str) -> String {
    let script = reload_script(generation, code);
    match html.rfind("</body>") {
        Some(at) => format!("{}{script}{}", &html[..at], &html[at..]),
        None => format!("{html}{script}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        let page = inject("<html><body><p>x</p></body></html>", 7, "acme/website");
        assert!(page.starts_with("<html><body><p>x</p><script>"));
        assert!(page.ends_with("</script></body></html>"));
        assert!(page.contains("const made=7,code=\"acme/website\";"));
        assert!(inject("<p>x</p>", 1, "").starts_with("<p>x</p><script>"));
        // A repository name cannot end the script.
        assert!(!inject("<p>x</p>", 1, "</script>").contains("</script>\";"));
    }
}
