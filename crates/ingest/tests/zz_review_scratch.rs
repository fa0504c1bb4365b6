use siteops_ingest::fuzzing::fast_path_agrees;

fn report(label: &str, html: &str, verbose: bool) -> bool {
    match fast_path_agrees(html) {
        Ok(t) => {
            if verbose {
                println!("[{label}] {t:5} {html:?}");
            }
            false
        }
        Err(d) => {
            let shown: String = if html.len() > 400 { format!("len {} ...{}", html.len(), &html[16300..]) } else { html.to_string() };
            let d: String = d.chars().take(1500).collect();
            println!("[{label}] ERR {shown:?}\n{d}\n-----");
            true
        }
    }
}

fn hand() -> Vec<String> {
    let v: Vec<&str> = vec![
        // references
        "<main><a title=\"&amp=x&ampx&amp;&amp &lt1 &gt\">x</a></main>",
        "<main><a title='&notit;&notin &copy; &copy'>x</a></main>",
        "<main>&AMP; &AMP &LT &GT &QUOT &COPY &REG &amp=x &ampx</main>",
        "<main>&ampamp; &amp;amp; &lt;&gt &frac12 &frac123 &sup23 &there4</main>",
        "<main>&#x10FFFF; &#65536; &#X41; &#00000065; &#x0a;</main>",
        "<main>&NotNestedGreaterGreater; &nGt; &nGtv; &acE; &bne;</main>",
        "<main>&CounterClockwiseContourIntegral; &CounterClockwiseContourIntegralx</main>",
        "<main><title>&amp</title><title>&notin</title><title>&am</title></main>",
        "<main><textarea>&notin</textarea><textarea>&lt</textarea></main>",
        "<main><textarea>\n\nx</textarea></main>",
        "<main><textarea>&#10;x</textarea></main>",
        "<main><textarea>\n</textarea>x</main>",
        "<main><pre>&#10;x</pre></main>",
        "<main><pre>&NewLine;x</pre></main>",
        "<main><pre>&NewLine;&NewLine;x</pre></main>",
        "<main><pre><!---->\nx</pre></main>",
        "<main><pre>\n</pre></main>",
        "<main><pre>\n\n</pre></main>",
        "<main><listing>\nx</listing></main>",
        "<main><pre>x\n</pre></main>",
        "<main><pre a=1 a=2>\nx</pre></main>",
        "<main><pre>&amp\nx</pre></main>",
        "<main><pre><b>\nx</b></pre></main>",
        "<main><pre>&notin\nx</pre></main>",
        // script escapes
        "<script><!--<script>--></script>x",
        "<script><!--<script></script>--></script>x",
        "<script><!--<script>-></script>--></script>x",
        "<script><!--<script/></script>--></script>x",
        "<script><!--<script\n></script\n>--></script>x",
        "<script><!---></script>x",
        "<script><!--x--!></script>x",
        "<script>a<!--b<script>c</SCRIPT>d--></script>x",
        "<script><!--<scripT>x</script>y</script>z",
        "<script><!--<script>x</script\t>y</script>z",
        "<script><!--<script>x<!--y</script>z</script>w",
        "<script><!--<script>x--><!--</script>z",
        "<script><!--<script>--!></script>--></script>z",
        "<script><!-- -- --></script>x",
        "<script><!--- </script>x",
        "<script><!-</script>x",
        "<script><!--<script>x</scriptx>--></script>y",
        "<script><!--<scriptx></script>y",
        "<script><!--<script>\n</script>\n--></script>y",
        "<script>--></script>x",
        "<script><!--<!--<script>--></script>x",
        "<script><!--<</script>x",
        "<script><!--</</script>x",
        "<script><!--</-->--></script>x",
        "<script><!----><script></script>x",
        "<script><!--><script></script>x",
        "<script><!-- <script> - -> </script> --></script>x",
        "<script><!-- <script> --- > </script> x</script>y",
        // comments
        "<main><!-- <!-- --></main>",
        "<main><!----></main>",
        "<main><!-----x--></main>",
        "<main><!--<!--->x</main>",
        "<main><!--<!-->x</main>",
        "<main><!--a--b---></main>",
        "<main><!--a-></main>-->x</main>",
        "<main><!-- -!> --></main>",
        "<main><!--a-b--></main>",
        // attributes
        "<main><div a=1 A=2 b>x</div></main>",
        "<main><div a = \"1\" b= '2' c =3 d\n=\n4>x</div></main>",
        "<main><div a=\"1\"/>x</main>",
        "<main><div a/>x</main>",
        "<main><br/><br />x<img src=a/></main>",
        "<main><a href=x/>y</a></main>",
        "<main><a href=x&amp>y</a></main>",
        "<main><a title=&lt;x>y</a></main>",
        "<main><a title=a&b>y</a></main>",
        "<main><a title=&#65;>y</a></main>",
        "<main><a \x0ctitle=x\x0c>y</a></main>",
        "<main><h1>a<h2>b</h1>c</main>",
        "<main><dIv ID=X>a</DiV></main>",
        "<main><a.b>x</a.b><foo:bar>y</foo:bar><x-y>z</x-y></main>",
        "<main><a\x0b>x</a\x0b></main>",
        "<main><é>x</main>",
        "<main>a <é> b < c <3 <= <> </main>",
        // head
        "<head>\x0c<title>x</title>\x0c\x0c</head>\x0c<body>x",
        "<head> <title>x</title> x",
        "<head><noscript> <link><!--c--></noscript>x",
        "<head><noscript>x</noscript>",
        "<head><noscript><title>x</title></noscript>",
        "<head><noscript></br>x",
        "<head><noscript><p>x",
        "<head><noscript><noscript><head></p></noscript>x",
        "<head><noscript><style>a</style><meta><noframes>b</noframes></noscript>",
        "<head></head> <!--c--> <body>x",
        "<head></head>x",
        "</head>x",
        "<head></head></p>x",
        "<head></br>x",
        "</br>x",
        "<html></br>x",
        "<head><meta charset=utf-8><meta charset=utf-8/><link/>x",
        "<head><meta http-equiv=content-type content='text/html; charset=utf-8'>x",
        "<head><script type=application/ld+json>{}</script><script>x</script><style>s</style>",
        "<!--a--><!DOCTYPE html><!--b--><html><!--c--><head><!--d--></head><!--e--><body><!--f-->",
        " \n<!DOCTYPE html> <html> <head> </head> <body> x </body> </html> \n",
        "<html a=1><body><html b=2 a=3>x",
        "<body a=1><body a=2 b=3>x",
        "<body></body><body a=1>x",
        "</html><html a=1>x",
        "<main></main></body>  x",
        "<main></main></body><!--c-->",
        "<main></main></html> x",
        "<main></main></html><!--c-->",
        "<main></main></html>\n",
        "<main></main></body>\n</html>\n<p>x",
        "<div></body> x</div>y",
        "<body><frame>x<head>y",
        // quirks
        "<!DOCTYPE html><p><table><tr><td>x</table>y",
        "<p><table><tr><td>x</table>y",
        "x<!DOCTYPE html><p><table><tr><td>x</table>y",
        // tree builder
        "<main><p><button><p>x</button>y</main>",
        "<main><p><button></p>x</button>y</main>",
        "<main><li><p>a<li>b</main>",
        "<main><ul><li><div><li>c</ul></main>",
        "<main><ul><li><address><li>c</ul></main>",
        "<main><dl><dt><div><dd>x</dl></main>",
        "<main><dl><dt><p><dd>x</dl></main>",
        "<main><h1><h2>x</h2></main>",
        "<main><h1>a</h3>b</main>",
        "<main><h1><p>a</h1>b</main>",
        "<main><h1><div>a</h1>b</main>",
        "<main><div><form></div></form>x<form>y</form></main>",
        "<main><form><div></div></form>x</main>",
        "<main><form><p>x</form>y</main>",
        "<main><form><li>x</form>y</main>",
        "<main><table><tr><td><form>x</form></td></tr></table></main>",
        "<main><table><tr><td><form></td></tr></table></form><form>y</form></main>",
        "<main><button></p>x</main>",
        "<main><table><tr><td></p>x</table></main>",
        "<main><table><tr><td></br>x</table></main>",
        "<main><select><option>a<optgroup>b<option>c</optgroup><option>d</select></main>",
        "<main><option>a<option>b</main>",
        "<main><optgroup><option>a<optgroup>b</main>",
        "<main><select><p><option>a</select></main>",
        "<main><select><div><option>a<option>b</div></select></main>",
        "<main><select><option><p>a<option>b</select></main>",
        "<main><option><p>a<option>b</main>",
        "<main><select><option>a</option><option>b</select></main>",
        "<main><select><optgroup><option>a</optgroup>x</select></main>",
        "<main><select><button>x</button><option>a</select></main>",
        "<main><select></select><input><hr></main>",
        "<main><p><hr>x</main>",
        "<main><dialog><p>x</dialog></main>",
        "<main><p><dialog>x</dialog></main>",
        "<main><p><search>x</search></main>",
        "<main><ruby>a<b>c</b></ruby></main>",
        "<main><isindex>x</main>",
        "<main><keygen>x<wbr>y<track>z<embed>w<area>v</main>",
        "<main><p><noscript><p>x</noscript>y</main>",
        "<main><noscript><div>x</noscript></div></main>",
        "<main><b><b><b><b>x</b>y</b>z</b>w</b>v</main>",
        "<main><b><b><b><b>x</b></b></b></b></b>v</main>",
        "<main><b class=a><b class=a><b class=a><b class=a>x</b></b></b></b>y</main>",
        "<main><b><table><tr><td>x</td></tr></table></b>y</main>",
        "<main><a><table><tr><td>x</td></tr></table></a>y</main>",
        "<main><span><div></span>x</div></main>",
        "<main><div><span></div>x</main>",
        "<main><sarcasm>x</sarcasm></main>",
        "<main><u>a</s>b</u></main>",
        "<main><p>a</b>c</main>",
        "<main><em><p>x</p></em></main>",
        "<main><code><li>x</li></code></main>",
        // tables
        "<main><table> <tr> <td>a</td> </tr> </table></main>",
        "<main><table><tbody><tr><td></tbody></table></main>",
        "<main><table><tr><td><table><tr><td></table></table></main>",
        "<main><table><thead><tr><th></thead><tbody><tr><td></table></main>",
        "<main><table><tr><td>a</tr><tr><td>b</table></main>",
        "<main><table><tr><td>a<tbody><tr><td>b</table></main>",
        "<main><table><tr></tbody></table>x</main>",
        "<main><table><tr><td>a</td></tr></tbody></table>x</main>",
        "<main><table><tr><td>x</td></tr><!--c--> \n</table></main>",
        "<main><table>\n<script>a</script><style>b</style><tr><script>c</script><td>x</table></main>",
        "<main><table><tr><td><p>a</td></tr></table></main>",
        "<main><table><tr><td><li>a</td></tr></table></main>",
        "<main><table><tr><td><svg><g></g></svg></td></tr></table></main>",
        "<main><table><tr><td><body a=1><html b=2>x</table></main>",
        "<main><table></table><table><tr><th>x</table></main>",
        "<main><table><thead></thead><tfoot><tr><td>x</tfoot></table></main>",
        "<main><table><tbody></tbody><tr><td>x</table></main>",
        "<main><table>&#32;<tr><td>x</table></main>",
        "<main><table><tr><td>x</td><td>y</tr></table></main>",
        "<main><table><tr><td>x</td></tr></table></main></body><table><tr><td>y</table>",
        "<table><tr><td><main>x</main></td></tr></table>y",
        "<table><tr><td><main>x</main></td></tr><tr><td><main>y</main></table>z",
        "<div><table><tr><td>x</table>y</div>",
        "<main><table><tr><td><table><tr><td>x</td></tr></table>y</td></tr></table></main>",
        // svg
        "<main><svg><clipPath><feGaussianBlur/></clipPath></svg></main>",
        "<main><svg><foreignObject></foreignObject></svg></main>",
        "<main><svg><desc>x</desc>y</svg>z</main>",
        "<main><svg viewBox='0 0 1 1' preserveAspectRatio=none xml:lang=en xmlns:xlink=x xlink:href=a href=b xmlns=c>x</svg></main>",
        "<main><svg><g></G></svg></main>",
        "<main><svg><title>x</svg>y</main>",
        "<main><svg><title>x</title><title>y</svg></main>",
        "<main><svg><desc></svg>x</main>",
        "<main><svg><g></svg>x</main>",
        "<main><svg><script>if (a<b) x</script></svg></main>",
        "<main><svg><style>a{}</style></svg></main>",
        "<main><svg><textarea>\nx</textarea></svg></main>",
        "<main><svg><pre2>\nx</pre2></svg></main>",
        "<main><svg><html a=1></html></svg></main>",
        "<main><svg><font>x</font></svg></main>",
        "<main><svg><math><mi/></math></svg></main>",
        "<main><svg><svg><g/></svg></svg></main>",
        "<main><svg/>x</main>",
        "<main><svg><!DOCTYPE html><g/></svg></main>",
        "<main><svg><g>&amp;&lt;</g></svg></main>",
        "<main><svg><title><!--c--></title></svg></main>",
        "<main><svg><title></title></svg></main>",
        "<main><svg><foreignobject>x</foreignobject></svg></main>",
        "<main><svg><desc>x</desc></svg></main>",
        "<main><svg><a><title>x</title></a></svg></main>",
        "<main><svg>\n<g>\n</g>\n</svg>\n</main>",
        "<main><svg><g></main>x",
        "<main><svg>x</svg></main>",
        "<main><svg><animatecolor/><altglyph/><feDropShadow/><fespotlight/></svg></main>",
        "<main><svg><g attributename=a CALCMODE=b definitionurl=c></g></svg></main>",
        "<svg><g>x</g></svg><main>y</main>",
        "<head><svg>x</svg><main>y</main>",
        "<main></main><svg><g>",
        "<main><svg><g>x",
        "<main><p><svg><desc>x</desc></svg></p></main>",
        "<main><p><svg></p>",
        "<main><li><svg></li>",
    ];
    v.into_iter().map(String::from).collect()
}

