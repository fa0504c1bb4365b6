//! The body of the `jsregex` fuzz target (`fuzz/`), shared with the replay of its corpus
//! in the tests, so that the stable test suite checks every committed input. Not an
//! interface: hidden from the docs, may change with the fuzz target.

use crate::{JsRegex, JsRegexError};

/// `literal \0 haystack`: the literal translated and compiled, then matched. Properties:
/// - nothing panics, and matching ends (fancy-regex's backtrack limit, else an error);
/// - a literal that parses keeps its text, pattern and flags;
/// - `find` and `is_match` agree, and a match is a slice of the haystack;
/// - a pattern of letters and digits only matches exactly where the haystack contains it
///   (without `i`).
pub fn jsregex(data: &[u8]) {
    let (literal, haystack) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b""[..]),
    };
    let literal = String::from_utf8_lossy(literal);
    let haystack = String::from_utf8_lossy(haystack);
    let Ok(regex) = JsRegex::parse(&literal) else {
        return;
    };
    assert_eq!(regex.as_literal(), literal);
    assert_eq!(
        format!("/{}/{}", regex.pattern(), regex.flags()),
        literal.as_ref()
    );
    let found = regex.find(&haystack);
    let matched = regex.is_match(&haystack);
    match (&found, &matched) {
        (Ok(found), Ok(matched)) => {
            assert_eq!(found.is_some(), *matched, "find and is_match");
            if let Some(found) = found {
                let start = found.as_ptr() as usize - haystack.as_ptr() as usize;
                assert!(start + found.len() <= haystack.len());
            }
        }
        // Either may hit the backtrack limit where the other does not.
        (Err(JsRegexError::MatchFailed { .. }), _) | (_, Err(JsRegexError::MatchFailed { .. })) => {
        }
        (found, matched) => panic!("find gave {found:?}, is_match {matched:?}"),
    }
    let pattern = regex.pattern();
    if !pattern.is_empty()
        && pattern.bytes().all(|b| b.is_ascii_alphanumeric())
        && !regex.flags().contains('i')
        && !regex.flags().contains('y')
    {
        assert_eq!(
            matched.ok(),
            Some(haystack.contains(pattern)),
            "{literal} on {haystack:?}"
        );
    }
}
