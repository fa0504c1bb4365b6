//! Which hosts a set of stubs stands in for, for `siteops serve`, where mocks answer the
//! requests to the hosts they mock and the network the rest.
//!
//! WireMock's URL matchers (`url`, `urlPath`, `urlPattern`, `urlPathPattern`,
//! `urlPathTemplate`) see the path and query only: a stub names its host through its
//! `host` matcher. A host is *named* when that matcher can only pass for known names:
//! `equalTo` (any case: URL hosts are lower case), `matches` with a regex that is a
//! plain name (`media\.acme\.example`), `or` of named ones, `and` with a named one. Any
//! other stub (no `host` matcher, `contains`, a real pattern, `not`…) is *open*: its host
//! cannot be listed, so it answers whatever it matches on any host, and makes no host
//! mocked by itself.

use std::collections::BTreeSet;

use super::{MockSet, StringMatch};

/// The hosts a [`MockSet`] names, and the stubs whose host cannot be named.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MockedHosts {
    /// Host names (lower case, without port) some stub's `host` matcher names.
    pub named: BTreeSet<String>,
    /// Stubs that may match any host: `name (file)`, in the order they are tried.
    pub open: Vec<String>,
}

impl MockedHosts {
    /// Whether requests to `host` (a URL's host) are the mocks' to answer.
    pub fn covers(&self, host: &str) -> bool {
        self.named.contains(&host.to_ascii_lowercase())
    }
}

impl MockSet {
    /// The hosts these stubs stand in for ([`MockedHosts`]).
    pub fn hosts(&self) -> MockedHosts {
        let mut hosts = MockedHosts::default();
        for stub in self.stubs() {
            match stub.request.host.as_ref().map(named) {
                Some(Some(names)) => hosts.named.extend(names),
                _ => hosts.open.push(format!("{} ({})", stub.name, stub.file)),
            }
        }
        hosts
    }
}

/// The only hosts `matcher` passes, when they can be listed.
fn named(matcher: &StringMatch) -> Option<BTreeSet<String>> {
    match matcher {
        StringMatch::EqualTo { value, .. } => Some(BTreeSet::from([value.to_ascii_lowercase()])),
        StringMatch::Matches(regex) => literal(regex.as_str()).map(|name| BTreeSet::from([name])),
        // A request always has a host: the stub matches none.
        StringMatch::Absent => Some(BTreeSet::new()),
        StringMatch::Or(matchers) => {
            matchers
                .iter()
                .map(named)
                .try_fold(BTreeSet::new(), |mut all, names| {
                    all.extend(names?);
                    Some(all)
                })
        }
        // Each named conjunct narrows what passes; the others only narrow it further.
        StringMatch::And(matchers) => matchers
            .iter()
            .filter_map(named)
            .reduce(|a, b| a.intersection(&b).cloned().collect()),
        _ => None,
    }
}

/// The name a `matches` regex stands for when it is a plain name (`^(?:…)$` as parsed,
/// dots escaped): `media\.acme\.example`, optionally anchored itself.
fn literal(regex: &str) -> Option<String> {
    let inner = regex.strip_prefix("^(?:")?.strip_suffix(")$")?;
    let inner = inner.strip_prefix('^').unwrap_or(inner);
    let inner = match inner.strip_suffix('$') {
        Some(rest) if !rest.ends_with('\\') => rest,
        _ => inner,
    };
    let mut name = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped) if !escaped.is_ascii_alphanumeric() => name.push(escaped),
                _ => return None,
            },
            '.' | '^' | '$' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}' => {
                return None;
            }
            c => name.push(c),
        }
    }
    (!name.is_empty()).then(|| name.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MockFile;

    fn hosts(stubs: &str) -> MockedHosts {
        MockSet::from_files(
            "mocks",
            &[MockFile {
                path: "mappings/a.json".into(),
                content: stubs.as_bytes().to_vec(),
            }],
        )
        .unwrap_or_else(|e| panic!("{e:?}"))
        .hosts()
    }

    #[test]
    fn named_hosts_and_open_stubs() {
        let found = hosts(
            r#"{"mappings": [
            {"name": "equal", "request": {"host": {"equalTo": "API.acme.example"}, "url": "/a"}, "response": {}},
            {"name": "literal", "request": {"host": {"matches": "^media\\.acme\\.example$"}, "urlPathPattern": "/.*"}, "response": {}},
            {"name": "either", "request": {"host": {"or": [{"equalTo": "a.test"}, {"matches": "b\\.test"}]}}, "response": {}},
            {"name": "narrowed", "request": {"host": {"and": [{"equalTo": "c.test"}, {"contains": "c"}]}}, "response": {}},
            {"name": "never", "request": {"host": {"absent": true}}, "response": {}},
            {"name": "pattern", "request": {"host": {"matches": ".*\\.cdn\\.example"}}, "response": {}},
            {"name": "half", "request": {"host": {"or": [{"equalTo": "d.test"}, {"contains": "e"}]}}, "response": {}},
            {"name": "any", "request": {"urlPath": "/x"}, "response": {}}
        ]}"#,
        );
        assert_eq!(
            found.named.iter().map(String::as_str).collect::<Vec<_>>(),
            [
                "a.test",
                "api.acme.example",
                "b.test",
                "c.test",
                "media.acme.example"
            ]
        );
        // In the order they are tried: the last stub of a file first.
        assert_eq!(
            found.open,
            [
                "any (mocks/mappings/a.json)",
                "half (mocks/mappings/a.json)",
                "pattern (mocks/mappings/a.json)"
            ]
        );
        assert!(found.covers("API.ACME.example"));
        assert!(!found.covers("d.test"));
    }

    #[test]
    fn only_plain_names_are_literal() {
        for (regex, name) in [
            ("^(?:a\\.b)$", Some("a.b")),
            ("^(?:^a\\-b\\.c$)$", Some("a-b.c")),
            ("^(?:a.b)$", None),
            ("^(?:a|b)$", None),
            ("^(?:a\\d)$", None),
            ("^(?:)$", None),
        ] {
            assert_eq!(literal(regex).as_deref(), name, "{regex}");
        }
    }
}
