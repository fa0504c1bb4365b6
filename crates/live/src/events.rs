//! Telling open pages that the repository was applied again: server-sent events at
//! [`EVENTS_PATH`] (on every host `serve` answers), and the small script `serve` puts into
//! preview pages, which reloads the page when a newer reload than its own is announced.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use maud::html;

use super::{Live, LiveEvent};

pub const EVENTS_PATH: &str = "/.siteops/events";

/// Who reads a stream: a failed reload's message can name the server's own paths, so it is
/// for whom the dashboard answers; anyone else who may open a page learns only that the
/// reload failed (which is all the page's script needs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    Operator,
    Anyone,
}

/// How many event streams may be open, and for how long: each holds a connection, so
/// they are bounded per client and in all, and closed after `lifetime` (the page's
/// `EventSource` connects again by itself, and its first event catches it up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// Open streams of one client (peer address).
    pub per_client: usize,
    /// Open streams of every client.
    pub total: usize,
    /// How long a stream stays open.
    pub lifetime: Duration,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits {
            per_client: 16,
            total: 256,
            lifetime: Duration::from_secs(600),
        }
    }
}

/// Why a stream was not opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("this client has {0} event streams open already (the most per client): close one")]
    Client(usize),
    #[error("{0} event streams are open already (the most this service keeps): retry later")]
    Full(usize),
}

/// The event streams open now, by client.
#[derive(Debug, Default)]
pub struct OpenStreams {
    pub limits: StreamLimits,
    open: Mutex<Counts>,
    /// Set once the server stops: every stream ends then ([`OpenStreams::close`]).
    closed: tokio::sync::watch::Sender<bool>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_client: HashMap<Option<IpAddr>, usize>,
}

impl OpenStreams {
    pub fn new(limits: StreamLimits) -> OpenStreams {
        OpenStreams {
            limits,
            ..OpenStreams::default()
        }
    }

    /// Ends every stream, open or opened from now on: the server is stopping, and an open
    /// browser tab must not hold its shutdown for the grace period. The page's script
    /// reconnects to the next server by itself.
    pub fn close(&self) {
        self.closed.send_replace(true);
    }

    /// Completes once [`OpenStreams::close`] has been called.
    fn closed(&self) -> impl std::future::Future<Output = ()> + use<> {
        let mut closed = self.closed.subscribe();
        async move {
            // An error means the sender is gone, which also ends the streams.
            let _ = closed.wait_for(|closed| *closed).await;
        }
    }

    /// A place for one more stream of `client` (`None`: a peer not known), held until the
    /// ticket drops; refused past either bound.
    pub fn open(self: &Arc<Self>, client: Option<IpAddr>) -> Result<StreamTicket, Refused> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let of_client = open.by_client.get(&client).copied().unwrap_or(0);
        if of_client >= self.limits.per_client {
            return Err(Refused::Client(of_client));
        }
        if open.total >= self.limits.total {
            return Err(Refused::Full(open.total));
        }
        open.total += 1;
        *open.by_client.entry(client).or_default() += 1;
        Ok(StreamTicket {
            streams: self.clone(),
            client,
        })
    }

    /// How many streams are open now.
    pub fn count(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).total
    }
}

/// One open stream's place ([`OpenStreams::open`]), given back when dropped.
#[derive(Debug)]
pub struct StreamTicket {
    streams: Arc<OpenStreams>,
    client: Option<IpAddr>,
}

impl Drop for StreamTicket {
    fn drop(&mut self) {
        let mut open = self.streams.open.lock().unwrap_or_else(|p| p.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.by_client.get_mut(&self.client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.by_client.remove(&self.client);
            }
        }
    }
}

