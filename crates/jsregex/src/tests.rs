use super::*;

/// Parses `literal`, runs it on `haystack` and compares the whole match.
fn check(literal: &str, haystack: &str, expected: Option<&str>) {
    let regex =
        JsRegex::parse(literal).unwrap_or_else(|error| panic!("{literal} should parse: {error}"));
    assert_eq!(
        regex.find(haystack),
        Ok(expected),
        "{literal} on {haystack:?}"
    );
    assert_eq!(regex.is_match(haystack), Ok(expected.is_some()));
}

fn check_all(cases: &[(&str, &str, Option<&str>)]) {
    for &(literal, haystack, expected) in cases {
        check(literal, haystack, expected);
    }
}

fn parse_error(literal: &str) -> JsRegexError {
    match JsRegex::parse(literal) {
        Ok(regex) => panic!("{literal} should not parse, got {regex:?}"),
        Err(error) => error,
    }
}

#[test]
fn the_six_documented_forms_find_the_whole_id() {
    check_all(&[
        (r"/\d+$/", "/products/1234", Some("1234")),
        (r"/\d+$/", "/products/abc", None),
        (
            r"/[a-z0-9-]+$/",
            "/recipes/lemon-tart-2",
            Some("lemon-tart-2"),
        ),
        (
            r"/\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]+$/",
            "/news/2024/05/17/launch-day",
            Some("2024/05/17/launch-day"),
        ),
        (
            r"/[^\/]+\/[^\/]+$/",
            "/docs/guides/getting-started",
            Some("guides/getting-started"),
        ),
        (
            r"/(?<=event-)[a-z0-9-]+$/",
            "/events/event-summer-fest",
            Some("summer-fest"),
        ),
        (
            r"/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i",
            "/stores/3F2504E0-4F89-11D3-9A0C-0305E82C3301",
            Some("3F2504E0-4F89-11D3-9A0C-0305E82C3301"),
        ),
    ]);
}

#[test]
fn lookahead_and_lookbehind_work() {
    check_all(&[
        (r"/\d+(?=\.plain\.html$|$)/", "/p/42.plain.html", Some("42")),
        (r"/\d+(?=\.plain\.html$|$)/", "/p/42", Some("42")),
        (
            r"/(?<=\/hotels\/).+$/",
            "/hotels/paris/ritz",
            Some("paris/ritz"),
        ),
        (r"/(?<=\/p\/\d+-)[a-z]+/", "/p/123-shoes", Some("shoes")),
        (
            r"/(?<!event-)\b[a-z]+$/",
            "/events/event-x/party",
            Some("party"),
        ),
        (r"/[a-z]+(?!\d)$/", "/a/b2", None),
    ]);
}

#[test]
fn escaped_sets_are_javascript_ascii_sets() {
    check_all(&[
        (r"/\d+/", "٣٤", None),
        (r"/[\d]+/", "٣4", Some("4")),
        (r"/\w+/", "é", None),
        (r"/\W/", "é", Some("é")),
        (r"/[^\D]/", "x٣7", Some("7")),
        (r"/[a\W]+/", "_é a", Some("é a")),
        (r"/\s/", "\u{85}", None),
        (r"/\s/", "\u{FEFF}", Some("\u{FEFF}")),
        (r"/\S+/", " ab ", Some("ab")),
        (r"/\w/i", "ſ", None),
        (r"/\bfoo/", "éfoo", Some("foo")),
        (r"/\Bfoo/", "xfoo", Some("foo")),
        // With u, JavaScript's word characters under i include ſ and the Kelvin sign.
        (r"/\w+/iu", "ſ\u{212A}", Some("ſ\u{212A}")),
        (r"/\W/iu", "ſ-", Some("-")),
        (r"/a\b/iu", "aſ a", Some("a")),
        (r"/\w+/u", "ſk", Some("k")),
    ]);
}

#[test]
fn dollar_without_m_matches_only_at_the_very_end() {
    check_all(&[
        (r"/\d+$/", "/a/123\n", None),
        (r"/\d+(?=$)/", "/a/123\n", None),
        (r"/\d+$/m", "/a/123\n", Some("123")),
        (r"/^b$/m", "a\nb\nc", Some("b")),
        (r"/^b$/", "a\nb\nc", None),
    ]);
}

