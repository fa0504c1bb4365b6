//! Behaviour beyond the specification suite: mustache.js's extensions and
//! quirks, JavaScript value semantics, error positions and robustness.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

use super::render::MAX_PARTIAL_DEPTH;
use super::*;
use crate::json::Json;

fn render(template: &str, data: Value) -> String {
    render_with(template, data, &[])
}

fn render_with(template: &str, data: Value, partials: &[(&str, &str)]) -> String {
    try_render(template, data, partials).unwrap_or_else(|e| panic!("{template:?}: {e}"))
}

fn try_render(
    template: &str,
    data: Value,
    partials: &[(&str, &str)],
) -> Result<String, TemplateError> {
    let partials: HashMap<String, String> = partials
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Template::compile(template)?.render_value(&data, &partials)
}

/// (message, line, column, partial) of the error `template` gives.
fn error_of(
    template: &str,
    data: Value,
    partials: &[(&str, &str)],
) -> (String, usize, usize, Option<String>) {
    let e = try_render(template, data, partials).expect_err(template);
    (e.message, e.line, e.column, e.partial)
}

fn err(message: &str, line: usize, column: usize) -> (String, usize, usize, Option<String>) {
    (message.to_owned(), line, column, None)
}

#[test]
fn escape_html_covers_the_eight_mustache_js_characters() {
    let mut out = String::from("kept:");
    escape_html("a&b<c>d\"e'f/g`h=i é😀", &mut out);
    assert_eq!(
        out,
        "kept:a&amp;b&lt;c&gt;d&quot;e&#39;f&#x2F;g&#x60;h&#x3D;i é😀"
    );
}

#[test]
fn variables_escape_and_triple_mustache_and_ampersand_do_not() {
    let data = json!({ "x": "<a href='/'>&`=\"</a>" });
    assert_eq!(
        render("{{x}}", data.clone()),
        "&lt;a href&#x3D;&#39;&#x2F;&#39;&gt;&amp;&#x60;&#x3D;&quot;&lt;&#x2F;a&gt;"
    );
    assert_eq!(render("{{{x}}}", data.clone()), "<a href='/'>&`=\"</a>");
    assert_eq!(render("{{& x }}", data.clone()), "<a href='/'>&`=\"</a>");
    assert_eq!(render("{{=<% %>=}}<%{x}%>", data), "<a href='/'>&`=\"</a>");
}

#[test]
fn numeric_segments_index_arrays_and_strings() {
    let data = json!({
        "values": [{ "valueName": "first" }, { "valueName": "second" }],
        "matrix": [[1, 2], [3, 4]],
        "word": "héllo",
        "keyed": { "0": "object key" },
    });
    assert_eq!(render("{{values.0.valueName}}", data.clone()), "first");
    assert_eq!(render("{{values.1.valueName}}", data.clone()), "second");
    assert_eq!(render("{{values.2.valueName}}", data.clone()), "");
    assert_eq!(render("{{matrix.1.0}}", data.clone()), "3");
    assert_eq!(render("{{word.1}}", data.clone()), "é");
    assert_eq!(render("{{keyed.0}}", data.clone()), "object key");
    // "01" is not an array index in JavaScript.
    assert_eq!(render("{{values.01.valueName}}", data.clone()), "");
    assert_eq!(
        render("{{#values.0}}{{valueName}}{{/values.0}}", data),
        "first"
    );
}

#[test]
fn length_of_lists_and_strings() {
    let data = json!({ "list": [1, 2, 3], "empty": [], "s": "a😀" });
    assert_eq!(render("{{list.length}}", data.clone()), "3");
    // UTF-16 units, as JavaScript counts.
    assert_eq!(render("{{s.length}}", data.clone()), "3");
    assert_eq!(
        render("{{#list.length}}some{{/list.length}}", data.clone()),
        "some"
    );
    assert_eq!(
        render("{{^empty.length}}none{{/empty.length}}", data.clone()),
        "none"
    );
    // An undotted `length` only finds a list's, not a string's.
    assert_eq!(
        render("{{#s}}[{{length}}]{{/s}}", json!({ "s": "abc" })),
        "[]"
    );
}

