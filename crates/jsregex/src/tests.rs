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
            JsRegexError::Invalid { message, .. } => {
                assert!(
                    !message.is_empty() && !message.contains('\n'),
                    "{literal}: {message:?}"
                );
            }
            other => panic!("{literal}: expected Invalid, got {other:?}"),
        }
    }
    let JsRegexError::Invalid { message, .. } = parse_error("/[z-a]/") else {
        panic!("expected Invalid");
    };
    assert!(message.contains("range"), "{message}");
}

/// Issue 28: a fault with one place says where it is in the literal, so a caret can point
/// at the `(` never closed rather than under the whole literal.
#[test]
fn errors_with_one_place_give_its_bytes_in_the_literal() {
    let cases = [
        (
            r"/(\d+$/",
            "(",
            "a group is opened with `(` but never closed",
        ),
        (
            "/a(b(c)/",
            "(",
            "a group is opened with `(` but never closed",
        ),
        ("/ab)/", ")", "`)` has no matching `(`"),
        ("/é*+/", "+", "nothing to repeat before `+`"),
        ("/*a/", "*", "nothing to repeat before `*`"),
        // The `/` inside the class does not end the literal: the class is the mistake.
        (
            "/[abc/",
            "[",
            "a character class is opened with `[` but never closed (a `/` inside it does not end the expression)",
        ),
        (
            "/x[abc/i/",
            "[",
            "a character class is opened with `[` but never closed (a `/` inside it does not end the expression)",
        ),
    ];
    for (literal, at, expected) in cases {
        let error = parse_error(literal);
        let span = error.span().unwrap_or_else(|| panic!("{literal}: no span"));
        assert_eq!(&literal[span], at, "{literal}");
        let JsRegexError::Invalid { message, .. } = error else {
            panic!("{literal}: expected Invalid");
        };
        assert_eq!(message, expected, "{literal}");
    }
    assert_eq!(parse_error("/abc").span(), None);
    assert_eq!(parse_error("/[a-/").span(), Some(1..2));
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

/// What a literal makes of a haystack, in JavaScript or here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome<'h> {
    /// The whole first match.
    Found(&'h str),
    NoMatch,
    /// The literal is not a valid regular expression.
    Rejected,
}

use Outcome::{Found, NoMatch, Rejected};

fn outcome<'h>(literal: &str, haystack: &'h str) -> Outcome<'h> {
    match JsRegex::parse(literal) {
        Err(_) => Rejected,
        Ok(regex) => match regex.find(haystack) {
            Ok(Some(found)) => Found(found),
            Ok(None) => NoMatch,
            Err(error) => panic!("{literal} on {haystack:?}: {error}"),
        },
    }
}

/// The same literal on the `regress` crate, an ECMAScript engine that was weighed as a
/// replacement (docs/dev/decisions.md); only its column of the table below uses it.
fn regress_outcome<'h>(literal: &str, haystack: &'h str) -> Outcome<'h> {
    let Ok((pattern, flags)) = split_literal(literal) else {
        return Rejected;
    };
    match regress::Regex::with_flags(pattern, flags) {
        Err(_) => Rejected,
        Ok(regex) => regex
            .find(haystack)
            .map_or(NoMatch, |m| Found(&haystack[m.range()])),
    }
}

