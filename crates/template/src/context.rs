//! The context stack and name resolution, replicating mustache.js's
//! `Context.lookup`.

use super::node::{Key, Path};
use super::value::Item;

/// The values pushed by the enclosing sections, innermost last. Holds
/// borrowed views of the data, so pushing and looking up never allocate.
pub(crate) struct Context<'d> {
    frames: Vec<Item<'d>>,
}

/// mustache.js reads `view[name]` on every frame it searches; on a `null`
/// frame (a null list element) JavaScript throws, and so do we.
#[derive(Debug)]
pub(crate) struct NullFrame<'p>(pub &'p str);

impl<'d> Context<'d> {
    pub(crate) fn new(root: Item<'d>) -> Self {
        Self { frames: vec![root] }
    }

    pub(crate) fn push(&mut self, item: Item<'d>) {
        self.frames.push(item);
    }

    pub(crate) fn pop(&mut self) {
        self.frames.pop();
    }

    /// Swaps the innermost frame, for moving to the next list element.
    pub(crate) fn replace_top(&mut self, item: Item<'d>) {
        if let Some(top) = self.frames.last_mut() {
            *top = item;
        }
    }

    /// Resolves `path`; a name found nowhere is `Null` (`undefined`).
    pub(crate) fn lookup<'p>(&self, path: &'p Path) -> Result<Item<'d>, NullFrame<'p>> {
        match path {
            Path::Current => Ok(self.frames.last().copied().unwrap_or(Item::Null)),
            Path::Name(key) => self.lookup_name(key),
            Path::Dotted(keys) => Ok(self.lookup_dotted(keys)),
        }
    }

    /// Whether `path` names something in the data, even `null`: what a render that
    /// records its lookups ([`crate::Template::render_recording`]) asks when one gave
    /// nothing. Off the normal render's path.
    pub(crate) fn finds(&self, path: &Path) -> bool {
        match path {
            Path::Current => true,
            Path::Name(key) => self
                .frames
                .iter()
                .rev()
                .take_while(|frame| !matches!(frame, Item::Null))
                .any(|&frame| frame.is_object() && frame.get(key).is_some()),
            Path::Dotted(keys) => self.frames.iter().rev().any(|&f| walk(f, keys).is_some()),
        }
    }

    /// A plain name is found in the innermost frame that is an array or
    /// object holding it, even when its value there is null.
    fn lookup_name<'p>(&self, key: &'p Key) -> Result<Item<'d>, NullFrame<'p>> {
        for &frame in self.frames.iter().rev() {
            if let Item::Null = frame {
                return Err(NullFrame(&key.name));
            }
            if frame.is_object()
                && let Some(found) = frame.get(key)
            {
                return Ok(found);
            }
        }
        Ok(Item::Null)
    }

    /// A dotted name is tried as a whole chain on each frame, innermost
    /// first, and taken from the first frame where the chain's last
    /// property exists. So `{{#a}}{{b.c}}{{/a}}` with an `a.b` lacking `c`
    /// goes on to an outer `b.c`: the one place where mustache.js departs
    /// from the specification (which stops at the first frame having `b`).
    fn lookup_dotted(&self, keys: &[Key]) -> Item<'d> {
        self.frames
            .iter()
            .rev()
            .find_map(|&frame| walk(frame, keys))
            .unwrap_or(Item::Null)
    }
}

/// Follows `keys` from `frame`; `None` when the chain breaks (a missing or
/// null step) or its last property does not exist.
fn walk<'d>(frame: Item<'d>, keys: &[Key]) -> Option<Item<'d>> {
    keys.iter().try_fold(frame, |current, key| match current {
        Item::Null => None,
        _ => current.get(key),
    })
}
