//! The render with the delivery's inputs, against the reference: each expected page is
//! `@adobe/helix-html-pipeline` 6.32.3's answer for the same markdown under a site
//! configuration that resolves to the `PageDelivery` given (the nonce as its tests make it).

use url::Url;

use super::{CspInput, PageDelivery, PageOptions, page, page_and_plain, plain, plain_html};

const NONCE: &str = "ckE0bmQwbW1tckE0bmQwbW1t";

fn options(url: &str, head_html: Option<&str>, delivery: PageDelivery) -> PageOptions {
    PageOptions {
        url: Url::parse(url).unwrap(),
        head_html: head_html.map(str::to_owned),
        delivery,
    }
}

fn csp(header: Option<&str>, report_only: Option<&str>) -> CspInput {
    CspInput {
        nonce: NONCE.into(),
        header: header.map(str::to_owned),
        header_report_only: report_only.map(str::to_owned),
    }
}

fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// Sheet values go under the block's; a sheet's `""` is no value, its empty cell none at all; an image from a sheet is the meta image.
#[test]
fn sheets() {
    let markdown =
        "# Heading\n\n|Metadata||\n|-|-|\n|Title|Page Title|\n|Description||\n|Category|page|\n";
    let delivery = PageDelivery {
        metadata: vec![
            ("category".into(), "sheet".into()),
            ("image".into(), "/media_1.png#width=10".into()),
            ("og:url".into(), "\"\"".into()),
            ("twitter:title".into(), "\"\"".into()),
            ("title".into(), "Sheet Title".into()),
            ("description".into(), "sheet description".into()),
            ("empty".into(), "".into()),
            ("keywords".into(), " x, ,y ".into()),
            ("og:site-name".into(), "S".into()),
        ],
        ..PageDelivery::default()
    };
    let options = options("https://www.example.com/a/page", None, delivery);
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>Page Title</title>
    <link rel="canonical" href="https://www.example.com/a/page">
    <meta name="description" content="">
    <meta name="keywords" content="x, y">
    <meta property="og:title" content="Page Title">
    <meta property="og:description" content="">
    <meta property="og:image" content="https://www.example.com/media_1.png?width=1200&#x26;format=pjpg&#x26;optimize=medium#width=10">
    <meta property="og:image:secure_url" content="https://www.example.com/media_1.png?width=1200&#x26;format=pjpg&#x26;optimize=medium#width=10">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:description" content="">
    <meta name="twitter:image" content="https://www.example.com/media_1.png?width=1200&#x26;format=pjpg&#x26;optimize=medium#width=10">
    <meta name="category" content="page">
    <meta property="og:site-name" content="S">
  </head>
  <body>
    <header></header>
    <main>
      <div>
        <h1 id="heading">Heading</h1>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(got_headers, headers(&[]));
}

/// The page's JSON-LD wins over the sheet's; `canonical:extension` is not for a folder URL; `title:suffix` is appended.
#[test]
fn jsonld_folder() {
    let markdown = "# Folder Page\n\n|Metadata||\n|-|-|\n|JSON-LD|{\"@type\":\"Page\"}|\n";
    let delivery = PageDelivery {
        metadata: vec![
            ("json-ld".into(), "{\"@type\":\"Global\"}".into()),
            ("canonical:extension".into(), "html".into()),
            ("title:suffix".into(), "- Site".into()),
        ],
        ..PageDelivery::default()
    };
    let options = options("https://www.example.com/f/", None, delivery);
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>Folder Page - Site</title>
    <link rel="canonical" href="https://www.example.com/f/">
    <meta property="og:title" content="Folder Page - Site">
    <meta property="og:url" content="https://www.example.com/f/">
    <meta property="og:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:secure_url" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="Folder Page - Site">
    <meta name="twitter:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <script type="application/ld+json">{
  "@type": "Page"
}</script>
  </head>
  <body>
    <header></header>
    <main>
      <div>
        <h1 id="folder-page">Folder Page</h1>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(got_headers, headers(&[]));
}

