//! This crate (JavaScript syntax translated to fancy-regex) against the `regress` crate
//! (an ECMAScript engine), on the patterns worker entries use and on a few KB of HTML.
//!
//! For each case: the compile time of one literal, and the time of one `find` (the
//! first whole match, which is all callers ask for). Path cases run `find` over 64
//! page paths per iteration and report the time per path; HTML cases run it on one
//! 4.5 KB page whose only match, if any, is near the end, so the search scans it all.
//! Both engines must give the same match, or the bench stops.
//!
//! `cargo bench -p siteops-jsregex --bench engines [-- FILTER…]` prints the median and
//! best of several runs per case and the ratio regress / fancy-regex (above 1: regress
//! is slower). It takes about 10 seconds.

use std::hint::black_box;
use std::time::{Duration, Instant};

use siteops_jsregex::JsRegex;

struct Case {
    name: &'static str,
    literal: &'static str,
    input: Input,
}

#[derive(Clone, Copy)]
enum Input {
    /// The 64 page paths of `paths()`.
    Paths,
    /// The 4.5 KB page of `html()`.
    Html,
}

const CASES: &[Case] = &[
    // The six forms of the worker's id regexes, on page paths.
    Case {
        name: "path: trailing digits",
        literal: r"/\d+$/",
        input: Input::Paths,
    },
    Case {
        name: "path: trailing slug",
        literal: r"/[a-z0-9-]+$/",
        input: Input::Paths,
    },
    Case {
        name: "path: date and slug",
        literal: r"/\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]+$/",
        input: Input::Paths,
    },
    Case {
        name: "path: last two segments",
        literal: r"/[^\/]+\/[^\/]+$/",
        input: Input::Paths,
    },
    Case {
        name: "path: lookbehind",
        literal: r"/(?<=event-)[a-z0-9-]+$/",
        input: Input::Paths,
    },
    Case {
        name: "path: uuid /i",
        literal: r"/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i",
        input: Input::Paths,
    },
    Case {
        name: "path: lookahead",
        literal: r"/\d+(?=\.plain\.html$|$)/",
        input: Input::Paths,
    },
    // Larger text: a product page of about 4.5 KB.
    Case {
        name: "html: url rewrite",
        literal: r#"/https?:\/\/media\.example\.com\/[^"'\s]+\.(?:png|jpe?g|webp)/"#,
        input: Input::Html,
    },
    Case {
        name: "html: named group",
        literal: r#"/href="(?<path>\/checkout\/[^"]*)"/"#,
        input: Input::Html,
    },
    Case {
        name: "html: word /i",
        literal: r"/\bdiscontinued\b/i",
        input: Input::Html,
    },
    Case {
        name: "html: lookbehind",
        literal: r#"/(?<=data-sku=")[A-Z0-9-]+(?=")/"#,
        input: Input::Html,
    },
    Case {
        name: "html: backreference",
        literal: r"/<(h[1-6])[^>]*>[^<]*Warranty[^<]*<\/\1>/",
        input: Input::Html,
    },
    Case {
        name: "html: unicode /u",
        literal: r"/\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+ Straße/u",
        input: Input::Html,
    },
    Case {
        name: "html: no match",
        literal: r"/<script[^>]*>[\s\S]*?tracking[\s\S]*?<\/script>/i",
        input: Input::Html,
    },
];

const RUNS: usize = 7;
/// Work per run, at least: long enough for the clock, short enough for the whole bench.
const RUN_TIME: Duration = Duration::from_millis(60);

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let paths = paths();
    let html = html();
    println!(
        "{:<25} {:>12} {:>12} {:>6}   {:>12} {:>12} {:>6}",
        "case", "compile fr", "compile rg", "rg/fr", "find fr", "find rg", "rg/fr"
    );
    for case in CASES {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let inputs: Vec<&str> = match case.input {
            Input::Paths => paths.iter().map(String::as_str).collect(),
            Input::Html => vec![html.as_str()],
        };
        let fancy = JsRegex::parse(case.literal).expect("the bench literal parses");
        let regress = Regress::parse(case.literal);
        for input in &inputs {
            assert_eq!(
                fancy.find(input).expect("no backtracking limit"),
                regress.find(input),
                "{} on {input:?}",
                case.name
            );
        }
        let compile_fancy = time(|| {
            black_box(JsRegex::parse(black_box(case.literal)).ok());
        });
        let compile_regress = time(|| {
            black_box(Regress::parse(black_box(case.literal)));
        });
        let find_fancy = time(|| {
            for input in &inputs {
                black_box(fancy.find(black_box(input)).ok());
            }
        }) / inputs.len() as u32;
        let find_regress = time(|| {
            for input in &inputs {
                black_box(regress.find(black_box(input)));
            }
        }) / inputs.len() as u32;
        println!(
            "{:<25} {:>12} {:>12} {:>6.2}   {:>12} {:>12} {:>6.2}",
            case.name,
            show(compile_fancy),
            show(compile_regress),
            ratio(compile_regress, compile_fancy),
            show(find_fancy),
            show(find_regress),
            ratio(find_regress, find_fancy),
        );
    }
    println!("median of {RUNS} runs; find is per page path (64 paths) or per 4.5 KB page");
}

