//! Compiled templates and entry regexes, shared by every render, keyed by their source
//! text. A template is read from the code store on each request (so a code sync shows at
//! once) but compiled only when its text is new; a regex literal is compiled once.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use siteops_jsregex::{JsRegex, JsRegexError};
use siteops_template::{Template, TemplateError};

/// Distinct sources kept per kind. Past this the cache starts over: configurations hold
/// few templates and regexes, and a bound keeps a stream of changing templates from
/// growing memory without end.
const CAPACITY: usize = 256;

#[derive(Default)]
pub struct WorkerCache {
    templates: Bounded<Box<str>, Template>,
    regexes: Bounded<Box<str>, JsRegex>,
}

impl WorkerCache {
    pub fn template(&self, source: &str) -> Result<Arc<Template>, TemplateError> {
        self.templates
            .get_or_try(source, || Template::compile(source))
    }

    pub fn regex(&self, literal: &str) -> Result<Arc<JsRegex>, JsRegexError> {
        self.regexes.get_or_try(literal, || JsRegex::parse(literal))
    }
}

struct Bounded<K, V> {
    map: Mutex<HashMap<K, Arc<V>>>,
}

impl<K, V> Default for Bounded<K, V> {
    fn default() -> Self {
        Self {
            map: Mutex::new(HashMap::new()),
        }
    }
}

impl<V> Bounded<Box<str>, V> {
    /// The value for `key`, built by `build` (outside the lock) when absent. Failures are
    /// not cached: they are rare, and the next request reports them again.
    fn get_or_try<E>(&self, key: &str, build: impl FnOnce() -> Result<V, E>) -> Result<Arc<V>, E> {
        if let Some(found) = lock(&self.map).get(key) {
            return Ok(found.clone());
        }
        let built = Arc::new(build()?);
        let mut map = lock(&self.map);
        if map.len() >= CAPACITY {
            map.clear();
        }
        map.insert(key.into(), built.clone());
        Ok(built)
    }
}

/// The map even if a thread panicked while holding it: entries are inserted whole, so it
/// is never half-updated.
fn lock<K: Eq + Hash, V>(map: &Mutex<HashMap<K, V>>) -> std::sync::MutexGuard<'_, HashMap<K, V>> {
    map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_source_is_compiled_once() {
        let cache = WorkerCache::default();
        let a = cache.template("<p>{{x}}</p>").unwrap();
        let b = cache.template("<p>{{x}}</p>").unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let c = cache.template("<p>{{y}}</p>").unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert!(cache.template("{{#open}}").is_err());
        let r = cache.regex("/\\d+$/").unwrap();
        assert!(Arc::ptr_eq(&r, &cache.regex("/\\d+$/").unwrap()));
    }

    #[test]
    fn the_cache_is_bounded() {
        let cache = WorkerCache::default();
        let first = cache.template("0").unwrap();
        for i in 1..=CAPACITY {
            cache.template(&i.to_string()).unwrap();
        }
        assert!(!Arc::ptr_eq(&first, &cache.template("0").unwrap()));
    }
}
