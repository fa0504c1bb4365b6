//! Deal with several changes in events, batching them together.
//!
//! Preferably, changes should be kept to a minimum.
//! Sometimes, it’s needed to change the list of events, because parsing can be
//! messy, and it helps to expose a cleaner interface of events to the compiler
//! and other users.
//! It can also help to merge many adjacent similar events.
//! And, in other cases, it’s needed to parse subcontent: pass some events
//! through another tokenizer and inject the result.
//!
//! siteops: edits are kept in call order and grouped by place when consumed (a
//! stable sort), instead of being looked up in a list on every edit (quadratic
//! in the edits) or in an index (a tree node per edit).
//! The events are then rearranged in place, in the largest of the vectors
//! involved (the events, or added events such as a paragraph’s inline events),
//! so that a parse never holds its events twice (see `vendor/README.md`).

use crate::event::{Event, Kind, Name, Point};
use alloc::{vec, vec::Vec};
use core::convert::TryFrom;
use core::ops::Range;

/// Shift `previous` and `next` links according to `jumps`.
///
/// This fixes links in case there are events removed or added between them.
fn shift_links(events: &mut [Event], jumps: &[(usize, usize, usize)]) {
    let mut jump_index = 0;
    let mut index = 0;
    let mut add = 0;
    let mut rm = 0;

    while index < events.len() {
        let rm_curr = rm;

        while jump_index < jumps.len() && jumps[jump_index].0 <= index {
            add = jumps[jump_index].2;
            rm = jumps[jump_index].1;
            jump_index += 1;
        }

        // Ignore items that will be removed.
        if rm > rm_curr {
            index += rm - rm_curr;
        } else {
            if let Some(next) = events[index].link().and_then(|link| link.next) {
                events[next].set_link_previous(Some(index + add - rm));

                while jump_index < jumps.len() && jumps[jump_index].0 <= next {
                    add = jumps[jump_index].2;
                    rm = jumps[jump_index].1;
                    jump_index += 1;
                }

                events[index].set_link_next(Some(next + add - rm));
                index = next;
                continue;
            }

            index += 1;
        }
    }
}

/// One edit: at event `at`, remove `remove` events, and add `len` events of
/// buffer `buffer` from `start` on (in `u32`: a parse has far fewer events).
#[derive(Debug)]
struct Edit {
    at: u32,
    remove: u32,
    buffer: u32,
    start: u32,
    len: u32,
    /// Where the added events go in the result (known once consumed).
    to: u32,
    /// Whether the added events go before those added at `at` so far.
    before: bool,
}

/// Additions up to this size are copied into one buffer: most are one or two
/// events, and a buffer each would cost more than its events.
const SMALL: usize = 32;

/// Tracks a bunch of edits.
#[derive(Debug)]
pub struct EditMap {
    /// Record of changes, in call order.
    edits: Vec<Edit>,
    /// The events edits add: small additions together in the first, larger
    /// ones (and [shared][EditMap::share] ones) each in their own.
    buffers: Vec<Vec<Event>>,
}

