//! Inputs for the differential run: small pages from a grammar of the markup content
//! sources write (sections, blocks, lists, tables, inline formats, comments, media), and
//! mutations of real pages (the converter's fixtures, slices of the real-world corpus).

/// xorshift64*: deterministic for a seed, good enough to pick mutations.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "Gamma",
    "delta",
    "über",
    "naïve",
    "日本語",
    "x",
    "42",
    "1.",
    "#tag",
    "*star*",
    "_under_",
    "`tick`",
    "[bracket]",
    "a|b",
    "c+d",
    "<less",
    "&amp;",
    "&nbsp;",
    ":smile:",
    "http://example.com/a",
    "https://x.test/:y:",
    "e\u{301}",
    "—",
    "\\back",
];

fn words(rng: &mut Rng, n: usize) -> String {
    (0..n.max(1))
        .map(|_| *rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(if rng.chance(10) { "\n " } else { " " })
}

fn inline(rng: &mut Rng, depth: usize) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(4) {
        let n = 1 + rng.below(6);
        let text = words(rng, n);
        let piece = match if depth > 2 { 0 } else { rng.below(14) } {
            0..=4 => text,
            5 => format!("<em>{}</em>", inline(rng, depth + 1)),
            6 => format!("<strong>{}</strong>", inline(rng, depth + 1)),
            7 => format!(
                "<a href=\"{}\">{}</a>",
                rng.pick(&[
                    "/page",
                    "https://ex.test/p?q=1#h",
                    "#top",
                    "mailto:a@b.c",
                    ""
                ]),
                inline(rng, depth + 1)
            ),
            8 => format!(
                "<img src=\"{}\" alt=\"{}\">",
                rng.pick(&[
                    "./media_1a2b.png#width=800&height=600",
                    "/img/a.jpg",
                    "https://img.test/b.webp",
                    ""
                ]),
                words(rng, 1)
            ),
            9 => "<br>".to_owned(),
            10 => format!("<code>{text}</code>"),
            11 => format!(
                "<{0}>{text}</{0}>",
                rng.pick(&["sub", "sup", "u", "s", "del", "span"])
            ),
            12 => "<!-- note -->".to_owned(),
            _ => format!(
                "<span class=\"icon icon-{}\"></span>",
                rng.pick(&["home", "search"])
            ),
        };
        out.push_str(&piece);
        out.push(' ');
    }
    out
}

fn block(rng: &mut Rng, depth: usize) -> String {
    let kind = if depth > 2 {
        rng.below(3)
    } else {
        rng.below(13)
    };
    match kind {
        0 | 1 => format!("<p>{}</p>", inline(rng, 0)),
        2 => inline(rng, 0),
        3 => format!("<h{0}>{1}</h{0}>", 1 + rng.below(6), inline(rng, 1)),
        4 | 5 => {
            let tag = if rng.chance(50) { "ul" } else { "ol" };
            let items: String = (0..1 + rng.below(4))
                .map(|_| {
                    let body = if rng.chance(30) {
                        format!("<p>{}</p><p>{}</p>", inline(rng, 0), inline(rng, 0))
                    } else if rng.chance(25) {
                        format!("{}{}", inline(rng, 0), block(rng, depth + 1))
                    } else if rng.chance(10) {
                        format!(
                            "<input type=\"checkbox\"{}> {}",
                            if rng.chance(50) { " checked" } else { "" },
                            inline(rng, 0)
                        )
                    } else {
                        inline(rng, 0)
                    };
                    format!("<li>{body}</li>")
                })
                .collect();
            format!("<{tag}>{items}</{tag}>")
        }
        6 => format!("<blockquote>{}</blockquote>", block(rng, depth + 1)),
        7 => format!(
            "<pre><code>{}</code></pre>",
            words(rng, 3).replace(' ', "\n")
        ),
        8 => "<hr>".to_owned(),
        9 => {
            let cells = 1 + rng.below(3);
            let rows: String = (0..1 + rng.below(3))
                .map(|_| {
                    format!(
                        "<tr>{}</tr>",
                        (0..cells)
                            .map(|_| format!("<td>{}</td>", inline(rng, 1)))
                            .collect::<String>()
                    )
                })
                .collect();
            format!("<table>{rows}</table>")
        }
        10 => "<!-- comment -->".to_owned(),
        11 => format!(
            "<picture><img src=\"./media_{}.jpg#width=10&height=20\" alt=\"{}\"></picture>",
            rng.below(9),
            words(rng, 2)
        ),
        _ => format!("<div>{}</div>", block(rng, depth + 1)),
    }
}

fn blocks(rng: &mut Rng, n: usize, depth: usize) -> String {
    (0..n).map(|_| block(rng, depth)).collect()
}

