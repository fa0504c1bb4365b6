//! The fast path against html5ever: on chosen cases, and on generated markup that mixes
//! well-formed nesting with every kind of repair the tree builder makes.

use crate::dom::fast_path_agrees;

/// Asserts that the fast path takes `html` (`accepted`) or gives up, and that where it
/// takes it, it builds html5ever's tree.
fn check(html: &str, accepted: bool) {
    match fast_path_agrees(html) {
        Ok(taken) => assert_eq!(taken, accepted, "taken by the fast path? {html:?}"),
        Err(difference) => panic!("{html:?}\n{difference}"),
    }
}

#[test]
fn takes_well_formed_pages() {
    for html in [
        "<!DOCTYPE html><html lang=en><head><title>T &amp; U</title><meta charset=utf-8></head><body><main><div class='a b'><p>x<br>y</p></div></main></body></html>",
        "<main><p>one<p>two<div>three</div><ul><li>a<li>b</ul></main>",
        "<main><dl><dt>t<dd>d<dt>u</dl><h1>a</h1><h2>b<h3>c</h3></main>",
        "<main><table><tr><td>a<td>b<tr><th>c</table>after</main>",
        "<main><table><thead><tr><th>h</th></tr></thead><tbody><tr><td><table><tr><td>n</td></tr></table></td></tr></tbody></table></main>",
        "<main><pre>\nkept\n</pre><textarea>\nx</textarea><listing>\n\ny</listing></main>",
        "<main><select><option>a<option>b<optgroup><option>c</select></main>",
        "<main><svg viewbox='0 0 1 1' xlink:href=#a><clippath/><lineargradient><stop/></lineargradient><title>t</title><path d=M0/></svg></main>",
        "<head><noscript><link rel=x></noscript><script>if (a<b) x = '<!--';</script><script><!-- <script></script> --></script><style>p>a{}</style></head><main>m</main>",
        "<head><noscript><img src=x></noscript></head><main>m</main>",
        "<main><form><input name=a></form><form><button>b</button></form></main>",
        "<main><b><i>x</i></b><a href='?a=1&copy=2&amp;b'>&copy2024 &notit; AT&T</a></main>",
        "<main>a</div></span></main></body></html><!-- after -->",
        "<main><p>x</main><p>y",
        "text first<main>m</main>",
        "<html><head></head>\n<body>\n<main>m</main>\n</body>\n</html>\n",
        "<div>\r\n<main>\r\n<pre>\r\nx</pre></main>",
        "<body><body class=x><html lang=en><main>m</p></br></main>",
        "\u{feff}<!DOCTYPE html><p><table></table><main>m</main>",
        "<main>zero\u{feff}width</main>",
        // The form element pointer names the form inserted last, closed by the cell's end:
        // the last `</form>` is ignored, and the outer form stays open.
        "<main><form><table><tr><td></form><form></td></tr></table></form>x</main>",
        "<main><form><select></form><form></select></form>x</main>",
    ] {
        check(html, true);
    }
}

#[test]
fn gives_up_on_repairs() {
    for html in [
        "<main><b><p>x</b>y</p></main>",
        "<main><a>x<a>y</main>",
        "<main><table>x<tr><td>y</table></main>",
        "<main><table><div>x</div></table></main>",
        "<main><p><b>x<div>y</div></main>",
        "<main><template><p>x</template></main>",
        "<main><svg><div>x</div></svg></main>",
        "<main><math><mi>x</mi></math></main>",
        "<main><nobr>a<nobr>b</main>",
        "<main>&#0;&#x80;</main>",
        "<main><?pi x?></main>",
        "<main><script>a</script x></main>",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><main>m</main>",
        // html5ever drops a byte order mark where it resumes after a script.
        "<main><script></script>\u{feff}x</main>",
    ] {
        check(html, false);
    }
}

/// A pick from `items`, again until it is not hostile (unless hostile ones are wanted).
fn pick_for<'a>(rng: &mut fastrand::Rng, items: &[&'a str], hostile_too: bool) -> &'a str {
    loop {
        let item = items[rng.usize(..items.len())];
        if hostile_too || !hostile(item) {
            return item;
        }
    }
}

