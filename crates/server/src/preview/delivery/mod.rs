//! A preview host's pages as the platform delivers them: at the view, from the stored
//! markdown and sheets, through `siteops-delivery`'s pipes (`html-pipe`, `json-pipe`,
//! `robots-pipe`, the sitemap pipes), with the site's configuration of now
//! ([`pipeline_config`]) and its buses over the store and the site's code ([`SiteBuses`]).
//! So a previewed metadata sheet, a header rule, a folder mapping or an edit of
//! `head.html` applies on the next view, as on the platform, without previewing again.
//!
//! Rendering is CPU work: a pipe runs on a blocking thread ([`deliver`]). The answer's
//! CSP nonce is chosen here ([`new_nonce`], the platform's: 18 random bytes, base64) and
//! given to the pipe, which puts it where the page's code asks (`nonce="aem"`,
//! `'nonce-aem'`); the preview host's own policy uses the same one.

mod buses;
mod cache;
mod config;

pub use buses::{Prefetched, REDIRECTS, SiteBuses, prefetch, redirect_in, stored_redirect};
pub use cache::RenderCache;
pub use config::{DEFAULT_METADATA, from_documents, pipeline_config};

use base64::Engine;
use siteops_delivery::{
    DeliveryRequest, PipelineConfig, Response, html_pipe, json_pipe, robots_pipe, sitemap_pipe,
};

/// Which of the platform's pipes answers a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pipe {
    /// A page (a path without extension, `.plain.html`) or a code `.html`.
    Html,
    /// A sheet (`.json`).
    Json,
    /// `/robots.txt`.
    Robots,
    /// `/sitemap.xml`, `/sitemap-index.xml`.
    Sitemap,
}

impl Pipe {
    /// The pipe of a request path, or `None` for what the delivery leaves to the host
    /// (stored markdown, the branch's images, other code files, `/config.json`).
    pub fn of(path: &str) -> Option<Pipe> {
        let name = path.rsplit('/').next().unwrap_or("");
        if crate::preview::images::media::is_media_name(name) {
            return None;
        }
        match path {
            "/robots.txt" => return Some(Pipe::Robots),
            "/sitemap.xml" | "/sitemap-index.xml" => return Some(Pipe::Sitemap),
            _ => {}
        }
        match name.rsplit_once('.') {
            None => Some(Pipe::Html),
            Some((_, "html")) => Some(Pipe::Html),
            Some((stem, "json")) if !stem.is_empty() => Some(Pipe::Json),
            // A dot file (`/.hlxignore`) is no code file a host serves, nor a page.
            Some(("", _)) => Some(Pipe::Html),
            Some(_) => None,
        }
    }

    /// The web paths whose records a view through this pipe reads first: the page's,
    /// and the sheets every page reads (redirects, metadata).
    pub fn first_records(self, path: &str, config_sources: &[String]) -> Vec<String> {
        let mut paths = Vec::new();
        if let Some(page) = page_of(path) {
            paths.push(page);
        }
        if self == Pipe::Html {
            paths.push(REDIRECTS.to_owned());
            paths.extend(config_sources.iter().cloned());
        }
        paths.sort();
        paths.dedup();
        paths
    }
}

/// The web path of the page or sheet a request path asks for.
fn page_of(path: &str) -> Option<String> {
    let stem = path
        .strip_suffix(".plain.html")
        .or_else(|| path.strip_suffix(".html"))
        .unwrap_or(path);
    crate::preview::url::PagePath::parse(stem)
        .ok()
        .map(|page| page.web_path())
}