#[test]
fn dot_is_the_current_item() {
    assert_eq!(
        render(
            "{{#list}}({{.}}){{/list}}",
            json!({ "list": ["a", 1, true, null] })
        ),
        "(a)(1)(true)()"
    );
    assert_eq!(render("{{.}}", json!("root")), "root");
    assert_eq!(
        render("{{#o}}{{.}}{{/o}}", json!({ "o": { "k": 1 } })),
        "[object Object]"
    );
}

#[test]
fn truthiness_follows_javascript() {
    let cases = [
        (json!(null), false),
        (json!(false), false),
        (json!(0), false),
        (json!(-0.0), false),
        (json!(0.0), false),
        (json!(""), false),
        (json!([]), false),
        (json!(true), true),
        (json!(1), true),
        (json!(-1.5), true),
        (json!("0"), true),
        (json!("false"), true),
        (json!(" "), true),
        (json!({}), true),
        (json!([0]), true),
        (json!([false]), true),
    ];
    for (value, truthy) in cases {
        let data = json!({ "v": value });
        let section = render("{{#v}}T{{/v}}", data.clone());
        let inverted = render("{{^v}}F{{/v}}", data);
        let expected = if truthy { ("T", "") } else { ("", "F") };
        assert_eq!((section.as_str(), inverted.as_str()), expected, "{value}");
    }
    assert_eq!(
        render(
            "{{#missing}}T{{/missing}}{{^missing}}F{{/missing}}",
            json!({})
        ),
        "F"
    );
}

#[test]
fn sections_push_lists_objects_and_scalars_but_not_true() {
    let data = json!({ "t": true, "n": 7, "s": "str", "o": { "k": "v" }, "l": [1, 2] });
    assert_eq!(render("{{#t}}{{#o}}{{k}}{{/o}}{{/t}}", data.clone()), "v");
    // `true` keeps the enclosing context, so `.` is the root object.
    assert_eq!(render("{{#t}}{{.}}{{/t}}", data.clone()), "[object Object]");
    assert_eq!(render("{{#n}}{{.}}{{/n}}", data.clone()), "7");
    assert_eq!(render("{{#s}}{{.}}{{/s}}", data.clone()), "str");
    assert_eq!(render("{{#l}}{{.}}{{n}};{{/l}}", data), "17;27;");
}

#[test]
fn numbers_print_as_javascript_prints_them() {
    let cases = [
        ("0", "0"),
        ("-0", "0"),
        ("-0.0", "0"),
        ("3.0", "3"),
        ("1.5", "1.5"),
        ("-42", "-42"),
        ("0.1", "0.1"),
        ("0.000001", "0.000001"),
        ("0.0000001", "1e-7"),
        ("1.5e-7", "1.5e-7"),
        ("123e-20", "1.23e-18"),
        ("1e21", "1e+21"),
        ("1e20", "100000000000000000000"),
        ("-1.5e300", "-1.5e+300"),
        ("9007199254740993", "9007199254740992"),
        ("1152921504606846976", "1152921504606847000"),
        ("18446744073709551615", "18446744073709552000"),
        ("123456789012345678901", "123456789012345680000"),
        ("72090000178118.625", "72090000178118.62"),
        ("5e-324", "5e-324"),
        ("1.7976931348623157e308", "1.7976931348623157e+308"),
    ];
    for (json_text, expected) in cases {
        let value: Value = serde_json::from_str(json_text).expect(json_text);
        assert_eq!(
            render("{{n}}", json!({ "n": value })),
            expected,
            "{json_text}"
        );
    }
}