/// A platform-style page: sections of default content and blocks, head metadata.
pub(super) fn page(rng: &mut Rng) -> String {
    let mut sections = String::new();
    for _ in 0..1 + rng.below(3) {
        let n = 1 + rng.below(4);
        let mut section = blocks(rng, n, 0);
        if rng.chance(40) {
            let name = rng.pick(&[
                "cards",
                "hero",
                "columns two-up",
                "metadata",
                "section-metadata",
                "Bad_Name",
            ]);
            let rows: String = (0..1 + rng.below(3))
                .map(|_| {
                    let name = inline(rng, 1);
                    let n = 1 + rng.below(2);
                    format!(
                        "<div><div>{name}</div><div>{}</div></div>",
                        blocks(rng, n, 2)
                    )
                })
                .collect();
            section.push_str(&format!("<div class=\"{name}\">{rows}</div>"));
        }
        sections.push_str(&format!("<div>{section}</div>"));
    }
    let mut head = String::new();
    if rng.chance(60) {
        head.push_str(&format!("<title>{}</title>", words(rng, 3)));
    }
    for (name, content) in [
        ("description", words(rng, 12)),
        ("og:image", "/img/social.png".to_owned()),
        ("og:image:alt", words(rng, 2)),
        ("keywords", "a, b , c".to_owned()),
        ("twitter:app:name:googleplay", "App".to_owned()),
    ] {
        if rng.chance(35) {
            let attr = if name.contains(':') {
                "property"
            } else {
                "name"
            };
            head.push_str(&format!("<meta {attr}=\"{name}\" content=\"{content}\">"));
        }
    }
    format!("<html><head>{head}</head><body><main>{sections}</main></body></html>")
}

/// The page cut into tags, comments and text runs.
pub(super) fn tokens(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        let end = if rest.starts_with("<!--") {
            rest.find("-->").map_or(rest.len(), |i| i + 3)
        } else if rest.starts_with('<') {
            rest.find('>').map_or(rest.len(), |i| i + 1)
        } else {
            rest.find('<').unwrap_or(rest.len())
        };
        let end = end.max(rest.chars().next().map_or(1, char::len_utf8));
        out.push(rest[..end].to_owned());
        rest = &rest[end..];
    }
    out
}

const SNIPPETS: &[&str] = &[
    "<br>",
    "<!-- c -->",
    "<!--more-->",
    "<ul><li>x</li></ul>",
    "<ul></ul>",
    "<p></p>",
    "<table><tr><td>a</td></tr></table>",
    "<h2>h</h2>",
    "<img src=\"x.png\" alt=\"a\">",
    "<a href=\"/l\">l</a>",
    "&amp;",
    "&nbsp;",
    "  \n  ",
    "<em>",
    "</em>",
    "<strong>",
    "<p>",
    "<div>",
    "</div>",
    "<div class=\"cards\"><div><div>c</div></div></div>",
    "<sub>s</sub>",
    "<u>u</u>",
    "<li>",
    "<input type=\"checkbox\" checked>",
    "\\",
    "*",
    "_",
    "|",
    "+--+",
    "<pre>p\n q</pre>",
    "<a href=\"x\"><p>block in link</p></a>",
    "<h3><a href=\"#\"><p>t</p></a></h3>",
];

/// One to three random edits of a page: deletions, duplications, swaps, insertions.
pub(super) fn mutate(rng: &mut Rng, html: &str) -> String {
    let mut t = tokens(html);
    for _ in 0..1 + rng.below(3) {
        if t.is_empty() {
            break;
        }
        let i = rng.below(t.len());
        let len = (1 + rng.below(8)).min(t.len() - i);
        match rng.below(5) {
            0 => {
                t.drain(i..i + len);
            }
            1 => {
                let copy: Vec<String> = t[i..i + len].to_vec();
                t.splice(i..i, copy);
            }
            2 => {
                let j = rng.below(t.len());
                t.swap(i, j);
            }
            3 => t.insert(i, (*rng.pick(SNIPPETS)).to_owned()),
            _ => {
                let tag = rng.pick(&["em", "strong", "p", "li", "a", "h2", "div"]);
                t.insert(i + len, format!("</{tag}>"));
                t.insert(i, format!("<{tag}>"));
            }
        }
    }
    t.concat()
}

/// A slice of a real page's `main` (at most about `size` bytes, cut at tag boundaries),
/// as a page of its own.
pub(super) fn slice(rng: &mut Rng, html: &str, size: usize) -> String {
    let body = html.find("<main").map_or(html, |i| &html[i..]);
    let t = tokens(body);
    if t.is_empty() {
        return String::new();
    }
    let start = rng.below(t.len());
    let mut out = String::new();
    for token in &t[start..] {
        if out.len() > size {
            break;
        }
        out.push_str(token);
    }
    format!(
        "<html><head><title>slice</title></head><body><main><div>{out}</div></main></body></html>"
    )
}