/// The event stream for one open page: the current generation first (so a page that
/// missed a reload while connecting catches up), then every reload, until the stream's
/// lifetime ends (`ticket` is given back when it does, or when the client leaves).
pub fn stream(
    live: Arc<Live>,
    audience: Audience,
    ticket: StreamTicket,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let lifetime = ticket.streams.limits.lifetime;
    let closed = ticket.streams.closed();
    let current = live
        .snapshot
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .generation;
    let receiver = live.subscribe();
    let first = Event::default()
        .event("hello")
        .data(format!("{{\"generation\":{current}}}"));
    let updates = stream::unfold(
        (receiver, ticket),
        move |(mut receiver, ticket)| async move {
            loop {
                match receiver.recv().await {
                    Ok(event) => return Some((Ok(to_sse(&event, audience)), (receiver, ticket))),
                    // Missed some: the next one still carries the newest generation.
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                }
            }
        },
    );
    let events = stream::once(async move { Ok(first) })
        .chain(updates)
        .take_until(tokio::time::sleep(lifetime))
        .take_until(closed);
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

fn to_sse(event: &LiveEvent, audience: Audience) -> Event {
    match event {
        LiveEvent::Reloaded { generation } => Event::default()
            .event("reloaded")
            .data(format!("{{\"generation\":{generation}}}")),
        LiveEvent::Failed {
            generation,
            message,
        } => {
            let data = match audience {
                Audience::Operator => {
                    serde_json::json!({"generation": generation, "message": message})
                }
                Audience::Anyone => serde_json::json!({"generation": generation}),
            };
            Event::default().event("failed").data(data.to_string())
        }
        LiveEvent::CodeChanged { repo, paths } => Event::default()
            .event("code")
            .data(serde_json::json!({"repo": repo.to_string(), "paths": paths}).to_string()),
    }
}

/// What the live session puts into a page it serves (a preview page, an error page, the
/// dashboard).
#[derive(Debug, Clone, Copy)]
pub struct PageScript<'a> {
    /// The reload the page was made with.
    pub generation: u64,
    /// The page's code repository (`owner/repo`); empty for none.
    pub code: &'a str,
    /// Set while the last reload did not apply: the page shows the last good state.
    pub invalid: Option<Invalid<'a>>,
    /// Set when the source failed at this view: the page is the preview stored before.
    pub stale: Option<Stale<'a>>,
    /// The answer's CSP nonce, which the reload script carries (a preview host's page:
    /// its own policy, and the page's, allow it); `None` where no policy asks for one.
    pub nonce: Option<&'a str>,
}

/// Why the page may be out of date, for its banner.
#[derive(Debug, Clone, Copy)]
pub struct Invalid<'a> {
    /// Why the last reload did not apply.
    pub message: &'a str,
    /// How many problems it reported.
    pub count: usize,
    /// The dashboard's address, which shows them.
    pub dashboard: &'a str,
}

/// Why the page is an earlier preview, for its banner: the source failed at this view.
#[derive(Debug, Clone, Copy)]
pub struct Stale<'a> {
    /// The status the preview failed with (502, 503, 504).
    pub status: u16,
    /// Why, as the preview said.
    pub message: &'a str,
    /// When the page served was previewed (RFC 3339).
    pub previewed: &'a str,
}

/// The banner of a page served from its stored preview because the source failed: what
/// failed, how old the page is, and how it refreshes (the next view previews again; a
/// source coming back announces nothing, so the page does not reload by itself).
pub fn stale_banner(stale: &Stale<'_>) -> String {
    html! {
        div #siteops-stale role="status" style="position:fixed;left:12px;bottom:12px;z-index:2147483647;max-width:calc(100% - 24px);padding:8px 12px;border-radius:6px;background:#b54708;color:#fff;font:14px/1.4 system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.3)" {
            "siteops: the source failed (" (stale.status) ": " (stale.message) "); this is the preview of "
            (stale.previewed) ". Reload the page to preview it again once the source answers."
        }
    }
    .into_string()
}