/// A sheet's JSON-LD when the page has none; `canonical:extension` on a page URL.
#[test]
fn jsonld_global() {
    let markdown = "# Plain Page\n";
    let delivery = PageDelivery {
        metadata: vec![
            ("json-ld".into(), "{\"@type\":\"Global\"}".into()),
            ("canonical:extension".into(), "html".into()),
        ],
        ..PageDelivery::default()
    };
    let options = options("https://www.example.com/p", None, delivery);
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>Plain Page</title>
    <link rel="canonical" href="https://www.example.com/p.html">
    <meta property="og:title" content="Plain Page">
    <meta property="og:url" content="https://www.example.com/p.html">
    <meta property="og:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:secure_url" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="Plain Page">
    <meta name="twitter:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <script type="application/ld+json">{
  "@type": "Global"
}</script>
  </head>
  <body>
    <header></header>
    <main>
      <div>
        <h1 id="plain-page">Plain Page</h1>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(got_headers, headers(&[]));
}

/// The canonical and meta image URLs are on the production host; links to the preview and live hosts are made relative (a link to the page itself, its fragment), those to the production host are not.
#[test]
fn hosts() {
    let markdown = "# Hosts\n\n[self](https://preview.example/docs/hosts#part) [live](https://live.example:8443/x?y=1) [prod](https://www.prod.example/z) ![img](https://preview.example/i.png)\n";
    let delivery = PageDelivery {
        prod_host: Some("www.prod.example".into()),
        preview_host: Some("preview.example".into()),
        live_host: Some("live.example:8443".into()),
        ..PageDelivery::default()
    };
    let options = options("http://localhost:3000/docs/hosts", None, delivery);
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>Hosts</title>
    <link rel="canonical" href="https://www.prod.example/docs/hosts">
    <meta property="og:title" content="Hosts">
    <meta property="og:url" content="https://www.prod.example/docs/hosts">
    <meta property="og:image" content="https://www.prod.example/i.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:secure_url" content="https://www.prod.example/i.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:alt" content="img">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="Hosts">
    <meta name="twitter:image" content="https://www.prod.example/i.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
  </head>
  <body>
    <header></header>
    <main>
      <div>
        <h1 id="hosts">Hosts</h1>
        <p><a href="#part">self</a> <a href="/x?y=1">live</a> <a href="https://www.prod.example/z">prod</a>
          <img src="/i.png" alt="img" loading="lazy">
        </p>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(got_headers, headers(&[]));
}

/// A folder-mapped page: relative URLs resolve on the mapped page's path, the canonical is the request's; the mapped folder's values go over the sheets'.
#[test]
fn mapped() {
    let markdown = "# Product\n\n![hero](./media_2.jpg#width=20)\n";
    let delivery = PageDelivery {
        path: Some("/generic-product".into()),
        metadata: vec![
            ("category".into(), "global".into()),
            ("brand".into(), "global".into()),
        ],
        mapped_metadata: vec![
            ("brand".into(), "mapped".into()),
            ("color".into(), "red".into()),
        ],
        ..PageDelivery::default()
    };
    let options = options("https://www.example.com/products/shoe", None, delivery);
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>Product</title>
    <link rel="canonical" href="https://www.example.com/products/shoe">
    <meta property="og:title" content="Product">
    <meta property="og:url" content="https://www.example.com/products/shoe">
    <meta property="og:image" content="https://www.example.com/media_2.jpg?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:secure_url" content="https://www.example.com/media_2.jpg?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:alt" content="hero">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="Product">
    <meta name="twitter:image" content="https://www.example.com/media_2.jpg?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta name="category" content="global">
    <meta name="brand" content="mapped">
    <meta name="color" content="red">
  </head>
  <body>
    <header></header>
    <main>
      <div>
        <h1 id="product">Product</h1>
        <p>
          <picture>
            <source type="image/webp" srcset="./media_2.jpg?width=2000&#x26;format=webply&#x26;optimize=medium" media="(min-width: 600px)">
            <source type="image/webp" srcset="./media_2.jpg?width=750&#x26;format=webply&#x26;optimize=medium">
            <source type="image/jpeg" srcset="./media_2.jpg?width=2000&#x26;format=jpg&#x26;optimize=medium" media="(min-width: 600px)">
            <img loading="lazy" alt="hero" src="./media_2.jpg?width=750&#x26;format=jpg&#x26;optimize=medium" width="20">
          </picture>
        </p>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(got_headers, headers(&[]));
}