#[test]
fn arrays_and_objects_interpolate_like_javascript_string() {
    let data = json!({
        "flat": [1, "two", true, null, 2.5],
        "nested": [[1, 2], [], [[3]], { "k": 1 }],
        "empty": [],
        "object": { "k": "v" },
        "html": ["<a>", "b&c"],
    });
    assert_eq!(render("{{flat}}", data.clone()), "1,two,true,,2.5");
    assert_eq!(render("{{nested}}", data.clone()), "1,2,,3,[object Object]");
    assert_eq!(render("[{{empty}}]", data.clone()), "[]");
    assert_eq!(render("{{object}}", data.clone()), "[object Object]");
    assert_eq!(render("{{html}}", data.clone()), "&lt;a&gt;,b&amp;c");
    assert_eq!(render("{{{html}}}", data), "<a>,b&c");
}

#[test]
fn deeply_nested_arrays_print_without_recursion() {
    // Deeper than serde_json parses by default (128); much deeper and
    // serde_json's own recursive drop would be what overflows.
    let mut value = json!(1);
    for _ in 0..1_000 {
        value = Value::Array(vec![value]);
    }
    assert_eq!(render("{{v}}", json!({ "v": value })), "1");
}

#[test]
fn malformed_templates_report_the_offending_tag() {
    let cases = [
        (
            "line 1\n  {{#a}}\nbody",
            err("Unclosed section \"a\"", 2, 3),
        ),
        ("{{#a}}{{#b}}{{/b}}", err("Unclosed section \"a\"", 1, 1)),
        ("{{#a}}\n x {{/b}}", err("Unclosed section \"a\"", 2, 4)),
        ("ok\n{{/b}}", err("Unopened section \"b\"", 2, 1)),
        ("é {{name", err("Unclosed tag", 1, 3)),
        ("{{a}}\n\n  {{{name}}", err("Unclosed tag", 3, 3)),
        ("{{=<% %>=}}\n<%a", err("Unclosed tag", 2, 1)),
        (
            "{{=<% %>=}}\n{{a}}<%/a%>",
            err("Unopened section \"a\"", 2, 6),
        ),
        ("a\nb {{=<%=}}", err("Invalid tags: <%", 2, 3)),
        ("{{= =}}", err("Invalid tags: ", 1, 1)),
        ("{{=<% %>", err("Unclosed tag", 1, 1)),
    ];
    for (template, expected) in cases {
        assert_eq!(error_of(template, json!({}), &[]), expected, "{template:?}");
    }
}

#[test]
fn errors_display_with_line_and_column() {
    let e = Template::compile("x\n {{#a}}").expect_err("unclosed");
    assert_eq!(e.to_string(), "Unclosed section \"a\" at line 2, column 2");
}

#[test]
fn errors_inside_partials_name_the_partial() {
    let partials = [("p", "x\n{{#y}}")];
    let expected = (
        "Unclosed section \"y\"".to_owned(),
        2,
        1,
        Some("p".to_owned()),
    );
    assert_eq!(error_of("{{>p}}", json!({}), &partials), expected);
    // The column is within the partial as written, not as indented.
    assert_eq!(error_of("  {{>p}}\n", json!({}), &partials), expected);
    assert_eq!(
        error_of(
            "{{>p}}",
            json!({ "items": [null] }),
            &[("p", "\n {{#items}}{{n}}{{/items}}")]
        ),
        (
            "Cannot read properties of null (reading 'n')".to_owned(),
            2,
            12,
            Some("p".to_owned())
        )
    );
}

#[test]
fn null_list_elements_fail_as_in_mustache_js() {
    // mustache.js reads `view[name]` on a null element and throws.
    let template = "{{#items}}\n  {{name}}\n{{/items}}";
    assert_eq!(
        error_of(template, json!({ "items": [null] }), &[]),
        err("Cannot read properties of null (reading 'name')", 2, 3)
    );
    // `.` and dotted names do not read from the null element itself.
    assert_eq!(
        render(
            "{{#items}}[{{.}}{{a.b}}]{{/items}}",
            json!({ "items": [null] })
        ),
        "[]"
    );
}

