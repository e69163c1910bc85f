//! Random trees with chance nodes (placeholder being written).
