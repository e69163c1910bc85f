//! Benchmarks, sweeps and regression runs for cutoff (grows with the benchmark issue).
