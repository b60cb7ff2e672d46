//! The apply walk.
//!
//! | module | what |
//! | --- | --- |
//! | `walk` | the apply: the apply graph walked by walk/'s scheduler, one driver for every host (clock, provider calls, events) |
//! | `events` | what an apply reports: its operations' events, its result |
//! | `native` | the apply natively: the walk on a virtual clock with the built-in mocks |
//! | `nodes` | what the apply graph's resource instance nodes do ([`ApplyNodes`](nodes::ApplyNodes)), and the working state they write |
//! | `objects`, `live_values` | the working state's objects, and the values an operation's configuration reads from them |
//! | `state_write`, `serial` | the working state as state v4; the serial as Terraform's local state manager advances it |

pub mod events;
mod live_values;
pub mod native;
pub mod nodes;
mod objects;
mod serial;
pub mod state_write;
pub mod walk;

pub use events::{ApplyResult, OpEvent, OpEventKind};