/// Constructs straddling html5ever's 16 KiB chunk boundary.
fn boundary() -> Vec<String> {
    let pieces = [
        "&amp;", "&notin;", "&notit;", "&copy2", "&#x41;", "&#65;", "</script>", "<!--", "-->",
        "<script>", "</p>", "<p>", "<!-- c -->", "<pre>\nx", "\n", "<textarea>\nx</textarea>",
        "&amp", "<a href='&amp;&copy=x'>", "<!DOCTYPE html>", "</main>", "<main>",
    ];
    let mut out = Vec::new();
    for piece in pieces {
        for ctx in ["body", "script", "title", "textarea", "style", "pre"] {
            for back in 0..=(piece.len() + 1) {
                let mut html = String::from("<main>");
                let (open, close) = match ctx {
                    "body" => ("", ""),
                    "script" => ("<script>", "</script>"),
                    "title" => ("<title>", "</title>"),
                    "textarea" => ("<textarea>", "</textarea>"),
                    "style" => ("<style>", "</style>"),
                    _ => ("<pre>", "</pre>"),
                };
                html.push_str(open);
                let target = 16384 - back;
                while html.len() < target {
                    html.push('a');
                }
                html.push_str(piece);
                html.push_str("zz");
                html.push_str(close);
                html.push_str("</main>");
                out.push(html);
            }
        }
    }
    // Script escape sequences across the boundary.
    for seq in [
        "<!--<script>x</script>-->",
        "<!--<script>--></script>",
        "<!-- </script>",
        "<!--<script>x</script\n>y-->",
    ] {
        for back in 0..=seq.len() {
            let mut html = String::from("<main><script>");
            while html.len() < 16384 - back {
                html.push('a');
            }
            html.push_str(seq);
            html.push_str("b</script>c</main>");
            out.push(html);
        }
    }
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const TAGS: &[&str] = &[
    "html", "head", "body", "title", "meta", "link", "style", "script", "noscript", "main",
    "div", "p", "span", "a", "b", "i", "em", "strong", "code", "font", "u", "s", "big", "small",
    "strike", "tt", "li", "ul", "ol", "dl", "dd", "dt", "h1", "h2", "h3", "h6", "pre", "listing",
    "textarea", "form", "button", "input", "hr", "br", "img", "table", "tbody", "thead", "tfoot",
    "tr", "td", "th", "select", "option", "optgroup", "iframe", "noembed", "noframes", "svg",
    "path", "g", "desc", "title", "foreignobject", "clippath", "section", "header", "nav",
    "article", "aside", "footer", "figure", "figcaption", "blockquote", "address", "search",
    "menu", "dir", "center", "details", "summary", "dialog", "fieldset", "legend", "hgroup",
    "source", "track", "wbr", "embed", "area", "keygen", "param", "picture", "label", "x-el",
    "base", "basefont", "bgsound", "frame", "isindex", "ruby", "sup", "sub", "var", "label",
];
const ATTRS: &[&str] = &[
    "", "", "", " class=\"x y\"", " id=a", " href='?a=1&copy=2&amp;b'", " viewbox=\"0 0 1 1\"",
    " xlink:href=#i", " type=application/ld+json", " color=red", " data-x='&lt;&amp'",
    " id=a ID=b", " hidden", " Class=C", " type=hidden", " t=&amp", " t='&notit;'",
    " t=\"&ampx &amp=\"", " definitionurl=x", " xml:lang=en",
];
const TEXTS: &[&str] = &[
    "x", " ", "\n", "\n\n", "a & b", "&amp;", "&copy", "&notin;", "&#x41;", "&#10;", "<", " \t",
    "&nbsp;", "AT&T", "é", "\x0c", "&NewLine;", "&Tab;", "&#32;", "&amp", "&lt;b&gt;", "< a",
];
const OTHERS: &[&str] = &[
    "<!-- c -->", "<!---->", "<!-- a -- b --->", "<!DOCTYPE html>", "</br>", "</p>",
    "<!--<!-->", "</body>", "</html>", "<body a=1>", "<html b=2>",
];

fn document(rng: &mut Rng, pieces: usize) -> String {
    let mut html = String::new();
    if rng.below(3) == 0 {
        html.push_str("<!DOCTYPE html>");
    }
    let mut open: Vec<&str> = Vec::new();
    for _ in 0..pieces {
        match rng.below(13) {
            0..=3 => {
                let tag = rng.pick(TAGS);
                let attrs = rng.pick(ATTRS);
                let close = if rng.below(8) == 0 { "/" } else { "" };
                let tagc = if rng.below(6) == 0 { tag.to_uppercase() } else { tag.to_string() };
                html.push_str(&format!("<{tagc}{attrs}{close}>"));
                match tag {
                    "script" | "style" | "title" | "textarea" | "iframe" | "noembed"
                    | "noframes" => {
                        let body = rng.pick(&[
                            "x", "<!-- a -->", "<b>", "a<!--<script>", "\n", "&amp;", "\n\nx",
                            "<!--<script></script>-->", "&#10;", "a</b>", "<!-->",
                        ]);
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
                let tag = rng.pick(TAGS);
                html.push_str(&format!("</{tag}>"));
            }
            8..=10 => html.push_str(rng.pick(TEXTS)),
            _ => html.push_str(rng.pick(OTHERS)),
        }
    }
    html
}

#[test]
fn scratch() {
    let verbose = std::env::var("VERBOSE").is_ok();
    let mut errs = 0;
    for h in hand() {
        if report("hand", &h, verbose) {
            errs += 1;
        }
    }
    for h in boundary() {
        if report("boundary", &h, false) {
            errs += 1;
        }
    }
    let n: usize = std::env::var("N").ok().and_then(|s| s.parse().ok()).unwrap_or(20000);
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut taken = 0;
    let mut shown = 0;
    for case in 0..n {
        let html = document(&mut rng, 1 + case % 30);
        match fast_path_agrees(&html) {
            Ok(true) => taken += 1,
            Ok(false) => {}
            Err(d) => {
                errs += 1;
                if shown < 15 {
                    shown += 1;
                    println!("[rand {case}] ERR {html:?}\n{d}\n-----");
                }
            }
        }
    }
    println!("random: {taken} of {n} taken; total errs {errs}");
}
