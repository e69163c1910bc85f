//! The clock the engine times and stops its searches by: `std::time::Instant`, except on
//! `wasm32-unknown-unknown`, where `Instant::now()` panics and the browser's clock stands in
//! (the `web-time` crate, whose `Instant` is `std`'s everywhere else). Code that runs in the
//! browser build (`web/`) takes its `Instant` from here.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;