/// The script put before `</body>` of the pages serve makes. It reloads the page when a
/// reload newer than `generation` (the one the page was made with) is announced, applied
/// or not (a page made before a failed one then shows its banner), or when a file of the
/// page's code (`code`: `owner/repo`) changed. When only stylesheets changed, the page's
/// `<link rel="stylesheet">` to them are swapped for fresh ones instead: the new sheet
/// loads beside the old, which goes once it has, so the page keeps its state and never
/// shows unstyled.
///
/// With `nonce`, the script carries it (`nonce="…"`): a page whose policy allows scripts
/// by nonce (the preview host's, the boilerplate's `'nonce-aem' 'strict-dynamic'`) runs it.
pub fn reload_script(generation: u64, code: &str, nonce: Option<&str>) -> String {
    let code = serde_json::Value::from(code)
        .to_string()
        .replace('<', "\\u003c");
    // A nonce is base64 (the host's own); anything else is not written into the tag.
    let nonce = nonce
        .filter(|n| {
            n.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=-_".contains(&b))
        })
        .map(|n| format!(" nonce=\"{n}\""))
        .unwrap_or_default();
    format!(
        "<script{nonce}>(()=>{{const made={generation},code={code};const events=new EventSource('{EVENTS_PATH}');\
         const reload=()=>{{events.close();location.reload();}};\
         const check=e=>{{if(JSON.parse(e.data).generation>made)reload();}};\
         for(const name of ['hello','reloaded','failed'])events.addEventListener(name,check);\
         events.addEventListener('code',e=>{{const d=JSON.parse(e.data);if(d.repo!==code)return;\
         if(!d.paths.every(p=>p.toLowerCase().endsWith('.css')))return reload();\
         for(const link of document.querySelectorAll('link[rel=stylesheet]')){{\
         const url=new URL(link.href,location.href);if(url.origin!==location.origin||!d.paths.includes(url.pathname))continue;\
         url.searchParams.set('siteops',Date.now());const next=link.cloneNode();next.href=url.href;\
         next.onload=next.onerror=()=>link.remove();link.after(next);}}}});}})();</script>"
    )
}

/// The banner of a page served while the repository does not apply: small, fixed in a
/// corner, naming the problem and its count, and linking to the dashboard.
pub fn banner(invalid: &Invalid<'_>) -> String {
    let count = match invalid.count {
        0 => String::new(),
        1 => " (1 problem)".to_string(),
        n => format!(" ({n} problems)"),
    };
    html! {
        div #siteops-invalid role="status" style="position:fixed;left:12px;bottom:12px;z-index:2147483647;max-width:calc(100% - 24px);padding:8px 12px;border-radius:6px;background:#b42318;color:#fff;font:14px/1.4 system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.3)" {
            "siteops: " (invalid.message) (count) " · "
            a href=(invalid.dashboard) style="color:#fff;text-decoration:underline" { "open the dashboard" }
        }
    }
    .into_string()
}