impl EditMap {
    /// Create a new edit map.
    pub fn new() -> EditMap {
        EditMap {
            edits: vec![],
            buffers: vec![],
        }
    }
    /// Create an edit: a remove and/or add at a certain place.
    pub fn add(&mut self, index: usize, remove: usize, add: Vec<Event>) {
        add_impl(self, index, remove, add, false);
    }
    /// Create an edit: but insert `add` before existing additions.
    pub fn add_before(&mut self, index: usize, remove: usize, add: Vec<Event>) {
        add_impl(self, index, remove, add, true);
    }
    /// Keep `events` to add in parts with [`EditMap::add_part`], without
    /// copying them into one vector per part.
    pub fn share(&mut self, events: Vec<Event>) -> usize {
        self.buffer(events)
    }
    /// Create an edit: a remove and/or add of `part` of a [shared][EditMap::share]
    /// buffer, at a certain place.
    /// The parts of a buffer must keep their order: a later part of the
    /// buffer goes to a later place.
    pub fn add_part(&mut self, index: usize, remove: usize, buffer: usize, part: Range<usize>) {
        if remove == 0 && part.is_empty() {
            return;
        }
        self.edits.push(Edit {
            at: narrow(index),
            remove: narrow(remove),
            buffer: narrow(buffer),
            start: narrow(part.start),
            len: narrow(part.len()),
            to: 0,
            before: false,
        });
    }
    /// Done, change the events.
    pub fn consume(&mut self, events: &mut Vec<Event>) {
        if self.edits.is_empty() {
            self.buffers.clear();
            return;
        }

        // Edits at one place act as one: what they remove adds up, and what
        // they add is in call order, except that each added “before” goes in
        // front of all added so far (so: those, latest first, then the others
        // in call order).
        let edits = &mut self.edits;
        let mut order: Vec<u32> = (0..narrow(edits.len())).collect();
        order.sort_unstable_by_key(|&call| {
            let edit = &edits[call as usize];
            if edit.before {
                (edit.at, false, u32::MAX - call)
            } else {
                (edit.at, true, call)
            }
        });

        // Calculate jumps (where items in the current list move to) and where
        // each addition goes.
        let len_before = events.len();
        let mut jumps: Vec<(usize, usize, usize)> = vec![];
        let mut remove_acc = 0;
        let mut add_acc = 0;
        // Next event of `events` to keep.
        let mut kept_from = 0;
        let mut index = 0;
        while index < order.len() {
            let at = edits[order[index] as usize].at as usize;
            // As the published `split_off`s did: what is removed ends before
            // the next place, and within the events.
            assert!(
                at >= kept_from && at <= len_before,
                "`at` split index (is {}) should be <= len (is {})",
                at,
                len_before
            );
            let mut to = at + add_acc - remove_acc;
            let mut remove = 0;
            while index < order.len() && edits[order[index] as usize].at as usize == at {
                let edit = &mut edits[order[index] as usize];
                remove += edit.remove as usize;
                edit.to = narrow(to);
                to += edit.len as usize;
                index += 1;
            }
            add_acc = to + remove_acc - at;
            remove_acc += remove;
            jumps.push((at, remove_acc, add_acc));
            kept_from = at + remove;
            assert!(
                kept_from <= len_before,
                "`at` split index (is {}) should be <= len (is {})",
                kept_from,
                len_before
            );
        }

        shift_links(events, &jumps);

        let len_after = len_before + add_acc - remove_acc;
        rearrange(events, &mut self.buffers, edits, &order, &jumps, len_after);
        self.edits.clear();
        self.buffers.clear();
    }

    fn buffer(&mut self, events: Vec<Event>) -> usize {
        if self.buffers.is_empty() {
            // The buffer of small additions.
            self.buffers.push(vec![]);
        }
        self.buffers.push(events);
        self.buffers.len() - 1
    }
}

/// An index or size of events as stored in an [`Edit`].
fn narrow(value: usize) -> u32 {
    u32::try_from(value).expect("fewer than 2^32 events")
}

/// Create an edit.
fn add_impl(edit_map: &mut EditMap, at: usize, remove: usize, add: Vec<Event>, before: bool) {
    if remove == 0 && add.is_empty() {
        return;
    }

    let len = add.len();
    let (buffer, start) = if add.is_empty() {
        (0, 0)
    } else if len > SMALL {
        (edit_map.buffer(add), 0)
    } else {
        if edit_map.buffers.is_empty() {
            edit_map.buffers.push(vec![]);
        }
        let small = &mut edit_map.buffers[0];
        small.extend_from_slice(&add);
        (0, small.len() - len)
    };
    edit_map.edits.push(Edit {
        at: narrow(at),
        remove: narrow(remove),
        buffer: narrow(buffer),
        start: narrow(start),
        len: narrow(len),
        to: 0,
        before,
    });
}

/// An event to fill room with before the events that go there are moved in.
fn filler() -> Event {
    let point = Point {
        line: 1,
        column: 1,
        index: 0,
        vs: 0,
    };
    Event::new(Kind::Enter, Name::Data, point, None)
}

/// Where a run of events of the result comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Source {
    /// The events being edited.
    Events,
    /// A buffer of added events.
    Buffer(usize),
}