/// A new CSP nonce: 18 random bytes, base64-encoded (24 characters), as the platform's.
pub fn new_nonce() -> String {
    let mut bytes = [0u8; 18];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: a nonce nobody can know in advance is still better than none.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes[..16].copy_from_slice(&now.to_le_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The answer of `pipe` to `request`: kept from an earlier view when nothing it read
/// changed since ([`RenderCache`]), else rendered on one of the [`Renderers`] (the pipe
/// renders, and reads its buses from there: the runtime drives the reads) and kept.
///
/// Deliveries at once are as many as twice the cores: a render of the largest page of
/// the conformance corpus (367 KiB of markdown) takes about 0.1 s and a few MiB, so more
/// at once would only add memory, not speed. The others wait their turn without holding
/// a thread. One org's deliveries at once are fewer than the render threads
/// ([`RenderTurns`]): however many views one org gets, another org's page finds a thread.
pub async fn deliver(
    pipe: Pipe,
    mut request: DeliveryRequest,
    config: PipelineConfig,
    buses: SiteBuses,
    cache: &RenderCache,
) -> Response {
    static TURNS: std::sync::LazyLock<RenderTurns> = std::sync::LazyLock::new(|| {
        let threads = Renderers::count();
        RenderTurns::new(threads * 2, threads.saturating_sub(1).max(1))
    });
    let key = cache::RenderKey::new(buses.site(), pipe, &request, &config);
    let nonce = std::mem::replace(&mut request.nonce, cache.placeholder().to_owned());
    if let Some(kept) = cache.get(&key)
        && buses.read_alike(&kept.reads).await
    {
        return cache.answer(&kept, &nonce);
    }
    let turn = TURNS.take(buses.org()).await;
    let runtime = tokio::runtime::Handle::current();
    let (answer, answered) = tokio::sync::oneshot::channel();
    let job = move || {
        // Held by the work, not by its caller: a view given up still counts until its
        // render ends.
        let _turn = turn;
        let response = runtime.block_on(async {
            match pipe {
                Pipe::Html => html_pipe(&request, &config, &buses).await,
                Pipe::Json => json_pipe(&request, &config, &buses).await,
                Pipe::Robots => robots_pipe(&request, &config, &buses).await,
                Pipe::Sitemap => sitemap_pipe(&request, &config, &buses).await,
            }
        });
        let _ = answer.send((response, buses.reads()));
    };
    Renderers::get().run(Box::new(job));
    match answered.await {
        Ok((response, reads)) => {
            cache.keep(key, reads, &response);
            cache.with_nonce(response, &nonce)
        }
        Err(_) => {
            tracing::error!("a delivery stopped");
            let mut response = Response::new(500);
            response.set_header("x-error", "the delivery stopped");
            response
        }
    }
}

/// Turns at the render threads, shared fairly between orgs: at most `total` renders in
/// flight, and at most `per_org` of one org's. An org's views past its bound wait for
/// the org's own turns first, so they never queue at the shared turns ahead of another
/// org's view (the shared semaphore is first come, first served).
#[derive(Debug)]
pub(crate) struct RenderTurns {
    total: std::sync::Arc<tokio::sync::Semaphore>,
    per_org: usize,
    orgs:
        std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<tokio::sync::Semaphore>>>,
}

/// One render's turn ([`RenderTurns::take`]): its org's and the shared one, given back
/// when dropped.
#[derive(Debug)]
pub(crate) struct RenderTurn {
    _shared: Option<tokio::sync::OwnedSemaphorePermit>,
    _org: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl RenderTurns {
    pub(crate) fn new(total: usize, per_org: usize) -> RenderTurns {
        RenderTurns {
            total: std::sync::Arc::new(tokio::sync::Semaphore::new(total)),
            per_org,
            orgs: std::sync::Mutex::default(),
        }
    }

    /// Waits for a turn of `org`'s, then for a shared one. The semaphores are never
    /// closed: a permit always comes.
    pub(crate) async fn take(&self, org: &str) -> RenderTurn {
        let of_org = {
            let mut orgs = self.orgs.lock().unwrap_or_else(|p| p.into_inner());
            // An org with nothing in flight nor waiting is forgotten: the map holds only
            // the orgs being rendered now.
            orgs.retain(|_, turns| std::sync::Arc::strong_count(turns) > 1);
            orgs.entry(org.to_owned())
                .or_insert_with(|| std::sync::Arc::new(tokio::sync::Semaphore::new(self.per_org)))
                .clone()
        };
        let org_turn = of_org.acquire_owned().await.ok();
        let shared = self.total.clone().acquire_owned().await.ok();
        RenderTurn {
            _shared: shared,
            _org: org_turn,
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// The threads that run deliveries: as many as the cores, for the process's life.
///
/// Why not tokio's blocking pool: under load it grows to hundreds of threads that come
/// and go, and each keeps the heap its renders touched (measured: 64 clients viewing a
/// 35 KB page took the process from 50 MB to 530 MB). A render's memory stays in these
/// few threads' heaps instead.
struct Renderers {
    jobs: std::sync::Mutex<std::sync::mpsc::Sender<Job>>,
    /// How many threads started (none: the blocking pool runs the jobs).
    started: usize,
}

impl Renderers {
    fn count() -> usize {
        std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
    }

    fn get() -> &'static Renderers {
        static RENDERERS: std::sync::LazyLock<Renderers> = std::sync::LazyLock::new(|| {
            let (jobs, queue) = std::sync::mpsc::channel::<Job>();
            let queue = std::sync::Arc::new(std::sync::Mutex::new(queue));
            let mut started = 0;
            for n in 0..Renderers::count() {
                let queue = queue.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("siteops-render-{n}"))
                    // The conversion threads' stack: deep documents are as safe here.
                    .stack_size(8 << 20)
                    .spawn(move || {
                        loop {
                            // The lock is held only to take a job, not to run it.
                            let job = match queue.lock() {
                                Ok(queue) => queue.recv(),
                                Err(_) => return,
                            };
                            let Ok(job) = job else { return };
                            // A panicking render drops its answer (the view gets 500);
                            // the thread goes on.
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        }
                    });
                match spawned {
                    Ok(_) => started += 1,
                    Err(error) => tracing::error!(%error, "a render thread did not start"),
                }
            }
            Renderers {
                jobs: std::sync::Mutex::new(jobs),
                started,
            }
        });
        &RENDERERS
    }

    /// Queues `job`; a job that cannot be queued is dropped (its view gets 500).
    fn run(&self, job: Job) {
        if self.started == 0 {
            tokio::task::spawn_blocking(job);
        } else if let Ok(jobs) = self.jobs.lock() {
            let _ = jobs.send(job);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_go_to_their_pipes() {
        for (path, pipe) in [
            ("/", Some(Pipe::Html)),
            ("/blog/post", Some(Pipe::Html)),
            ("/blog/post.plain.html", Some(Pipe::Html)),
            ("/static.html", Some(Pipe::Html)),
            ("/404.html", Some(Pipe::Html)),
            ("/index", Some(Pipe::Html)),
            ("/query-index.json", Some(Pipe::Json)),
            ("/robots.txt", Some(Pipe::Robots)),
            ("/sitemap.xml", Some(Pipe::Sitemap)),
            ("/sitemap-index.xml", Some(Pipe::Sitemap)),
            ("/blog/post.md", None),
            ("/styles/styles.css", None),
            ("/media_0123456789abcdef0123456789abcdef01234567.png", None),
            ("/docs/robots.txt", None),
        ] {
            assert_eq!(Pipe::of(path), pipe, "{path}");
        }
    }

    #[test]
    fn a_view_reads_the_page_and_the_sheets_every_page_reads_first() {
        let sources = [DEFAULT_METADATA.to_owned()];
        assert_eq!(
            Pipe::Html.first_records("/blog/post.plain.html", &sources),
            ["/blog/post", DEFAULT_METADATA, REDIRECTS]
        );
        assert_eq!(
            Pipe::Json.first_records("/query-index.json", &sources),
            ["/query-index.json"]
        );
    }

    /// Issue 43: one org's views held every render turn, so another org's small page
    /// waited behind them. An org past its bound waits; another org's render goes at once.
    #[tokio::test]
    async fn one_orgs_renders_leave_turns_for_another_org() {
        use futures_util::FutureExt;
        let turns = RenderTurns::new(4, 1);
        let held = turns.take("acme").await;
        // acme's next views wait for acme's own turn (many of them: none gets ahead).
        let mut waiting: Vec<_> = (0..8).map(|_| Box::pin(turns.take("acme"))).collect();
        for view in &mut waiting {
            assert!(view.as_mut().now_or_never().is_none());
        }
        // Another org's view gets its turn at once.
        let other = turns.take("globex").now_or_never();
        assert!(other.is_some(), "globex waited behind acme");
        drop(held);
        assert!(waiting[0].as_mut().now_or_never().is_some());
    }

    /// Issue 43: pages were rendered at every view, so one org's views held the render
    /// threads. A view of a page nobody changed is answered from the kept render (with
    /// its own nonce); a new revision of the page renders anew.
    #[tokio::test]
    async fn a_view_of_an_unchanged_page_is_a_lookup_and_a_new_revision_renders() {
        use std::sync::Arc;

        use crate::code::SiteCode;
        use crate::preview::store::PreviewRecord;
        use crate::store::{FsStore, Store, keys};

        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        let code = Arc::new(SiteCode::new(store.clone()));
        let page = keys::preview_page("acme", "web", "main", "/a");
        let save = |revision: &'static str, text: &'static str| {
            let (store, page) = (store.clone(), page.clone());
            async move {
                let file = page.file(revision, "page.md");
                store.put(file.as_str(), text.as_bytes()).await.expect("md");
                let record = PreviewRecord {
                    web_path: "/a".into(),
                    resource_path: "/a.md".into(),
                    kind: "page".into(),
                    revision: revision.into(),
                    files: vec!["page.md".into()],
                    source: "primary".into(),
                    source_url: "https://content.example/a".into(),
                    source_last_modified: None,
                    last_modified: format!("2026-01-01T00:00:0{}Z", revision.len()),
                    content_bus_id: "0".repeat(40),
                    media: Vec::new(),
                    trace: crate::preview::Trace::default(),
                    warnings: Vec::new(),
                };
                let bytes = serde_json::to_vec(&record).expect("record");
                store.put(&page.record(), &bytes).await.expect("record");
                file
            }
        };
        let cache = RenderCache::default();
        let view = |nonce: &'static str| {
            let (store, code, cache) = (store.clone(), code.clone(), &cache);
            async move {
                let first = Pipe::Html.first_records("/a", &[DEFAULT_METADATA.to_owned()]);
                let site = ("acme", "web", "main");
                let prefetched = prefetch(store.as_ref(), site, &first).await.expect("reads");
                let buses = SiteBuses::new(store, code, site, None, prefetched);
                let request = DeliveryRequest {
                    url: "http://main--web--acme.localhost/a".parse().expect("URL"),
                    partition: siteops_delivery::Partition::Preview,
                    origin: None,
                    forwarded_host: None,
                    nonce: nonce.to_owned(),
                };
                let config = PipelineConfig::default();
                let answer = deliver(Pipe::Html, request, config, buses, cache).await;
                assert_eq!(answer.status, 200);
                String::from_utf8(answer.body).expect("UTF-8")
            }
        };
        let file = save("r1", "# First\n").await;
        let first = view("nonce-one").await;
        assert!(first.contains("First"), "{first}");
        // The rendered page's source is gone, its record unchanged: only the kept render
        // can answer (a render would find no markdown).
        store.delete(file.as_str()).await.expect("delete");
        let second = view("nonce-two").await;
        assert_eq!(second, first.replace("nonce-one", "nonce-two"));
        save("r22", "# Second\n").await;
        let third = view("nonce-three").await;
        assert!(third.contains("Second"), "{third}");
    }

    #[test]
    fn nonces_are_the_platforms_shape_and_differ() {
        let (a, b) = (new_nonce(), new_nonce());
        assert_eq!(a.len(), 24);
        assert_ne!(a, b);
    }

    /// The cost of a view of a large page (the pipeline conformance corpus's
    /// `large.md`, 367 KiB of markdown) through the delivery: the record and markdown
    /// read from a store on disk, the page rendered. Run in release to measure:
    /// `cargo test --release -p siteops-server -- --ignored --nocapture cost_of_a_view`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "a measurement; needs ../shared beside the clone"]
    async fn cost_of_a_view_of_a_large_page() {
        use std::sync::Arc;
        use std::time::Instant;

        use crate::code::SiteCode;
        use crate::preview::store::PreviewRecord;
        use crate::store::{FsStore, Store, keys};

        let large = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/conformance/pipeline/fixtures/content/large.md"
        );
        let Ok(markdown) = std::fs::read(large) else {
            eprintln!("skipped: {large} is not there");
            return;
        };
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        let page = keys::preview_page("acme", "web", "main", "/large");
        store
            .put(page.file("r1", "page.md").as_str(), &markdown)
            .await
            .expect("markdown");
        let record = PreviewRecord {
            web_path: "/large".into(),
            resource_path: "/large.md".into(),
            kind: "page".into(),
            revision: "r1".into(),
            files: vec!["page.md".into()],
            source: "primary".into(),
            source_url: "https://content.example/large".into(),
            source_last_modified: None,
            last_modified: "2026-01-01T00:00:00.000Z".into(),
            content_bus_id: "0".repeat(40),
            media: Vec::new(),
            trace: Default::default(),
            warnings: Vec::new(),
        };
        let bytes = serde_json::to_vec(&record).expect("record");
        store.put(&page.record(), &bytes).await.expect("record");
        let code = Arc::new(SiteCode::new(store.clone()));
        let mut times = Vec::new();
        let mut size = 0;
        for _ in 0..12 {
            let began = Instant::now();
            let first = Pipe::Html.first_records("/large", &[DEFAULT_METADATA.to_owned()]);
            let prefetched = prefetch(store.as_ref(), ("acme", "web", "main"), &first)
                .await
                .expect("records");
            let buses = SiteBuses::new(
                store.clone(),
                code.clone(),
                ("acme", "web", "main"),
                None,
                prefetched,
            );
            let request = DeliveryRequest {
                url: "http://main--web--acme.localhost:3000/large"
                    .parse()
                    .expect("URL"),
                partition: siteops_delivery::Partition::Preview,
                origin: None,
                forwarded_host: None,
                nonce: new_nonce(),
            };
            let answer = deliver(
                Pipe::Html,
                request,
                PipelineConfig::default(),
                buses,
                &RenderCache::default(),
            )
            .await;
            assert_eq!(answer.status, 200);
            size = answer.body.len();
            times.push(began.elapsed());
        }
        times.sort();
        eprintln!(
            "a view of large.md ({} bytes of markdown, {size} bytes of page): median {:?}, fastest {:?}, slowest {:?}",
            markdown.len(),
            times[times.len() / 2],
            times[0],
            times[times.len() - 1]
        );
    }
}