/// (literal, haystack, JavaScript, this crate, regress), grouped by the differences the
/// module documentation lists. JavaScript's column is what node 20 gives; rows where this
/// crate agrees with JavaScript show the edge of a difference, or one of regress's own.
const ENGINES: &[(&str, &str, Outcome<'_>, Outcome<'_>, Outcome<'_>)] = &[
    // With `m`, `^` and `$` see only `\n` as a line end.
    (r"/^b$/m", "a\rb\rc", Found("b"), NoMatch, Found("b")),
    (
        r"/^b$/m",
        "a\u{2028}b\u{2029}c",
        Found("b"),
        NoMatch,
        Found("b"),
    ),
    (r"/a$/m", "a\r\nb", Found("a"), NoMatch, Found("a")),
    // With `i` and without `u`: Unicode folding of literals and ranges.
    (r"/k/i", "\u{212A}", NoMatch, Found("\u{212A}"), NoMatch),
    (r"/s/i", "ſ", NoMatch, Found("ſ"), Found("ſ")),
    (r"/[a-z]/i", "ſ", NoMatch, Found("ſ"), Found("ſ")),
    (r"/[^a-z]/i", "ſ", Found("ſ"), NoMatch, NoMatch),
    (r"/[\w]/i", "ſ", NoMatch, Found("ſ"), Found("ſ")),
    (
        r"/k/iu",
        "\u{212A}",
        Found("\u{212A}"),
        Found("\u{212A}"),
        Found("\u{212A}"),
    ),
    // ... while `\w`, `\W`, `\b` and `\B` standing alone are exact (regress folds them).
    (r"/\w/i", "ſ", NoMatch, NoMatch, Found("ſ")),
    (r"/\W/i", "ſ", Found("ſ"), Found("ſ"), NoMatch),
    (r"/a\b/i", "aſ", Found("a"), Found("a"), Found("a")),
    (r"/\w+/iu", "ſk", Found("ſk"), Found("ſk"), Found("ſk")),
    (r"/\W/iu", "ſ", NoMatch, NoMatch, NoMatch),
    (r"/a\b/iu", "aſ", NoMatch, NoMatch, NoMatch),
    (r"/a\B/iu", "a\u{212A}", Found("a"), Found("a"), Found("a")),
    // `\u{…}` is a code point even without `u`.
    (r"/\u{3}/", "uuu", Found("uuu"), NoMatch, NoMatch),
    (r"/\u{3}/", "\u{3}", NoMatch, Found("\u{3}"), Found("\u{3}")),
    (
        r"/\u{3}/u",
        "\u{3}",
        Found("\u{3}"),
        Found("\u{3}"),
        Found("\u{3}"),
    ),
    // A lone surrogate is an error.
    (r"/\uD800/", "x", NoMatch, Rejected, NoMatch),
    (r"/x|\uD800/", "x", Found("x"), Rejected, Found("x")),
    // Backreferences to groups that have not matched, or do not exist.
    (r"/\k<a>(?<a>x)/", "x", Found("x"), Rejected, Found("x")),
    (r"/(a)|\1b/", "b", Found("b"), NoMatch, Found("b")),
    (r"/\1(a)/", "a", Found("a"), NoMatch, Found("a")),
    (
        r"/\2(a)/",
        "\u{2}a",
        Found("\u{2}a"),
        Rejected,
        Found("\u{2}a"),
    ),
    (r"/\k<a>/", "k<a>", Found("k<a>"), Rejected, Found("k<a>")),
    // Identity escapes of letters under `u`/`v`.
    (r"/\e/", "e", Found("e"), Found("e"), Found("e")),
    (r"/\e/u", "e", Rejected, Found("e"), Rejected),
    (r"/\e/v", "e", Rejected, Found("e"), Found("e")),
    // Group names.
    (
        r"/(?<$a>x)\k<$a>/",
        "xx",
        Found("xx"),
        Rejected,
        Found("xx"),
    ),
    (r"/(?<a>x)(?<a>y)/", "xy", Rejected, Found("xy"), Rejected),
    // Without `u`, JavaScript reads UTF-16 code units; here a character is a code point.
    (r"/^.$/", "😀", NoMatch, Found("😀"), Found("😀")),
    (r"/^..$/", "😀", Found("😀"), NoMatch, NoMatch),
    (r"/^.$/u", "😀", Found("😀"), Found("😀"), Found("😀")),
    // The `v` flag's class set syntax is refused.
    (
        r"/[\p{L}--[a-z]]+/v",
        "abÉé",
        Found("Éé"),
        Rejected,
        Found("Éé"),
    ),
    (r"/[\q{abc}]/v", "abc", Found("abc"), Rejected, Found("abc")),
    (
        r"/[\p{L}&&\p{Lu}]/v",
        "aB",
        Found("B"),
        Rejected,
        Found("B"),
    ),
];

#[test]
fn documented_differences_from_javascript_and_regress() {
    let mut wrong = Vec::new();
    for &(literal, haystack, _javascript, here, regress) in ENGINES {
        let actual = (
            outcome(literal, haystack),
            regress_outcome(literal, haystack),
        );
        if actual != (here, regress) {
            wrong.push(format!(
                "{literal} on {haystack:?}: (here, regress) = {actual:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let differences = ENGINES.iter().filter(|row| row.2 != row.3).count();
    let regress_differences = ENGINES.iter().filter(|row| row.2 != row.4).count();
    assert_eq!((differences, regress_differences), (26, 11));
}

/// Patterns without look-around or backreferences run on the linear engine; the others
/// backtrack. Both find the same matches as before.
#[test]
fn lookaround_free_patterns_run_on_the_linear_engine() {
    for (literal, haystack, found) in [
        (r"/\d+$/", "/products/1234", Some("1234")),
        (r"/[a-z0-9-]+$/i", "/Events/Summer-1", Some("Summer-1")),
        (
            r"/^\/news\/(\d{4})\//y",
            "/news/2024/a",
            Some("/news/2024/"),
        ),
        (r"/[^/]+(?=\.html$)/", "/a/b.html", None),
    ] {
        let regex = JsRegex::parse(literal).expect(literal);
        let linear = !literal.contains("(?=");
        assert_eq!(regex.is_linear(), linear, "{literal}");
        if linear {
            assert_eq!(regex.find(haystack), Ok(found), "{literal}");
        }
    }
    for (literal, haystack, found) in [
        (
            r"/(?<=event-)[a-z0-9-]+$/",
            "/events/event-summer",
            Some("summer"),
        ),
        (r"/(?=.*x)(?=.*y)(?=.*z)/", "/zyx", Some("")),
        (r"/\bab/", "x ab", Some("ab")),
        (r"/(a)\1/", "xaa", Some("aa")),
    ] {
        let regex = JsRegex::parse(literal).expect(literal);
        assert!(!regex.is_linear(), "{literal}");
        assert_eq!(regex.find(haystack), Ok(found), "{literal}");
    }
}
