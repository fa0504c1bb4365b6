//! The site's code on the preview host, as `siteops serve` runs it on the example
//! repository: files from the mapped checkout (`[code]` in siteops.toml), else from the
//! code store (what code sync fetched), with their types and validators; the code's
//! `404.html` for what it does not have; `head.html` in every page; saving a file of the
//! checkout announced to the open pages. And nothing outside the checkout, hidden, or a
//! dependency folder is ever served, whatever the request path says.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use reqwest::StatusCode;
use siteops_live::LiveEvent;
use siteops_live::code_watch::CodeWatch;
use siteops_server::code::CodeRepo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::harness::TestServer;
use crate::support::example_copy;

const WEBSITE: &str = "main--website--acme.localhost";
const BLOG: &str = "main--blog--acme.localhost";

/// A GET sent byte for byte as written (clients normalise `..` and encodings away):
/// the status and the body.
async fn raw_get(addr: SocketAddr, host: &str, target: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

async fn get(server: &TestServer, host: &str, path: &str) -> reqwest::Response {
    server
        .client
        .get(server.url(path))
        .header("host", host)
        .send()
        .await
        .expect("answered")
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn code_files_come_from_the_checkout_then_the_code_store() {
    let repo = example_copy();
    let checkout = repo.path().join("code/acme-website");
    let (server, _live) = TestServer::start_live(repo.path().to_path_buf()).await;

    // The checkout's stylesheet, typed, with a validator that makes a reload cheap.
    let styles = get(&server, WEBSITE, "/styles/styles.css").await;
    assert_eq!(styles.status(), StatusCode::OK);
    assert_eq!(header(&styles, "content-type"), "text/css; charset=utf-8");
    assert_eq!(header(&styles, "cache-control"), "no-cache");
    assert_eq!(header(&styles, "x-siteops-code"), "checkout");
    let etag = header(&styles, "etag");
    assert!(etag.starts_with('"') && etag.len() == 34, "{etag}");
    let on_disk = std::fs::read(checkout.join("styles/styles.css")).expect("styles");
    assert_eq!(styles.bytes().await.expect("body").as_ref(), on_disk);
    let again = server
        .client
        .get(server.url("/styles/styles.css"))
        .header("host", WEBSITE)
        .header("if-none-match", &etag)
        .send()
        .await
        .expect("answered");
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // A block's script, and the same code for the repoless blog (its base's code).
    let script = get(&server, WEBSITE, "/blocks/cards/cards.js").await;
    assert_eq!(script.status(), StatusCode::OK);
    assert_eq!(
        header(&script, "content-type"),
        "text/javascript; charset=utf-8"
    );
    let blog_styles = get(&server, BLOG, "/styles/styles.css").await;
    assert_eq!(blog_styles.status(), StatusCode::OK);
    assert_eq!(blog_styles.bytes().await.expect("body").as_ref(), on_disk);

    // What the code does not have: its 404.html, with status 404.
    let missing = get(&server, WEBSITE, "/styles/missing.css").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let not_found_page = std::fs::read_to_string(checkout.join("404.html")).expect("404.html");
    assert_eq!(missing.text().await.expect("body"), not_found_page);

    // Every page carries the checkout's head.html (its policy meta moved to a header,
    // with the answer's nonce, as the platform moves it).
    let page = get(&server, WEBSITE, "/").await;
    assert_eq!(page.status(), StatusCode::OK);
    let policies: Vec<String> = page
        .headers()
        .get_all("content-security-policy")
        .iter()
        .filter_map(|v| v.to_str().ok().map(str::to_owned))
        .collect();
    assert!(
        policies
            .iter()
            .any(|p| p.starts_with("script-src 'nonce-") && p.contains("'strict-dynamic'")),
        "{policies:?}"
    );
    let html = page.text().await.expect("page");
    let head = std::fs::read_to_string(checkout.join("head.html")).expect("head.html");
    let viewport = head
        .lines()
        .find(|l| l.contains("viewport"))
        .expect("a line");
    let (head_part, body_part) = html.split_once("</head>").expect("a head");
    assert!(head_part.contains(viewport.trim()), "{head_part}");
    assert!(!head_part.contains("nonce=\"aem\""), "{head_part}");
    assert!(body_part.contains("class=\"cards\""), "{body_part}");

    // A file the checkout lacks comes from the code store: the branch's, else main's.
    let store = server.server.state.store.as_ref();
    let acme = CodeRepo::new("acme", "website");
    store
        .put(
            &siteops_server::store::keys::code_file("acme", &acme, "main", "scripts/synced.js"),
            b"// main",
        )
        .await
        .expect("put");
    store
        .put(
            &siteops_server::store::keys::code_file("acme", &acme, "feature", "scripts/synced.js"),
            b"// feature",
        )
        .await
        .expect("put");
    let synced = get(&server, WEBSITE, "/scripts/synced.js").await;
    assert_eq!(header(&synced, "x-siteops-code"), "store main");
    assert_eq!(synced.text().await.expect("body"), "// main");
    let on_branch = get(
        &server,
        "feature--website--acme.localhost",
        "/scripts/synced.js",
    )
    .await;
    assert_eq!(header(&on_branch, "x-siteops-code"), "store feature");
    assert_eq!(on_branch.text().await.expect("body"), "// feature");
    // The checkout wins over the store for a file both have.
    store
        .put(
            &siteops_server::store::keys::code_file("acme", &acme, "main", "styles/styles.css"),
            b"stale",
        )
        .await
        .expect("put");
    let styles = get(&server, WEBSITE, "/styles/styles.css").await;
    assert_eq!(styles.bytes().await.expect("body").as_ref(), on_disk);
}

#[tokio::test]
async fn nothing_outside_the_checkout_hidden_or_a_dependency_is_served() {
    let repo = example_copy();
    let root = repo.path();
    let checkout = root.join("code/acme-website");
    let secret = |n: u32| format!("TOP-SECRET-{n}");
    std::fs::write(root.join("code/secret.txt"), secret(1)).expect("write");
    std::fs::write(root.join("code/secret.css"), secret(2)).expect("write");
    std::fs::write(checkout.join(".env"), secret(3)).expect("write");
    std::fs::create_dir_all(checkout.join(".git")).expect("mkdir");
    std::fs::write(checkout.join(".git/config"), secret(4)).expect("write");
    std::fs::create_dir_all(checkout.join("node_modules/lib")).expect("mkdir");
    std::fs::write(checkout.join("node_modules/lib/index.js"), secret(5)).expect("write");
    std::fs::create_dir_all(checkout.join("styles/.cache")).expect("mkdir");
    std::fs::write(checkout.join("styles/.cache/a.css"), secret(6)).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(root.join("code/secret.css"), checkout.join("leak.css")).expect("symlink");
        symlink(root.join("code"), checkout.join("up")).expect("symlink");
        symlink(Path::new("/etc"), checkout.join("etc")).expect("symlink");
        symlink(checkout.join(".git/config"), checkout.join("config.txt")).expect("symlink");
        symlink(checkout.join(".git"), checkout.join("git")).expect("symlink");
    }
    let (server, _live) = TestServer::start_live(root.to_path_buf()).await;
    let addr = server.server.addr;

    // The control: a plain file is served over the same raw requests.
    let (status, body) = raw_get(addr, WEBSITE, "/styles/styles.css").await;
    assert_eq!(status, 200, "{body}");

    let attempts = [
        "/../secret.txt",
        "/../secret.css",
        "/styles/../../secret.css",
        "/%2e%2e/secret.css",
        "/%2E%2E/secret.css",
        "/.%2e/secret.css",
        "/styles/%2e%2e/%2e%2e/secret.css",
        "/..%2fsecret.css",
        "/styles%2f..%2f..%2fsecret.css",
        "/..%5csecret.css",
        "/..\\secret.css",
        "/%252e%252e/secret.css",
        "/%c0%ae%c0%ae/secret.css",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/etc/passwd",
        "/etc/hostname",
        "/.env",
        "/%2eenv",
        "/.git/config",
        "/%2Egit/config",
        "/git/config",
        "/config.txt",
        "/node_modules/lib/index.js",
        "/styles/.cache/a.css",
        "/leak.css",
        "/up/secret.css",
        "/up/acme-website/.env",
        "/styles/styles.css%00.txt",
        "http://main--website--acme.localhost/../secret.css",
    ];
    for target in attempts {
        let (status, body) = raw_get(addr, WEBSITE, target).await;
        // 404 for code paths; a path without an extension is a page, whose preview
        // fails another way: never a success.
        assert!(status >= 400, "{target} answered {status}: {body}");
        assert!(
            !body.contains("TOP-SECRET") && !body.contains("root:"),
            "{target} leaked: {body}"
        );
    }
}

#[tokio::test]
async fn saving_a_checkout_file_is_announced_to_the_open_pages() {
    let repo = example_copy();
    let checkout = repo.path().join("code/acme-website");
    let (server, live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let mut watch = CodeWatch::new(live.clone());
    assert!(watch.follow(&server.server.state.code.checkouts()));
    let mut events = live.subscribe();

    let next_code_event = async |events: &mut tokio::sync::broadcast::Receiver<LiveEvent>| {
        tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let LiveEvent::CodeChanged { repo, paths } = events.recv().await.expect("event")
                {
                    return (repo, paths);
                }
            }
        })
        .await
        .expect("a code event within 10 s")
    };

    let styles = checkout.join("blocks/cards/cards.css");
    let text = std::fs::read_to_string(&styles).expect("cards.css");
    std::fs::write(
        &styles,
        format!("{text}\n.cards {{ outline: 1px solid red; }}\n"),
    )
    .expect("edit");
    let (changed, paths) = next_code_event(&mut events).await;
    assert_eq!(changed, CodeRepo::new("acme", "website"));
    assert_eq!(paths, ["/blocks/cards/cards.css"]);
    let served = get(&server, WEBSITE, "/blocks/cards/cards.css").await;
    assert!(
        served
            .text()
            .await
            .expect("body")
            .contains("outline: 1px solid red")
    );

    // A new block directory is watched as soon as it appears; hidden files never count.
    std::fs::write(checkout.join(".editor-swap"), "x").expect("write");
    std::fs::create_dir_all(checkout.join("blocks/quote")).expect("mkdir");
    tokio::time::sleep(Duration::from_millis(200)).await;
    std::fs::write(
        checkout.join("blocks/quote/quote.js"),
        "export default () => {};",
    )
    .expect("write");
    loop {
        let (_, paths) = next_code_event(&mut events).await;
        assert!(
            paths.iter().all(|p| !p.contains(".editor-swap")),
            "{paths:?}"
        );
        if paths.contains(&"/blocks/quote/quote.js".to_string()) {
            break;
        }
    }
}

