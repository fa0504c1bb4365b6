//! A newcomer's first day (issue 44), over real processes: a new git repository, the
//! real `siteops serve` started in it as the guide says, and what git then sees.

use std::path::Path;
use std::process::{Command, Output};

use siteops_testkit::or_skip;

use crate::serve_process::Serve;
use crate::support::example_copy;

/// `git -C root ARGS` with no user or system configuration (a global excludes file
/// could ignore `.siteops/` on this machine and hide the fault); None when git is not
/// installed.
fn git(root: &Path, args: &[&str]) -> Option<Output> {
    Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .ok()
}

#[test]
fn the_data_directory_of_a_first_serve_stays_out_of_git() {
    let repo = example_copy();
    let root = repo.path();
    let Some(init) = or_skip(
        git(root, &["init", "-q"]),
        "git is not installed: this test asks git what it would commit",
    ) else {
        return;
    };
    assert!(init.status.success(), "git init: {init:?}");
    // Started as a user does (no --data), ready, then stopped.
    drop(Serve::start_with_default_data(root));
    let key = ".siteops/data/keys/token-signing.key";
    assert!(root.join(key).is_file(), "serve made its signing key");

    let status = git(root, &["status", "--porcelain", "--untracked-files=all"]).expect("git");
    assert!(status.status.success(), "git status: {status:?}");
    let listed = String::from_utf8_lossy(&status.stdout).into_owned();
    assert!(
        listed.lines().any(|line| line == "?? siteops.toml"),
        "git sees the repository's own new files:\n{listed}"
    );
    let data: Vec<&str> = listed
        .lines()
        .filter(|line| {
            line.get(3..)
                .is_some_and(|path| path.starts_with(".siteops"))
        })
        .collect();
    assert!(
        data.is_empty(),
        "git would commit the service's data: {data:#?}"
    );

    let ignored = git(root, &["check-ignore", "--verbose", key]).expect("git");
    let why = String::from_utf8_lossy(&ignored.stdout).into_owned();
    assert!(
        ignored.status.success() && why.starts_with(".siteops/.gitignore:"),
        "{key} is ignored by .siteops/.gitignore: {ignored:?}"
    );
}

/// Ctrl-C with a page open in a browser: the page's event stream ended at once, cleanly,
/// instead of holding the shutdown for its grace period and then being cut.
#[test]
fn ctrl_c_ends_the_open_event_streams_cleanly() {
    use std::io::{Read, Write};

    let repo = example_copy();
    let data = tempfile::tempdir().expect("temp dir");
    let serve = Serve::start(repo.path(), data.path());
    let mut stream =
        std::net::TcpStream::connect(("127.0.0.1", serve.port)).expect("connect to serve");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .expect("timeout");
    write!(
        stream,
        "GET /.siteops/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream\r\n\r\n",
        serve.port
    )
    .expect("request");
    // Read until the stream's first event: the stream is open.
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&received).contains("event: hello") {
        let n = stream.read(&mut buffer).expect("the stream answers");
        assert!(n > 0, "closed before its first event");
        received.extend_from_slice(&buffer[..n]);
    }
    let status = serve.interrupt();
    assert!(status.success(), "serve exits 0 on Ctrl-C: {status:?}");
    // The rest of the answer, to its end: a chunked body ends with an empty chunk; a
    // connection dropped at the end of the grace period ends without it.
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => received.extend_from_slice(&buffer[..n]),
            Err(error) => panic!("the stream was cut, not ended: {error}"),
        }
    }
    let text = String::from_utf8_lossy(&received);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        text.ends_with("0\r\n\r\n"),
        "the event stream ended with its last chunk: {text:?}"
    );
}