#[test]
fn recursive_partials_stop_at_the_depth_limit() {
    let (message, line, column, partial) = error_of("x{{>p}}", json!({}), &[("p", "\n  {{>p}}")]);
    assert!(message.contains(&format!("nested more than {MAX_PARTIAL_DEPTH} deep")));
    assert_eq!((line, column, partial.as_deref()), (2, 3, Some("p")));

    // Recursion that the data ends renders fine, close to the limit. (The
    // leaf needs its own `child`, or the lookup would find its parent's.)
    let mut tree = json!({ "name": "leaf", "child": null });
    for i in 0..MAX_PARTIAL_DEPTH - 1 {
        tree = json!({ "name": i, "child": tree });
    }
    let node = [("node", "{{name}}{{#child}}<{{>node}}>{{/child}}")];
    let out = render_with("{{>node}}", tree, &node);
    assert!(out.starts_with("98<97<") && out.contains("<leaf>"), "{out}");
}

#[test]
fn deeply_nested_sections_render_without_recursion() {
    let depth = 20_000;
    let template = format!("{}x{}", "{{#a}}".repeat(depth), "{{/a}}".repeat(depth));
    assert_eq!(render(&template, json!({ "a": [1] })), "x");
}

#[test]
fn partial_sources() {
    let template = Template::compile("[{{>p}}]").expect("compiles");
    let data = json!({ "v": 1 });
    let mut btree = BTreeMap::new();
    btree.insert("p".to_owned(), "{{v}}".to_owned());
    assert_eq!(template.render_value(&data, &btree), Ok("[1]".to_owned()));
    assert_eq!(
        template.render_value(&data, &NoPartials),
        Ok("[]".to_owned())
    );
}

