//! Small shared building blocks below every stage: shared strings, the fast hasher and a clock
//! for measurements.

pub mod clock;
pub mod hash;
pub mod shared;
pub mod sort;

pub use hash::{FastBuild, FastHasher, FastMap, FastSet};
pub use shared::{SharedStr, SharedVec};