/// A CSP meta asked to move becomes the header, with the nonce, and the elements marked for it get the nonce.
#[test]
fn csp_move() {
    let markdown = "# CSP\n";
    let delivery = PageDelivery {
        csp: Some(csp(None, None)),
        ..PageDelivery::default()
    };
    let options = options(
        "https://www.example.com/csp",
        Some(
            r##"<meta http-equiv="content-security-policy" content="script-src 'nonce-aem' 'strict-dynamic'; style-src 'nonce-aem'" move-to-http-header="true">
<script nonce="aem" src="/s.js"></script>
<style nonce="aem">a{}</style>
<link rel="stylesheet" nonce="aem" href="/s.css">"##,
        ),
        delivery,
    );
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>CSP</title>
    <link rel="canonical" href="https://www.example.com/csp">
    <meta property="og:title" content="CSP">
    <meta property="og:url" content="https://www.example.com/csp">
    <meta property="og:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:secure_url" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="CSP">
    <meta name="twitter:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <script nonce="ckE0bmQwbW1tckE0bmQwbW1t" src="/s.js"></script>
    <style nonce="ckE0bmQwbW1tckE0bmQwbW1t">a{}</style>
    <link rel="stylesheet" nonce="ckE0bmQwbW1tckE0bmQwbW1t" href="/s.css">
  </head>
  <body>
    <header></header>
    <main>
      <div>
        <h1 id="csp">CSP</h1>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(
        got_headers,
        headers(&[(
            "content-security-policy",
            "script-src 'nonce-ckE0bmQwbW1tckE0bmQwbW1t' 'strict-dynamic'; style-src 'nonce-ckE0bmQwbW1tckE0bmQwbW1t'"
        )])
    );
}

/// The policy headers get the nonce where they name it; only the directives that name it put it on elements.
#[test]
fn csp_headers() {
    let markdown = "# CSP\n";
    let delivery = PageDelivery {
        csp: Some(csp(
            Some("default-src 'self'"),
            Some("script-src 'nonce-aem'"),
        )),
        ..PageDelivery::default()
    };
    let options = options(
        "https://www.example.com/csp",
        Some(
            r##"<script nonce="aem" src="/s.js"></script><link rel="preload" as="script" nonce="aem" href="/p.js"><style nonce="aem">a{}</style>"##,
        ),
        delivery,
    );
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>CSP</title>
    <link rel="canonical" href="https://www.example.com/csp">
    <meta property="og:title" content="CSP">
    <meta property="og:url" content="https://www.example.com/csp">
    <meta property="og:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta property="og:image:secure_url" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="CSP">
    <meta name="twitter:image" content="https://www.example.com/default-meta-image.png?width=1200&#x26;format=pjpg&#x26;optimize=medium">
    <script nonce="ckE0bmQwbW1tckE0bmQwbW1t" src="/s.js"></script>
    <link rel="preload" as="script" nonce="ckE0bmQwbW1tckE0bmQwbW1t" href="/p.js">
    <style nonce="aem">a{}</style>
  </head>
  <body>
    <header></header>
    <main>
      <div>
        <h1 id="csp">CSP</h1>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(
        got_headers,
        headers(&[
            ("content-security-policy", "default-src 'self'"),
            (
                "content-security-policy-report-only",
                "script-src 'nonce-ckE0bmQwbW1tckE0bmQwbW1t'"
            )
        ])
    );
}