const TAGS: &[&str] = &[
    "html",
    "head",
    "body",
    "title",
    "meta",
    "link",
    "style",
    "script",
    "noscript",
    "main",
    "div",
    "p",
    "span",
    "a",
    "b",
    "i",
    "em",
    "strong",
    "code",
    "font",
    "u",
    "s",
    "li",
    "ul",
    "ol",
    "dl",
    "dd",
    "dt",
    "h1",
    "h2",
    "pre",
    "listing",
    "textarea",
    "form",
    "button",
    "input",
    "hr",
    "br",
    "img",
    "table",
    "tbody",
    "thead",
    "tr",
    "td",
    "th",
    "caption",
    "colgroup",
    "col",
    "select",
    "option",
    "optgroup",
    "iframe",
    "noembed",
    "noframes",
    "svg",
    "path",
    "g",
    "desc",
    "clippath",
    "foreignobject",
    "math",
    "template",
    "section",
    "header",
    "nav",
    "figure",
    "blockquote",
    "address",
    "search",
    "menu",
    "details",
    "summary",
    "object",
    "param",
    "source",
    "picture",
    "sup",
    "label",
    "x-el",
    "nobr",
    "xmp",
    "image",
    "ruby",
    "rt",
    "center",
    "base",
];

const ATTRS: &[&str] = &[
    "",
    " class=\"x y\"",
    " id=a",
    " href='?a=1&copy=2&amp;b'",
    " viewbox=\"0 0 1 1\"",
    " xlink:href=#i",
    " type=application/ld+json",
    " color=red",
    " data-x='&lt;&amp'",
    " id=a ID=b",
    " hidden",
    " Class=C",
    " a='b'c",
    " type=hidden",
];

const TEXTS: &[&str] = &[
    "x", " ", "\n", "\n\n", "a & b", "&amp;", "&copy", "&notin;", "&#x41;", "&#10;", "&#0;", "<",
    "\r\n", " \t", "&nbsp;", "AT&T", "é",
];

const OTHERS: &[&str] = &[
    "<!-- c -->",
    "<!---->",
    "<!-- a -- b --->",
    "<!-->",
    "<!DOCTYPE html>",
    "</br>",
    "</p>",
    "<![CDATA[x]]>",
    "</>",
];

/// Pieces the fast path always gives up on, left out of the documents meant to be taken.
fn hostile(piece: &str) -> bool {
    matches!(
        piece,
        "template"
            | "math"
            | "nobr"
            | "object"
            | "xmp"
            | "image"
            | "ruby"
            | "rt"
            | "caption"
            | "colgroup"
            | "col"
            | "param"
            | "&#0;"
            | " a='b'c"
            | "<!-->"
            | "</br>"
            | "</p>"
            | "<![CDATA[x]]>"
            | "</>"
    )
}

/// A document of `pieces` random pieces: mostly elements opened and closed in order, with
/// stray end tags, misnesting, text, comments and raw text mixed in; unless `hostile`,
/// without what the fast path always gives up on.
fn document(rng: &mut fastrand::Rng, pieces: usize, hostile_too: bool) -> String {
    let mut html = String::new();
    if rng.usize(..3) == 0 {
        html.push_str("<!DOCTYPE html>");
    }
    let mut open: Vec<&str> = Vec::new();
    for _ in 0..pieces {
        match rng.usize(..12) {
            0..=3 => {
                let tag = pick_for(rng, TAGS, hostile_too);
                let attrs = pick_for(rng, ATTRS, hostile_too);
                let close = if rng.usize(..8) == 0 { "/" } else { "" };
                html.push_str(&format!("<{tag}{attrs}{close}>"));
                match tag {
                    "script" | "style" | "title" | "textarea" | "iframe" | "noembed"
                    | "noframes" | "xmp" => {
                        let body = pick_for(
                            rng,
                            &["x", "<!-- a -->", "<b>", "a<!--<script>", "\n"],
                            true,
                        );
                        html.push_str(&format!("{body}</{tag}>"));
                    }
                    _ => open.push(tag),
                }
            }
            4..=6 => {
                if let Some(tag) = open.pop() {
                    html.push_str(&format!("</{tag}>"));
                }
            }
            7 => {
                let tag = pick_for(rng, TAGS, hostile_too);
                html.push_str(&format!("</{tag}>"));
            }
            8..=10 => html.push_str(pick_for(rng, TEXTS, hostile_too)),
            _ => html.push_str(pick_for(rng, OTHERS, hostile_too)),
        }
    }
    html
}

/// Generated documents: wherever the fast path takes one, its tree is html5ever's. A
/// good share must be taken, or the comparison would prove little.
#[test]
fn generated_markup_builds_html5evers_tree() {
    let mut rng = fastrand::Rng::with_seed(0x9E37_79B9_7F4A_7C15);
    let cases = 30_000;
    let mut taken = 0;
    for case in 0..cases {
        let html = document(&mut rng, 1 + case % 40, case % 2 == 0);
        match fast_path_agrees(&html) {
            Ok(true) => taken += 1,
            Ok(false) => {}
            Err(difference) => panic!("case {case}: {html:?}\n{difference}"),
        }
    }
    println!("{taken} of {cases} taken by the fast path");
    assert!(
        taken * 3 >= cases,
        "only {taken} of {cases} taken by the fast path"
    );
}
