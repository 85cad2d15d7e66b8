//! The buffers a line's facts leave behind, kept for the next line read on
//! the same thread: a decision reads a line into a vector of segments, a
//! vector of words per segment and a vector of runs, and a server or a
//! binding answers line after line. Taking an emptied vector back costs
//! less than an allocation and its free (callgrind: the allocator's
//! calls were ~350 instructions of an answer). Only memory moves here:
//! what a vector holds is dropped before the vector is kept.

use crate::facts::RunData;
use crate::reader::Segment;
use std::borrow::Cow;
use std::cell::RefCell;

/// At most this many word vectors are kept (a line of more segments
/// allocates the rest), and none longer than [`LONGEST`].
const KEPT_WORDS: usize = 16;

/// The longest vector kept: a line of many words or segments does not
/// pin its memory to the thread.
const LONGEST: usize = 64;

struct Spare {
    segments: Vec<Segment<'static>>,
    words: Vec<Vec<Cow<'static, str>>>,
    runs: Vec<RunData<'static>>,
}

thread_local! {
    static SPARE: RefCell<Spare> = const {
        RefCell::new(Spare {
            segments: Vec::new(),
            words: Vec::new(),
            runs: Vec::new(),
        })
    };
}

/// `v` emptied, as a vector of the same items borrowing nothing: the
/// items are dropped, the allocation is reused in place (no item is left
/// to map).
fn emptied<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().map(|_| unreachable!("emptied")).collect()
}

/// An empty vector for a line's segments.
pub(crate) fn segments<'a>() -> Vec<Segment<'a>> {
    let kept = SPARE.with_borrow_mut(|s| std::mem::take(&mut s.segments));
    if kept.capacity() == 0 {
        Vec::with_capacity(4)
    } else {
        kept
    }
}

/// An empty vector for a segment's words.
pub(crate) fn words<'a>() -> Vec<Cow<'a, str>> {
    SPARE
        .with_borrow_mut(|s| s.words.pop())
        .unwrap_or_else(|| Vec::with_capacity(4))
}

/// An empty vector for the runs of a line of `segments` segments.
pub(crate) fn runs<'a>(segments: usize) -> Vec<RunData<'a>> {
    let mut kept: Vec<RunData<'a>> = SPARE.with_borrow_mut(|s| std::mem::take(&mut s.runs));
    kept.reserve(segments);
    kept
}

/// Keeps the vectors of a line read (its segments, their words) and of
/// its runs for the next line; what they hold is dropped.
///
/// One pass over the segments, each taken apart where it stands: its
/// words' vector is kept, its other parts dropped (an unallocated
/// redirection vector, most segments', is forgotten: its drop was a call
/// that freed nothing), and the emptied segment vector is kept without a
/// second walk dropping what is left of each segment.
pub(crate) fn keep(segments: &mut Vec<Segment<'_>>, runs: &mut Vec<RunData<'_>>) {
    SPARE.with_borrow_mut(|s| {
        for seg in segments.drain(..) {
            let Segment {
                words, redirects, ..
            } = seg;
            if s.words.len() < KEPT_WORDS && (1..=LONGEST).contains(&words.capacity()) {
                s.words.push(emptied(words));
            }
            if redirects.capacity() == 0 {
                std::mem::forget(redirects);
            }
        }
        // Taken only when kept: a vector left in place is freed with the
        // facts.
        if segments.capacity() <= LONGEST && segments.capacity() > s.segments.capacity() {
            s.segments = emptied(std::mem::take(segments));
        }
        if runs.capacity() <= LONGEST && runs.capacity() > s.runs.capacity() {
            s.runs = emptied(std::mem::take(runs));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emptied_vector_keeps_its_allocation() {
        let text = String::from("a b");
        let mut v: Vec<Cow<'_, str>> = Vec::with_capacity(7);
        v.extend(text.split(' ').map(Cow::Borrowed));
        let at = v.as_ptr().cast::<u8>();
        let e: Vec<Cow<'static, str>> = emptied(v);
        assert_eq!((e.len(), e.capacity()), (0, 7));
        assert_eq!(e.as_ptr().cast::<u8>(), at);
    }

    #[test]
    fn kept_vectors_are_handed_out_empty() {
        let text = String::from("git status && ls");
        {
            let mut facts = crate::facts::LineFacts::of(&text);
            facts.recycle();
        }
        let w = words();
        assert!(w.is_empty() && w.capacity() > 0);
        assert!(segments().is_empty());
        assert!(runs(2).is_empty());
        // The next line reads as if nothing had been kept.
        let f = crate::facts::LineFacts::of("pnpm test");
        assert_eq!(f.line.segments[0].words, ["pnpm", "test"]);
    }
}