/// Section metadata: classes, id and data attributes on the section, URLs on the production host; an empty style row leaves an empty class.
#[test]
fn sections() {
    let markdown = "# One\n\n|Section Metadata||\n|-|-|\n|Style|Dark, Wide (x)|\n|Id|Part One|\n|Image|![i](./media_3.png#width=5)|\n|Link|[l](/rel/link)|\n\n---\n\nTwo\n\n|Section Metadata||\n|-|-|\n|Style||\n";
    let delivery = PageDelivery {
        prod_host: Some("www.prod.example".into()),
        section_metadata: true,
        ..PageDelivery::default()
    };
    let options = options("https://www.example.com/sec", None, delivery);
    let got = page(markdown, &options);
    assert_eq!(
        got.html,
        r##"<!DOCTYPE html>
<html>
  <head>
    <title>One</title>
    <link rel="canonical" href="https://www.prod.example/sec">
    <meta property="og:title" content="One">
    <meta property="og:url" content="https://www.prod.example/sec">
    <meta property="og:image" content="https://www.prod.example/media_3.png?width=1200&#x26;format=pjpg&#x26;optimize=medium#width=5">
    <meta property="og:image:secure_url" content="https://www.prod.example/media_3.png?width=1200&#x26;format=pjpg&#x26;optimize=medium#width=5">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="One">
    <meta name="twitter:image" content="https://www.prod.example/media_3.png?width=1200&#x26;format=pjpg&#x26;optimize=medium#width=5">
  </head>
  <body>
    <header></header>
    <main>
      <div class="dark wide x" id="part-one" data-image="https://www.prod.example/media_3.png?width=750&#x26;format=png&#x26;optimize=medium" data-link="https://www.prod.example/rel/link">
        <h1 id="one">One</h1>
      </div>
      <div class="">
        <p>Two</p>
      </div>
    </main>
    <footer></footer>
  </body>
</html>
"##
    );
    let mut got_headers = got.headers;
    got_headers.sort();
    assert_eq!(got_headers, headers(&[]));
}

