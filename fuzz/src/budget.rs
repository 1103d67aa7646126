//! A counting allocator, to measure what one decode allocates.
//!
//! Install [`Counting`] as the `#[global_allocator]` of a binary (the fuzz
//! targets do; so do `tests/tests/alloc_bounds.rs` and
//! `benches/tests/alloc.rs`, which include this file), then wrap a decode
//! in [`measure`]. Counters are per thread, so
//! tests running in parallel do not see each other's allocations. Without
//! the allocator installed, [`measure`] reports zero.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting what the current thread allocates.
#[derive(Debug)]
pub struct Counting;

thread_local! {
    /// Bytes allocated and not yet freed since `measure` began (negative
    /// when memory allocated before it is freed).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The most `LIVE` has been since `measure` began.
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Bytes asked for since `measure` began, freed or not.
    static TOTAL: Cell<usize> = const { Cell::new(0) };
    /// Allocations since `measure` began.
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn allocated(size: usize) {
    // `try_with`: the thread's locals are gone while it exits.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + size as isize;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
    let _ = TOTAL.try_with(|total| total.set(total.get() + size));
    let _ = COUNT.try_with(|count| count.set(count.get() + 1));
}

fn freed(size: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get() - size as isize));
}

// SAFETY: every method hands the request to `System` unchanged and
// returns what it returns; the counting touches only `Cell`s of plain
// integers in const-initialized thread locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, which is `System`'s.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            allocated(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            allocated(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from `System`, with
        // `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) };
        freed(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` with `layout`, and `new_size`
        // meets `realloc`'s contract, as the caller guarantees.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // Counted as a new block and the old one freed: growing a
            // vector by doubling costs about twice its final size.
            freed(layout.size());
            allocated(new_size);
        }
        new
    }
}

/// What a call allocated on this thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bytes allocated, freed or not (a reallocation counts its new size).
    pub total: usize,
    /// The most bytes that were allocated and not freed at any one time.
    pub peak: usize,
    /// How many allocations (and reallocations) there were.
    pub count: usize,
}

/// Runs `f`, counting what it allocates on this thread.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Usage) {
    LIVE.with(|live| live.set(0));
    PEAK.with(|peak| peak.set(0));
    TOTAL.with(|total| total.set(0));
    COUNT.with(|count| count.set(0));
    let result = f();
    let usage = Usage {
        total: TOTAL.with(Cell::get),
        peak: PEAK.with(Cell::get).max(0) as usize,
        count: COUNT.with(Cell::get),
    };
    (result, usage)
}