/// Puts the result together in `events`: the kept runs of `events` (between
/// the places of `jumps`) and the additions of `edits`, each at its `to`.
/// That happens in the largest of the vectors they come from (the events, or
/// a buffer such as a paragraph’s inline events), rearranged in place: its
/// own runs move (those that move towards the start first, from the start
/// on, then those that move towards the end, from the end on: none then
/// overwrites a run yet to move), then the others are copied in.
fn rearrange(
    events: &mut Vec<Event>,
    buffers: &mut [Vec<Event>],
    edits: &[Edit],
    order: &[u32],
    jumps: &[(usize, usize, usize)],
    len: usize,
) {
    let len_before = events.len();
    // The runs of `events` kept: from, to, where they go.
    let kept = |run: usize| -> (usize, usize, usize) {
        let (from, shift_add, shift_remove) = if run == 0 {
            (0, 0, 0)
        } else {
            let (at, remove_acc, add_acc) = jumps[run - 1];
            let removed_here = remove_acc - if run > 1 { jumps[run - 2].1 } else { 0 };
            (at + removed_here, add_acc, remove_acc)
        };
        let to = if run < jumps.len() {
            jumps[run].0
        } else {
            len_before
        };
        (from, to, from + shift_add - shift_remove)
    };
    let runs = jumps.len() + 1;

    let mut target = Source::Events;
    let mut largest = len_before;
    // Not the buffer of small additions: those are in call order, not in
    // their order in the result.
    for (index, buffer) in buffers.iter().enumerate().skip(1) {
        if buffer.len() > largest {
            target = Source::Buffer(index);
            largest = buffer.len();
        }
    }
    let mut result = match target {
        Source::Events => core::mem::take(events),
        Source::Buffer(index) => core::mem::take(&mut buffers[index]),
    };
    if result.len() < len {
        result.reserve_exact(len - result.len());
        result.resize(len, filler());
    }

    // Move the target’s own runs.
    match target {
        Source::Events => {
            for run in 0..runs {
                let (from, end, to) = kept(run);
                if to <= from && from < end {
                    result.copy_within(from..end, to);
                }
            }
            for run in (0..runs).rev() {
                let (from, end, to) = kept(run);
                if to > from && from < end {
                    result.copy_within(from..end, to);
                }
            }
        }
        Source::Buffer(buffer) => {
            let own = |call: &u32| {
                let edit = &edits[*call as usize];
                (edit.buffer as usize == buffer && edit.len > 0).then_some(edit)
            };
            for edit in order.iter().filter_map(own) {
                let (from, to) = (edit.start as usize, edit.to as usize);
                if to <= from {
                    result.copy_within(from..from + edit.len as usize, to);
                }
            }
            for edit in order.iter().rev().filter_map(own) {
                let (from, to) = (edit.start as usize, edit.to as usize);
                if to > from {
                    result.copy_within(from..from + edit.len as usize, to);
                }
            }
        }
    }
    result.truncate(len);

    // Copy the others in.
    if target != Source::Events {
        for run in 0..runs {
            let (from, end, to) = kept(run);
            result[to..to + end - from].copy_from_slice(&events[from..end]);
        }
        // Free the old events before the rest is copied.
        *events = vec![];
    }
    for edit in edits {
        let buffer = edit.buffer as usize;
        if edit.len > 0 && Source::Buffer(buffer) != target {
            let (from, to) = (edit.start as usize, edit.to as usize);
            let size = edit.len as usize;
            result[to..to + size].copy_from_slice(&buffers[buffer][from..from + size]);
        }
    }

    *events = result;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Link;
    use alloc::format;

    fn event(n: usize) -> Event {
        let point = Point {
            line: n,
            column: 1,
            index: n,
            vs: 0,
        };
        Event::new(Kind::Enter, Name::Data, point, None)
    }

    /// The edit map as published: every edit at one place merged into one
    /// entry as it is made, then the events split and appended.
    fn published(events: &mut Vec<Event>, edits: &[(usize, usize, Vec<Event>, bool)]) {
        let mut map: Vec<(usize, usize, Vec<Event>)> = vec![];
        for (at, remove, add, before) in edits {
            if *remove == 0 && add.is_empty() {
                continue;
            }
            if let Some(entry) = map.iter_mut().find(|entry| entry.0 == *at) {
                entry.1 += remove;
                if *before {
                    let mut add = add.clone();
                    add.append(&mut entry.2);
                    entry.2 = add;
                } else {
                    entry.2.extend(add.iter().cloned());
                }
            } else {
                map.push((*at, *remove, add.clone()));
            }
        }
        map.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut jumps = vec![];
        let mut add_acc = 0;
        let mut remove_acc = 0;
        for (at, remove, add) in &map {
            remove_acc += remove;
            add_acc += add.len();
            jumps.push((*at, remove_acc, add_acc));
        }
        shift_links(events, &jumps);
        let mut vecs = vec![];
        let mut index = map.len();
        while index > 0 {
            index -= 1;
            vecs.push(events.split_off(map[index].0 + map[index].1));
            vecs.push(map[index].2.split_off(0));
            events.truncate(map[index].0);
        }
        vecs.push(events.split_off(0));
        while let Some(mut slice) = vecs.pop() {
            events.append(&mut slice);
        }
    }

    /// Whether what each place removes ends before the next place.
    fn valid(edits: &[(usize, usize, Vec<Event>, bool)], len: usize) -> bool {
        let mut removed: Vec<(usize, usize)> = vec![];
        for (at, remove, add, _) in edits {
            if *remove == 0 && add.is_empty() {
                continue;
            }
            match removed.iter_mut().find(|entry| entry.0 == *at) {
                Some(entry) => entry.1 += remove,
                None => removed.push((*at, *remove)),
            }
        }
        removed.sort_unstable();
        let mut kept_from = 0;
        for (at, remove) in removed {
            if at < kept_from {
                return false;
            }
            kept_from = at + remove;
        }
        kept_from <= len
    }

    fn points(events: &[Event]) -> Vec<(usize, usize)> {
        events
            .iter()
            .map(|e| (e.point().index, e.point().line))
            .collect()
    }

    /// Random edits (several at one place, before and after, removals, one
    /// large addition) give what the published edit map gives.
    #[test]
    fn edits_in_place_equal_the_published_edit_map() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut random = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for round in 0..2000 {
            let len = random(40);
            let events: Vec<Event> = (0..len).map(event).collect();
            let mut edits = vec![];
            let mut fresh = 1000;
            for _ in 0..random(8) {
                let at = random(len + 1);
                let remove = if random(3) == 0 {
                    random(3).min(len - at)
                } else {
                    0
                };
                let size = if round % 7 == 0 && random(4) == 0 {
                    60 + random(40)
                } else {
                    random(4)
                };
                let add: Vec<Event> = (0..size)
                    .map(|_| {
                        fresh += 1;
                        event(fresh)
                    })
                    .collect();
                edits.push((at, remove, add, random(2) == 0));
            }
            // Removals that overlap the next place make both implementations
            // panic; keep those out.
            if !valid(&edits, len) {
                continue;
            }
            let mut expected = events.clone();
            published(&mut expected, &edits);

            let mut actual = events.clone();
            let mut map = EditMap::new();
            for (at, remove, add, before) in &edits {
                if *before {
                    map.add_before(*at, *remove, add.clone());
                } else {
                    map.add(*at, *remove, add.clone());
                }
            }
            map.consume(&mut actual);
            assert_eq!(
                points(&actual),
                points(&expected),
                "round {round}: {:?}",
                edits
                    .iter()
                    .map(|(at, rm, add, before)| format!(
                        "{at}-{rm}+{}{}",
                        add.len(),
                        if *before { "b" } else { "" }
                    ))
                    .collect::<Vec<_>>()
            );
        }
    }

    /// Parts of one shared buffer land where separate vectors would.
    #[test]
    fn parts_of_a_shared_buffer_equal_separate_additions() {
        let events: Vec<Event> = (0..10).map(event).collect();
        let added: Vec<Event> = (100..130).map(event).collect();
        let mut expected = events.clone();
        published(
            &mut expected,
            &[
                (2, 2, added[0..10].to_vec(), false),
                (6, 2, added[10..25].to_vec(), false),
                (9, 1, added[25..30].to_vec(), false),
            ],
        );
        let mut actual = events.clone();
        let mut map = EditMap::new();
        let buffer = map.share(added);
        map.add_part(9, 1, buffer, 25..30);
        map.add_part(6, 2, buffer, 10..25);
        map.add_part(2, 2, buffer, 0..10);
        map.consume(&mut actual);
        assert_eq!(points(&actual), points(&expected));
        assert_eq!(actual.len(), 10 - 5 + 30);
    }

    /// Links between kept events are shifted by what is added before them.
    #[test]
    fn links_follow_their_events() {
        let mut events: Vec<Event> = (0..6).map(event).collect();
        events[1].set_link(Some(Link {
            previous: None,
            next: Some(4),
            content: crate::event::Content::Text,
        }));
        events[4].set_link(Some(Link {
            previous: Some(1),
            next: None,
            content: crate::event::Content::Text,
        }));
        let mut map = EditMap::new();
        map.add(0, 0, vec![event(50), event(51)]);
        map.add(3, 1, vec![event(52), event(53), event(54)]);
        map.consume(&mut events);
        let linked: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| e.has_link())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(linked, vec![3, 8]);
        assert_eq!(events[3].link().unwrap().next, Some(8));
        assert_eq!(events[8].link().unwrap().previous, Some(3));
    }
}