/// The median time of one call of `f`, over `RUNS` runs of as many calls as fill `RUN_TIME`.
fn time(mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut calls: u32 = 0;
    while start.elapsed() < RUN_TIME / 4 {
        f();
        calls += 1;
    }
    let per_run = calls.saturating_mul(4).max(1);
    let mut runs: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_run {
                f();
            }
            start.elapsed() / per_run
        })
        .collect();
    runs.sort();
    runs[RUNS / 2]
}

fn show(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns >= 10_000 {
        format!("{:.1} µs", ns as f64 / 1000.0)
    } else {
        format!("{ns} ns")
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

/// A literal on `regress`, with what `JsRegex` does around the engine: split off the
/// flags, and make `y` a match that must start at 0.
struct Regress {
    regex: regress::Regex,
    sticky: bool,
}

impl Regress {
    fn parse(literal: &str) -> Regress {
        let close = literal.rfind('/').expect("a literal");
        let (pattern, flags) = (&literal[1..close], &literal[close + 1..]);
        Regress {
            regex: regress::Regex::with_flags(pattern, flags).expect("regress parses it"),
            sticky: flags.contains('y'),
        }
    }

    fn find<'h>(&self, haystack: &'h str) -> Option<&'h str> {
        self.regex
            .find(haystack)
            .filter(|m| !self.sticky || m.start() == 0)
            .map(|m| &haystack[m.range()])
    }
}

/// 64 page paths of the shapes the worker's entries see, half of them matching each form.
fn paths() -> Vec<String> {
    let shapes = [
        |n: usize| format!("/products/{}", 1000 + n * 37),
        |n: usize| format!("/recipes/lemon-tart-{n}"),
        |n: usize| {
            format!(
                "/news/2024/{:02}/{:02}/launch-day-{n}",
                n % 12 + 1,
                n % 28 + 1
            )
        },
        |n: usize| format!("/docs/guides/getting-started-{n}"),
        |n: usize| format!("/events/event-summer-fest-{n}"),
        |n: usize| format!("/stores/3F2504E0-4F89-11D3-9A0C-0305E82C{:04X}", n),
        |n: usize| format!("/p/{}.plain.html", 40 + n),
        |n: usize| format!("/fr/catégorie/été-{n}/Überblick"),
    ];
    (0..64).map(|n| shapes[n % shapes.len()](n)).collect()
}

/// A product page of about 4.5 KB: markup, prose with a little non-ASCII, and the
/// matches of the HTML cases in its last few hundred bytes.
fn html() -> String {
    let mut page = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Trail shoe</title>\
         <link rel=\"stylesheet\" href=\"/styles/main.css\"></head>\n<body>\n",
    );
    for n in 0..16 {
        page.push_str(&format!(
            "<section class=\"feature\" id=\"f{n}\"><h2>Feature {n}</h2>\n\
             <p>Lightweight upper with a breathable mesh, a cushioned midsole and a grippy \
             outsole for wet rock. Café-tested, naïve-proof, 100% recycled laces.</p>\n\
             <a href=\"/products/shoe-{n}\">Details</a></section>\n"
        ));
    }
    page.push_str(
        "<div class=\"buy\" data-sku=\"TRL-2024-XL\">\
         <img src=\"https://media.example.com/shoes/trail-2024.webp\" alt=\"\">\
         <a href=\"/checkout/cart?add=TRL-2024-XL\">Add to cart</a></div>\n\
         <h3 class=\"note\">Warranty: two years</h3>\n\
         <p>Made by Müller Werke, Obere Lange Straße 5, Hauptstraße 2.</p>\n\
         <p>This colour is discontinued.</p>\n</body></html>\n",
    );
    page
}