#[test]
fn dot_follows_javascript_line_terminators() {
    check_all(&[
        (r"/a.b/", "a\rb", None),
        (r"/a.b/", "a\u{2028}b", None),
        (r"/a.b/", "a-b", Some("a-b")),
        (r"/a.b/s", "a\nb", Some("a\nb")),
        (r"/a(?s:.)b/", "a\nb", Some("a\nb")),
        (r"/(?s:a(?-s:.)b)/", "a\nb", None),
    ]);
}

#[test]
fn sticky_flag_anchors_at_the_start() {
    check_all(&[
        (r"/\d+/y", "/p/42", None),
        (r"/\/p\/\d+/y", "/p/42", Some("/p/42")),
        (r"/b|\d+/y", "/p/42", None),
        (r"/\d+/g", "/p/42", Some("42")),
    ]);
}

#[test]
fn named_groups_and_backreferences() {
    check_all(&[
        (
            r"/(?<year>\d{4})-\k<year>/",
            "x 2024-2024",
            Some("2024-2024"),
        ),
        (
            r#"/(?<q>['"]).*?\k<q>/"#,
            r#"say "hi" now"#,
            Some(r#""hi""#),
        ),
        (r"/(a)\1/", "xaa", Some("aa")),
        (r"/(?<é_1>x)\k<é_1>/", "xx", Some("xx")),
    ]);
}

#[test]
fn javascript_only_class_forms() {
    check_all(&[
        (r"/a[^]b/", "a\nb", Some("a\nb")),
        (r"/a[]b/", "ab", None),
        (r"/[/]/", "/", Some("/")),
        (r"/[^]]+/", "x]]", Some("x]]")),
        (r"/[a-z&&b]+/", "&&", Some("&&")),
        (r"/[~~]/", "~", Some("~")),
        (r"/[[]/", "[", Some("[")),
        (r"/[+--]/", ",", Some(",")),
        (r"/[--a]/", "0", Some("0")),
        (r"/[a-]/", "-", Some("-")),
        (r"/[\d-z]/", "-", Some("-")),
        (r"/[\b]/", "\u{8}", Some("\u{8}")),
        (r"/[\101]/", "A", Some("A")),
    ]);
}

#[test]
fn escapes_are_translated() {
    check_all(&[
        (r"/\u0041\x42/", "AB", Some("AB")),
        (r"/\u{1F600}/", "😀", Some("😀")),
        (r"/\uD83D\uDE00/", "😀", Some("😀")),
        (r"/\cJ/", "\n", Some("\n")),
        (r"/\c1/", "\\c1", Some("\\c1")),
        (r"/\0/", "\0", Some("\0")),
        (r"/\e\h\K\G/", "ehKG", Some("ehKG")),
        (r"/\<\>/", "<>", Some("<>")),
        (r"/\-\.\//", "-./", Some("-./")),
        (r"/a&b~c#d/", "a&b~c#d", Some("a&b~c#d")),
        (r"/\p{L}/", "p{L}", Some("p{L}")),
        (r"/\p{L}+/u", "héllo", Some("héllo")),
    ]);
}

#[test]
fn braces_are_literal_unless_they_count() {
    check_all(&[
        (r"/a{/", "a{", Some("a{")),
        (r"/a{,2}/", "a{,2}", Some("a{,2}")),
        (r"/a}/", "a}", Some("a}")),
        (r"/a{2}/", "aaa", Some("aa")),
        (r"/a{2,}?/", "aaa", Some("aa")),
        (r"/\u{3}/", "\u{3}", Some("\u{3}")),
        (r"/\u{zz}/", "u{zz}", Some("u{zz}")),
    ]);
}

#[test]
fn translation_output() {
    let cases = [
        (r"\d+$", r"[0-9]+$"),
        (r"\W", r"(?-i:[^A-Za-z0-9_])"),
        (r"[^\/]+", r"[^/]+"),
        (r"[\D]", r"[[^0-9]]"),
        (r"(?<name>a)\k<name>", r"(?<name>a)\k<name>"),
        ("[^]", "(?s:.)"),
        ("[]", r"[^\x{0}-\x{10FFFF}]"),
        ("[+--]", r"[\+-\-]"),
    ];
    for (pattern, expected) in cases {
        assert_eq!(
            translate(pattern, Flags::default()).as_deref(),
            Ok(expected),
            "{pattern}"
        );
    }
}

#[test]
fn malformed_literals_are_rejected() {
    let cases = [
        ("/abc", JsRegexError::NotALiteral),
        ("abc", JsRegexError::NotALiteral),
        ("//", JsRegexError::NotALiteral),
        ("//i", JsRegexError::NotALiteral),
        (" /a/", JsRegexError::NotALiteral),
        ("/a/ ", JsRegexError::NotALiteral),
        (r"/a\/", JsRegexError::NotALiteral),
        ("/[a/", JsRegexError::NotALiteral),
        ("", JsRegexError::NotALiteral),
        ("/a/x", JsRegexError::UnknownFlag('x')),
        ("/a/I", JsRegexError::UnknownFlag('I')),
        ("/a/gig", JsRegexError::DuplicateFlag('g')),
        ("/a/ii", JsRegexError::DuplicateFlag('i')),
    ];
    for (literal, expected) in cases {
        assert_eq!(parse_error(literal), expected, "{literal}");
    }
}

#[test]
fn invalid_patterns_are_reported_on_one_line() {
    let cases = [
        "/(/",
        "/)/",
        "/a**/",
        "/a++/",
        "/*a/",
        "/(*FAIL)/",
        "/(?>a)/",
        "/(?x)a/",
        "/(?ii:a)/",
        "/[z-a]/",
        "/x{2,1}/",
        r"/\uD800/",
        r"/\u{110000}/",
        r"/\p{Bogus}/u",
        r"/\k<nope>/",
        r"/(a)\2/",
        "/(?<1a>x)/",
        "/(?<a-b>x)/",
        "/(?<>x)/",
        "/(?<$a>x)/",
        "/a/uv",
        r"/[\p{L}--[a-z]]/v",
        r"/[\p{L}&&\p{Lu}]/v",
        r"/[[a]]/v",
        r"/[\q{abc}]/v",
    ];
    for literal in cases {
        match parse_error(literal) {
            JsRegexError::Invalid { message } => {
                assert!(
                    !message.is_empty() && !message.contains('\n'),
                    "{literal}: {message:?}"
                );
            }
            other => panic!("{literal}: expected Invalid, got {other:?}"),
        }
    }
    let JsRegexError::Invalid { message } = parse_error("/[z-a]/") else {
        panic!("expected Invalid");
    };
    assert!(message.contains("range"), "{message}");
}

#[test]
fn accessors_return_the_text_as_written() {
    let regex = JsRegex::parse(r"/[^\/]+\/x/gi").expect("parses");
    assert_eq!(regex.as_literal(), r"/[^\/]+\/x/gi");
    assert_eq!(regex.pattern(), r"[^\/]+\/x");
    assert_eq!(regex.flags(), "gi");
    let lenient = JsRegex::parse("/a/b/").expect("an inner bare slash is literal");
    assert_eq!(lenient.pattern(), "a/b");
    assert_eq!(lenient.find("x/a/b"), Ok(Some("a/b")));
}

#[test]
fn backtracking_limit_is_reported_not_swallowed() {
    let regex = JsRegex::parse(r"/(a*)*\1b/").expect("parses");
    let haystack = "a".repeat(40);
    assert!(matches!(
        regex.find(&haystack),
        Err(JsRegexError::MatchFailed { .. })
    ));
    assert!(matches!(
        regex.is_match(&haystack),
        Err(JsRegexError::MatchFailed { .. })
    ));
}

#[test]
fn error_messages_read_well() {
    assert_eq!(
        JsRegexError::NotALiteral.to_string(),
        r"a regular expression is written between slashes, like /\d+$/"
    );
    assert_eq!(
        JsRegexError::UnknownFlag('x').to_string(),
        "unknown flag `x`; JavaScript flags are d, g, i, m, s, u, v, y"
    );
}