/// Section metadata in `.plain.html` too.
#[test]
fn sections_plain() {
    let markdown = "# One\n\n|Section Metadata||\n|-|-|\n|Style|Dark, Wide (x)|\n|Id|Part One|\n|Image|![i](./media_3.png#width=5)|\n|Link|[l](/rel/link)|\n\n---\n\nTwo\n\n|Section Metadata||\n|-|-|\n|Style||\n";
    let delivery = PageDelivery {
        prod_host: Some("www.prod.example".into()),
        section_metadata: true,
        ..PageDelivery::default()
    };
    let options = options("https://www.example.com/sec.plain.html", None, delivery);
    assert_eq!(
        plain(markdown, &options),
        r##"<div class="dark wide x" id="part-one" data-image="https://www.prod.example/media_3.png?width=750&#x26;format=png&#x26;optimize=medium" data-link="https://www.prod.example/rel/link">
  <h1 id="one">One</h1>
</div>
<div class="">
  <p>Two</p>
</div>
"##
    );
}
/// Without the delivery's CSP step, `head.html` is copied as it is and no header is set.
#[test]
fn no_csp_step_no_change() {
    let head = r#"<meta http-equiv="content-security-policy" content="script-src 'nonce-aem'" move-as-header="true"><script nonce="aem"></script>"#;
    let got = page(
        "# CSP\n",
        &options("https://h.example/csp", Some(head), PageDelivery::default()),
    );
    assert!(got.headers.is_empty());
    assert!(got.html.contains(r#"<meta http-equiv="content-security-policy" content="script-src &#x27;nonce-aem&#x27;" move-as-header="true">"#), "{}", got.html);
    assert!(
        got.html.contains(r#"<script nonce="aem"></script>"#),
        "{}",
        got.html
    );
}

/// Both forms from one render: the page's headers, and the plain form `plain` gives.
#[test]
fn page_and_plain_agree_with_page_and_plain() {
    let markdown = "# One\n\n|Section Metadata||\n|-|-|\n|Style|dark|\n";
    let head = r#"<meta http-equiv="content-security-policy" content="script-src 'nonce-aem'" move-as-header="true">"#;
    let delivery = PageDelivery {
        section_metadata: true,
        csp: Some(csp(None, None)),
        ..PageDelivery::default()
    };
    let options = options("https://h.example/one", Some(head), delivery);
    let both = page_and_plain(markdown, &options);
    let alone = page(markdown, &options);
    assert_eq!(both.page, alone.html);
    assert_eq!(both.headers, alone.headers);
    assert_eq!(
        both.headers,
        headers(&[(
            "content-security-policy",
            &format!("script-src 'nonce-{NONCE}'")
        )])
    );
    assert_eq!(both.plain, plain(markdown, &options));
    assert_eq!(
        both.plain,
        "<div class=\"dark\">\n  <h1 id=\"one\">One</h1>\n</div>\n"
    );
}

/// Without section metadata (rendering version 1), its block stays a block.
#[test]
fn section_metadata_only_when_asked() {
    let markdown = "# One\n\n|Section Metadata||\n|-|-|\n|Style|dark|\n";
    assert!(plain_html(markdown).contains("<div class=\"section-metadata\">"));
    let options = options("https://h.example/one", None, PageDelivery::default());
    assert_eq!(plain(markdown, &options), plain_html(markdown));
}

/// `.plain.html` is rendered for its own path: a link to the page's path keeps it there,
/// one to the `.plain.html` becomes a fragment; `page_and_plain` renders such a page twice.
#[test]
fn plain_links_to_the_page_itself() {
    let markdown = "# T\n\n[a](https://main--s--o.aem.page/p#q) [b](https://main--s--o.aem.page/p.plain.html#r) [c](https://main--s--o.aem.page/p/index.plain.html#s)\n";
    let expected = "<div>\n  <h1 id=\"t\">T</h1>\n  <p><a href=\"/p#q\">a</a> <a href=\"#r\">b</a> <a href=\"/p/index.plain.html#s\">c</a></p>\n</div>\n";
    let page_options = options("https://h.example/p", None, PageDelivery::default());
    assert_eq!(plain(markdown, &page_options), expected);
    let plain_options = options(
        "https://h.example/p.plain.html",
        None,
        PageDelivery::default(),
    );
    assert_eq!(plain(markdown, &plain_options), expected);
    let both = page_and_plain(markdown, &page_options);
    assert_eq!(both.plain, expected);
    assert!(
        both.page
            .contains(r##"<a href="#q">a</a> <a href="#r">b</a>"##),
        "{}",
        both.page
    );

    let markdown = "# T\n\n[a](https://main--s--o.aem.page/f/#q) [b](https://main--s--o.aem.page/f/index.plain.html#r) [c](https://main--s--o.aem.page/f/index#s)\n";
    let folder = options("https://h.example/f/", None, PageDelivery::default());
    assert_eq!(
        plain(markdown, &folder),
        "<div>\n  <h1 id=\"t\">T</h1>\n  <p><a href=\"/f/#q\">a</a> <a href=\"#r\">b</a> <a href=\"/f/index#s\">c</a></p>\n</div>\n"
    );
    assert!(
        page(markdown, &folder).html.contains(
            r##"<p><a href="#q">a</a> <a href="#r">b</a> <a href="/f/index#s">c</a></p>"##
        )
    );
}

/// Any mix of the delivery's inputs and of the pieces these steps read renders without a
/// panic, and the two forms stay consistent.
#[test]
fn random_delivery_inputs_never_panic() {
    const PIECES: &[&str] = &[
        "# Title\n\n",
        "text, more ,, text\n\n",
        "---\n\n",
        "|Section Metadata||\n|-|-|\n",
        "|Metadata||\n|-|-|\n",
        "|Style|a, b (c)|\n",
        "|Id|9 é x|\n",
        "|Image|![i](./media_1.png#width=3)|\n",
        "|Link|[l](https://preview.example/p#f)|\n",
        "|json-ld|{\"a\":|\n",
        "|Title||\n",
        "|canonical|/c|\n",
        "|only|\n",
        "[x](https://main--s--o.aem.page/p.plain.html#y) ",
        "<div class=\"section-metadata\"><div><div>style</div><div>x</div></div></div>\n\n",
        "![a](https://live.example/a.png)\n\n",
    ];
    const HEADS: &[&str] = &[
        "<meta http-equiv=\"content-security-policy\" content=\"script-src 'nonce-aem'\" move-as-header=\"true\">",
        "<meta http-equiv=\"Content-Security-Policy\">",
        "<script nonce=\"aem\"></script><style nonce=\"aem\"></style>",
        "<link rel=\"stylesheet\" nonce=\"aem\"><link as=\"script\" nonce=\"aem\">",
        "<meta http-equiv=\"content-security-policy\" content=\";;; script-src\" move-to-http-header=\"true\">",
        "<div><meta http-equiv=\"content-security-policy\" content=\"style-src 'nonce-aem'\">",
    ];
    const VALUES: &[&str] = &[
        "",
        "\"\"",
        "x",
        "/img.png",
        "https://h/i.png",
        "{\"@type\":\"T\"}",
        "(",
        "html",
    ];
    const NAMES: &[&str] = &[
        "title",
        "json-ld",
        "canonical:extension",
        "title:suffix",
        "image",
        "og:image",
        "twitter:title",
        "og:url",
        "x",
    ];
    const PATHS: &[&str] = &["/p", "/f/", "/", "/a/index", "/p.plain.html"];
    let mut rng = fastrand::Rng::with_seed(32);
    for _ in 0..300 {
        let markdown: String = (0..rng.usize(0..12))
            .map(|_| PIECES[rng.usize(..PIECES.len())])
            .collect();
        let head: String = (0..rng.usize(0..4))
            .map(|_| HEADS[rng.usize(..HEADS.len())])
            .collect();
        let pick =
            |rng: &mut fastrand::Rng, list: &[&str]| list[rng.usize(..list.len())].to_owned();
        let pairs = |rng: &mut fastrand::Rng| {
            (0..rng.usize(0..5))
                .map(|_| (pick(rng, NAMES), pick(rng, VALUES)))
                .collect::<Vec<_>>()
        };
        let delivery = PageDelivery {
            path: rng.bool().then(|| pick(&mut rng, PATHS)),
            prod_host: rng.bool().then(|| {
                pick(
                    &mut rng,
                    &["www.example.com", "localhost:3000", "bad host", ""],
                )
            }),
            preview_host: rng.bool().then(|| "preview.example".to_owned()),
            live_host: rng.bool().then(|| "live.example".to_owned()),
            metadata: pairs(&mut rng),
            mapped_metadata: pairs(&mut rng),
            section_metadata: rng.bool(),
            csp: rng.bool().then(|| CspInput {
                nonce: NONCE.into(),
                header: rng.bool().then(|| {
                    pick(
                        &mut rng,
                        &[
                            "script-src 'nonce-aem'",
                            "",
                            "style-src 'nonce-aem'; style-src x",
                        ],
                    )
                }),
                header_report_only: rng.bool().then(|| "style-src 'nonce-aem'".to_owned()),
            }),
        };
        let url = format!("https://h.example{}", pick(&mut rng, PATHS));
        let options = options(&url, (!head.is_empty()).then_some(head.as_str()), delivery);
        let both = page_and_plain(&markdown, &options);
        let alone = page(&markdown, &options);
        assert_eq!(both.page, alone.html, "{markdown}");
        assert_eq!(both.headers, alone.headers, "{markdown}");
        assert_eq!(
            both.plain,
            plain(&markdown, &options),
            "{markdown} {options:?}"
        );
    }
}