#[test]
fn render_to_appends_and_leaves_the_buffer_alone_on_error() {
    let template = Template::compile("{{#l}}{{n}}{{/l}}").expect("compiles");
    let mut out = String::from("start:");
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    let good = Json::parse(br#"{ "l": [{ "n": 1 }, { "n": 2 }] }"#, &mut good).unwrap();
    let bad = Json::parse(br#"{ "l": [{ "n": 3 }, null] }"#, &mut bad).unwrap();
    template
        .render_to(good.root(), &NoPartials, &mut out)
        .expect("renders");
    assert_eq!(out, "start:12");
    let failed = template.render_to(bad.root(), &NoPartials, &mut out);
    assert!(failed.is_err());
    assert_eq!(out, "start:12");
}

#[test]
fn templates_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Template>();
    assert_send_sync::<TemplateError>();
}

/// Partial names and their sources.
type Partials = &'static [(&'static str, &'static str)];

/// Outputs recorded from mustache.js 4.2.0 under Node 20 for inputs where
/// mustache.js is subtle or departs from the specification.
#[test]
fn matches_recorded_mustache_js_outputs() {
    let cases: [(&str, Value, Partials, &str); 19] = [
        (
            "{{#a}}{{b.c}}{{/a}}",
            json!({ "a": { "b": {} }, "b": { "c": "ERROR" } }),
            &[],
            "ERROR",
        ),
        (
            "{{#a}}{{b}}{{/a}}",
            json!({ "a": { "b": null }, "b": "outer" }),
            &[],
            "",
        ),
        (
            "{{values.0.valueName}}/{{values.length}}/{{name.length}}/{{name.1}}",
            json!({ "values": [{ "valueName": "v0" }], "name": "héllo" }),
            &[],
            "v0/1/5/é",
        ),
        (
            "{{#m}}[{{length}}:{{0}}]{{/m}}",
            json!({ "m": [[1, 2], ["x"]] }),
            &[],
            "[2:1][1:x]",
        ),
        (
            "{{a}}|{{{b}}}|{{c}}|{{d}}",
            json!({ "a": [1, [2, [3]], null, true, "<x>"], "b": { "k": 1 }, "c": [], "d": [[], []] }),
            &[],
            "1,2,3,,true,&lt;x&gt;|[object Object]||,",
        ),
        (
            "{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}}",
            serde_json::from_str(
                r#"{"a":3.0,"b":1e21,"c":123456789012345678901,"d":0.000001,"e":1.5e-7,"f":-0.0,"g":72090000178118.625}"#,
            )
            .expect("json"),
            &[],
            "3 1e+21 123456789012345680000 0.000001 1.5e-7 0 72090000178118.62",
        ),
        (
            "{{#t}}{{.}}{{/t}}|{{#n}}{{.}}{{/n}}|{{#s}}{{.}}{{/s}}",
            json!({ "t": true, "n": 7, "s": "str" }),
            &[],
            "[object Object]|7|str",
        ),
        (
            "{{#e}}x{{/e}}{{^e}}empty{{/e}}|{{#o}}obj{{/o}}{{^o}}no{{/o}}|{{^z}}zero{{/z}}|{{^s}}blank{{/s}}",
            json!({ "e": [], "o": {}, "z": 0, "s": "" }),
            &[],
            "empty|obj|zero|blank",
        ),
        ("ab{{>p}}", json!({}), &[("p", "x\ny\n")], "abx\n  y\n"),
        ("  {{>p}} z\n", json!({}), &[("p", "x\ny\n")], "    x\n  y\n z\n"),
        (
            "\t{{#a}}\n  {{>p}}\n\t{{/a}}\n",
            json!({ "a": true }),
            &[("p", "1\n  {{>q}}\n2\n")],
            "  1\n  2\n",
        ),
        (
            "{{.a}}|{{a.}}|{{}}",
            json!({ ".a": 1, "a": { "": 2 }, "": 3 }),
            &[],
            "1|2|3",
        ),
        (
            "{{=<% %> ignored=}}<%a%> <%={{ }}=%>{{a}}",
            json!({ "a": "A" }),
            &[],
            "A A",
        ),
        (
            "{{ # a }}in{{/a}}|{{{ a }}}|{{& a}}",
            json!({ "a": "<&>" }),
            &[],
            "in|<&>|<&>",
        ),
        (
            "{{! multi\nline }}\n{{#a}}\r\n  x\r\n{{/a}}\r\nend",
            json!({ "a": 1 }),
            &[],
            "  x\r\nend",
        ),
        (
            "{{#list}}{{#.}}{{.}}{{/.}};{{/list}}",
            json!({ "list": [[1, 2], 0, "", [], "s"] }),
            &[],
            "12;;;;s;",
        ),
        ("😀{{>p}}", json!({}), &[("p", "x\ny")], "😀x\n  y"),
        (
            "{{=é 😀=}}é a 😀|é{a}😀😀|é#s😀[é.😀]é/s😀",
            json!({ "a": "<A>", "s": ["x", "y"] }),
            &[],
            "&lt;A&gt;|<A>😀|[x][y]",
        ),
        (
            "{{#a.b}}{{c}}{{/a.b}}",
            json!({ "a": { "b": [{ "c": 1 }, { "c": 2 }] }, "c": "outer" }),
            &[],
            "12",
        ),
    ];
    for (template, data, partials, expected) in cases {
        assert_eq!(
            render_with(template, data, partials),
            expected,
            "{template:?}"
        );
    }
}

/// Compiles and renders many generated templates, some malformed, to show
/// that no input makes the engine panic.
#[test]
fn arbitrary_input_never_panics() {
    const PIECES: &[&str] = &[
        "{{",
        "}}",
        "{{{",
        "}}}",
        "{",
        "}",
        "#",
        "^",
        "/",
        ">",
        "&",
        "=",
        "!",
        ".",
        "a",
        "b",
        "a.b",
        "0",
        " ",
        "\n",
        "\r\n",
        "\t",
        "é",
        "😀",
        "\u{a0}",
        "<%",
        "%>",
        "{{=<% %>=}}",
        "{{#a}}",
        "{{/a}}",
        "{{^b}}",
        "{{/b}}",
        "{{>p}}",
        "{{.}}",
        "{{a.0}}",
        "{{=é 😀=}}",
    ];
    let data = json!({ "a": [{ "b": "x" }, 1, "s", [null]], "b": { "0": null } });
    let partials = [("p", "  {{#a}}{{>p}}{{/a}}\n{{b"), ("q", "{{=| |=}}|a|")];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..5_000 {
        let mut template = String::new();
        for _ in 0..(seed % 12) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            template.push_str(PIECES[(seed % PIECES.len() as u64) as usize]);
        }
        let _ = try_render(&template, data.clone(), &partials);
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    }
}

