//! Timing: warm up, then the median per-iteration time of several
//! batches, the batches of the codecs compared taken in turn.

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
const BATCHES: u64 = 7;

/// The median time of one run of `op`, in nanoseconds.
pub fn time_per_iteration(budget: Budget, mut op: impl FnMut()) -> f64 {
    time_interleaved(budget, &mut [&mut op])[0]
}

/// The median time of one run of each of `ops`, in nanoseconds, taken in
/// rounds: each round times one batch of every op in turn, so a slow spell
/// of a noisy machine falls on all of them alike and their ratios hold.
pub fn time_interleaved(budget: Budget, ops: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let per_batch: Vec<u64> = ops.iter_mut().map(|op| warm_up(budget, op)).collect();
    let mut samples = vec![Vec::new(); ops.len()];
    for _ in 0..BATCHES {
        for ((op, &runs), samples) in ops.iter_mut().zip(&per_batch).zip(&mut samples) {
            let start = Instant::now();
            for _ in 0..runs {
                op();
            }
            samples.push(start.elapsed().as_nanos() as f64 / runs as f64);
        }
    }
    samples.into_iter().map(median).collect()
}

/// Warms `op` up (a tenth of the iterations, at most 100, and at most a
/// fifth of the time budget) and returns how many runs make one batch.
fn warm_up(budget: Budget, op: &mut dyn FnMut()) -> u64 {
    let warm = Instant::now();
    let max_warm_runs = (budget.iterations / 10).clamp(1, 100);
    let mut warm_runs = 0;
    while warm_runs < max_warm_runs && (warm_runs == 0 || warm.elapsed() < budget.max_time / 5) {
        op();
        warm_runs += 1;
    }
    let estimate = warm.elapsed().as_secs_f64() / warm_runs as f64;
    let affordable = (budget.max_time.as_secs_f64() / estimate.max(1e-9)) as u64;
    (budget.iterations.min(affordable) / BATCHES).max(1)
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}
