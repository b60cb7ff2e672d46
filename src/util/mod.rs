//! Small shared building blocks below every stage: shared strings and the fast hasher.

pub mod hash;
pub mod shared;

pub use hash::{FastBuild, FastHasher, FastMap, FastSet};
pub use shared::{SharedStr, SharedVec};
