//! Fixtures and codecs for the benchmarks (in progress).
