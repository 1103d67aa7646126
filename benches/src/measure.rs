//! Timing: warm up, then the median per-iteration time of several batches.

use std::time::{Duration, Instant};

/// How long to run each operation.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Iterations to run, split into batches.
    pub iterations: u64,
    /// A cap on the time one operation may take, iterations or not.
    pub max_time: Duration,
}

/// Batches per operation: the median of these is reported.
const BATCHES: u64 = 5;

/// The median time of one run of `op`, in nanoseconds.
pub fn time_per_iteration(budget: Budget, mut op: impl FnMut()) -> f64 {
    // Warm up (a tenth of the iterations, at most 100, and at most a fifth
    // of the time budget), and learn roughly how long one run takes.
    let warm = Instant::now();
    let max_warm_runs = (budget.iterations / 10).clamp(1, 100);
    let mut warm_runs = 0;
    while warm_runs < max_warm_runs && (warm_runs == 0 || warm.elapsed() < budget.max_time / 5) {
        op();
        warm_runs += 1;
    }
    let estimate = warm.elapsed().as_secs_f64() / warm_runs as f64;
    let affordable = (budget.max_time.as_secs_f64() / estimate.max(1e-9)) as u64;
    let per_batch = (budget.iterations.min(affordable) / BATCHES).max(1);
    let mut batches: Vec<f64> = (0..BATCHES)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_batch {
                op();
            }
            start.elapsed().as_nanos() as f64 / per_batch as f64
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[batches.len() / 2]
}