/// `html` with the banner (when the repository does not apply) and the reload script
/// before its `</body>` (or at its end).
pub fn inject(html: &str, page: &PageScript<'_>) -> String {
    let mut added = page.invalid.as_ref().map(banner).unwrap_or_default();
    added.extend(page.stale.as_ref().map(stale_banner));
    added.push_str(&reload_script(page.generation, page.code, page.nonce));
    match html.rfind("</body>") {
        Some(at) => format!("{}{added}{}", &html[..at], &html[at..]),
        None => format!("{html}{added}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 43: streams were never closed nor bounded; 1,024 open took every connection.
    #[test]
    fn streams_are_bounded_per_client_and_in_all() {
        let streams = Arc::new(OpenStreams::new(StreamLimits {
            per_client: 2,
            total: 3,
            lifetime: Duration::from_secs(600),
        }));
        let (a, b): (IpAddr, IpAddr) = ([127, 0, 0, 1].into(), [127, 0, 0, 2].into());
        let first = streams.open(Some(a)).expect("a's first");
        let _second = streams.open(Some(a)).expect("a's second");
        assert_eq!(streams.open(Some(a)).unwrap_err(), Refused::Client(2));
        let _third = streams.open(Some(b)).expect("b's first");
        assert_eq!(streams.open(None).unwrap_err(), Refused::Full(3));
        // A closed stream gives its place back.
        drop(first);
        assert_eq!(streams.count(), 2);
        assert!(streams.open(Some(a)).is_ok());
    }

    #[tokio::test(start_paused = true)]
    async fn a_stream_closes_after_its_lifetime_and_gives_its_place_back() {
        use axum::response::IntoResponse;
        let mut live = Live::new(std::path::PathBuf::from("."), true);
        live.streams = Arc::new(OpenStreams::new(StreamLimits {
            lifetime: Duration::from_secs(5),
            ..StreamLimits::default()
        }));
        let live = Arc::new(live);
        let ticket = live.streams.open(None).expect("a place");
        let body = stream(live.clone(), Audience::Operator, ticket)
            .into_response()
            .into_body();
        // The body ends (time is paused: it jumps to the lifetime's end), hello first.
        let bytes = tokio::time::timeout(
            Duration::from_secs(3600),
            axum::body::to_bytes(body, usize::MAX),
        )
        .await
        .expect("the stream ended")
        .expect("a body");
        assert!(String::from_utf8_lossy(&bytes).contains("event: hello"));
        assert_eq!(live.streams.count(), 0);
    }

    #[test]
    fn a_failure_message_is_only_for_operators() {
        let failed = LiveEvent::Failed {
            generation: 3,
            message: "cannot read /srv/siteops/sites/acme/web/site.toml".into(),
        };
        let text = |audience| format!("{:?}", to_sse(&failed, audience));
        assert!(text(Audience::Operator).contains("/srv/siteops/sites"));
        assert!(!text(Audience::Anyone).contains("/srv/siteops"));
        assert!(text(Audience::Anyone).contains("generation"));
    }

    fn script(generation: u64, code: &str) -> PageScript<'_> {
        PageScript {
            generation,
            code,
            invalid: None,
            stale: None,
            nonce: None,
        }
    }

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        let page = inject(
            "<html><body><p>x</p></body></html>",
            &script(7, "acme/website"),
        );
        assert!(page.starts_with("<html><body><p>x</p><script>"));
        assert!(page.ends_with("</script></body></html>"));
        assert!(page.contains("const made=7,code=\"acme/website\";"));
        assert!(inject("<p>x</p>", &script(1, "")).starts_with("<p>x</p><script>"));
        // A repository name cannot end the script.
        assert!(!inject("<p>x</p>", &script(1, "</script>")).contains("</script>\";"));
        // A failed reload reloads the page too, so that it shows the banner.
        assert!(page.contains("['hello','reloaded','failed']"));
    }

    #[test]
    fn the_script_carries_the_answers_nonce() {
        let with = |nonce| {
            inject(
                "<body></body>",
                &PageScript {
                    nonce: Some(nonce),
                    ..script(1, "")
                },
            )
        };
        assert!(with("AbC+/9==").starts_with("<body><script nonce=\"AbC+/9==\">(()=>"));
        // Not a nonce the host makes: not written.
        assert!(with("\"><img src=x>").starts_with("<body><script>(()=>"));
    }

    /// Issue 28: a preview page gave no sign that the repository did not apply.
    #[test]
    fn an_invalid_repository_shows_a_banner_with_its_count() {
        let invalid = Invalid {
            message: "the <repository> does not validate",
            count: 3,
            dashboard: "http://localhost:3000/",
        };
        let html = inject(
            "<body><main></main></body>",
            &PageScript {
                invalid: Some(invalid),
                stale: None,
                ..script(2, "")
            },
        );
        assert!(
            html.starts_with("<body><main></main><div id=\"siteops-invalid\""),
            "{html}"
        );
        assert!(html.contains("siteops: the &lt;repository&gt; does not validate (3 problems)"));
        assert!(html.contains("href=\"http://localhost:3000/\""));
        assert!(html.ends_with("</script></body>"));
        assert!(
            banner(&Invalid {
                count: 1,
                ..invalid
            })
            .contains("(1 problem)")
        );
        assert!(
            !banner(&Invalid {
                count: 0,
                ..invalid
            })
            .contains("problem")
        );
    }
}