/// A limited render gives the whole output when it fits, and otherwise stops with
/// `TooLarge` at any limit short of it: text, escaped and raw values, numbers, joined
/// lists, partials, and values whose escaping (not their raw length) passes the limit.
#[test]
fn a_limited_render_stops_before_passing_its_limit() {
    let data = json!({"a": "x<y>&'\"", "raw": "<b>", "n": 1234.5, "list": [1, [2, "3/"], null], "many": [{"t": "ab"}, {"t": "cd"}]});
    let partials: HashMap<String, String> = [("p".to_string(), "[{{a}}]".to_string())].into();
    let text = data.to_string();
    let mut buffer = Vec::new();
    let document = Json::parse(text.as_bytes(), &mut buffer).expect("JSON");
    let template = Template::compile(
        "head {{a}} {{{raw}}} {{n}} {{list}} {{#many}}<{{t}}>{{/many}} {{>p}} {{&a}} tail",
    )
    .expect("compiles");
    let whole = template
        .render(document.root(), &partials)
        .expect("renders");
    assert_eq!(
        template.render_limited(document.root(), &partials, whole.len()),
        Ok(whole.clone())
    );
    for limit in 0..whole.len() {
        assert_eq!(
            template.render_limited(document.root(), &partials, limit),
            Err(RenderError::TooLarge { limit }),
            "{limit}"
        );
    }
    // `render_limited_to` counts what `out` held and leaves it as it was on error.
    let mut out = "kept".to_string();
    let limited = template.render_limited_to(document.root(), &partials, &mut out, whole.len());
    assert_eq!(limited, Err(RenderError::TooLarge { limit: whole.len() }));
    assert_eq!(out, "kept");
    // A template error is still one.
    let null = Template::compile("{{#l}}{{x}}{{/l}}").expect("compiles");
    let mut second = Vec::new();
    let data = Json::parse(br#"{"l": [null]}"#, &mut second).expect("JSON");
    assert!(matches!(
        null.render_limited(data.root(), &NoPartials, 100),
        Err(RenderError::Template(_))
    ));
}

/// Issue 44: a recording render lists each tag that ran with whether its name was ever
/// found, at the tag's line and column, and renders exactly what a normal render does.
#[test]
fn recording_renders_list_names_found_nowhere() {
    let source = "<h1>{{nmae}}</h1>\n{{#items}}<li>{{label}} {{{raw}}}</li>{{/items}}\n{{^gone}}x{{/gone}}{{#off}}{{never}}{{/off}}{{&a.b}} {{z}} {{.}}";
    let template = Template::compile(source).expect("compiles");
    let text = br#"{"items": [{"label": "one"}, {"label": "two", "raw": "<b>"}], "a": {"b": null}, "off": false}"#;
    let mut buffer = Vec::new();
    let data = Json::parse(text, &mut buffer).expect("JSON");
    let (rendered, lookups) = template.render_recording(data.root(), &NoPartials, usize::MAX);
    assert_eq!(
        rendered,
        Ok(template.render(data.root(), &NoPartials).expect("renders"))
    );
    let seen: Vec<(String, usize, usize, bool, bool)> = lookups
        .into_iter()
        .map(|l| (l.name, l.line, l.column, l.section, l.found))
        .collect();
    let row =
        |name: &str, line, column, section, found| (name.to_string(), line, column, section, found);
    assert_eq!(
        seen,
        [
            row("nmae", 1, 5, false, false),
            row("items", 2, 1, true, true),
            row("label", 2, 15, false, true),
            // Missing from the first item, found in the second: found.
            row("raw", 2, 25, false, true),
            row("off", 3, 20, true, true),
            row("a.b", 3, 45, false, true),
            row("z", 3, 54, false, false),
            row(".", 3, 60, false, true),
        ]
    );
}