/// Wakes whatever still waits on a FIFO (a reader blocked in its open, before the fix):
/// a writer that opens and closes it lets each waiting open return, so the runtime can end.
struct FifoWaker(std::path::PathBuf);

impl Drop for FifoWaker {
    fn drop(&mut self) {
        let fifo = self.0.clone();
        // Detached: with no reader waiting, the open waits, and nothing joins it.
        std::thread::spawn(move || {
            for _ in 0..64 {
                let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
            }
        });
    }
}

/// A FIFO in the checkout is not a file to serve: 40 GETs at once answer 404 at once
/// (its type is checked before it is opened, so no thread waits for a writer), and the
/// administration API still answers meanwhile.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_in_the_checkout_answers_404_at_once_under_load() {
    let repo = example_copy();
    let fifo = repo.path().join("code/acme-website/fifo.css");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success(), "mkfifo failed");
    let _waker = FifoWaker(fifo.clone());
    let (server, _live) = TestServer::start_live(repo.path().to_path_buf()).await;

    let gets = (0..40).map(|_| {
        let request = server
            .client
            .get(server.url("/fifo.css"))
            .header("host", WEBSITE)
            .send();
        async move {
            tokio::time::timeout(Duration::from_secs(10), request)
                .await
                .map(|answer| answer.expect("answered").status())
        }
    });
    let statuses = futures_util::future::join_all(gets).await;
    for status in &statuses {
        assert_eq!(
            status.as_ref().ok(),
            Some(&StatusCode::NOT_FOUND),
            "a GET of a FIFO did not answer 404 within 10 s: {statuses:?}"
        );
    }
    let token = server.token(crate::harness::ORG_ADMIN);
    let config = tokio::time::timeout(
        Duration::from_secs(10),
        server.get("/admin/config/acme/sites/website.json", &token),
    )
    .await
    .expect("a config read answered while the FIFO was asked for");
    assert_eq!(config.status, StatusCode::OK, "{config:?}");
}
