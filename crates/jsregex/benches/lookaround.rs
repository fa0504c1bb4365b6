//! Look-around on long page paths: the worker matches an entry's regex against the page
//! path of an unauthenticated request, and a backtracking pattern takes time quadratic in
//! it. `cargo bench -p siteops-jsregex --bench lookaround` prints the median time of the
//! guide's look-behind and of three look-aheads on a 60 KB path (what the worker would
//! take without its bound on page paths) and on paths at that bound, and of a
//! look-around-free pattern, which runs on the linear engine.

use std::hint::black_box;
use std::time::{Duration, Instant};

use siteops_jsregex::JsRegex;

/// The worker's bound on a page path (`MAX_PAGE_PATH` in the server's worker).
const BOUND: usize = 1024;

fn median(regex: &JsRegex, haystack: &str) -> Duration {
    let runs = if haystack.len() > BOUND { 3 } else { 51 };
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let _ = black_box(regex.find(black_box(haystack)));
            started.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    // Every `event-` lets the look-behind pass, and each time `[a-z0-9-]+$` runs to the
    // final `!` before failing.
    let path = |len: usize| format!("/events/{}!", "event-".repeat(len / 6));
    println!(
        "{:<28} {:>8} {:>12} {:>7}",
        "pattern", "path", "median", "linear"
    );
    for literal in [
        "/(?<=event-)[a-z0-9-]+$/",
        "/(?=.*x)(?=.*y)(?=.*z)/",
        "/[a-z0-9-]+$/",
    ] {
        let regex = JsRegex::parse(literal).expect("valid");
        for len in [60 * 1024, BOUND] {
            let haystack = path(len);
            println!(
                "{literal:<28} {:>8} {:>12?} {:>7}",
                haystack.len(),
                median(&regex, &haystack),
                regex.is_linear()
            );
        }
    }
}
