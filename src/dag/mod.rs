//! A generic directed graph for dependency ordering: Terraform's `internal/dag`, in Rust.
//!
//! The graph knows nothing about Terraform. A vertex is a name plus a weight `N`; an edge
//! `a -> b` means "a depends on b" and carries a payload `E` (the graph layer keeps the reason
//! for each edge there, so the page can explain it). What it offers, file by file:
//!
//! | file | what | Terraform |
//! |---|---|---|
//! | `graph.rs` | [`Graph`]: arena of vertices, adjacency both ways, connect/remove | `graph.go` |
//! | `adjacency.rs` | one vertex's edge list: a vector, indexed once long | |
//! | `graph_ops.rs` | [`Graph::replace`], [`Graph::subsume`], `Clone` | `graph.go` |
//! | `set.rs` | [`NodeSet`], the bitset answer of reachability queries | `set.go` |
//! | `reach.rs` | ancestors, descendants, the frontier [`Graph::walk`] | `dag.go` walks |
//! | `order.rs` | topological orders, smallest name first | `TopologicalOrder` |
//! | `tarjan.rs` | strongly connected components, iterative | `tarjan.go` |
//! | `cycles.rs` | [`Graph::cycles`], self-loops, one shortest loop through a vertex | `Cycles` |
//! | `cycle_text.rs` | `Cycle:` texts and [`Graph::validate`] diagnostics | `Validate` |
//! | `reduce.rs`, `reduce_bits.rs` | [`Graph::transitive_reduction`] | `TransitiveReduction` |
//! | `render_text.rs` | `String()` ([`Display`](std::fmt::Display)) and `StringWithNodeTypes()` | `graph.go` |
//! | `render_dot.rs` | `-type=plan` DOT | `dot.go`, `marshal.go` |
//! | `render_resource.rs` | the v1.7+ resource-only DOT and Mermaid | `command/graph.go` |
//! | `render_mermaid.rs` | Mermaid flowchart of the full graph | `mermaid.go` |
//!
//! Quoting (Go's `strconv.Quote`, which DOT output uses) lives in [`crate::addrs::quote`] and is
//! re-exported here.
//!
//! # Where this deliberately differs from Terraform, and why
//! * **Determinism.** Terraform's cycle lists, cycle order, topological orders and (outside
//!   tests) walks follow Go map iteration, so they change between runs (#4649). Here every
//!   result is a function of names and ids only: cycles start at the shortest name and follow
//!   names ([`Graph::cycles`]), diagnostics are sorted, orders pick the smallest name first. Each
//!   such result is one that Terraform itself can produce.
//! * **Speed and size.** Terraform's transitive reduction is O(V(V+E)) and its Tarjan recurses
//!   and scans its stack linearly. Here reduction is bitset-based with bounded memory, Tarjan and
//!   every traversal are iterative (a 1,000,000-vertex chain is fine), and adjacency lookups and
//!   removals are O(1).
//! * **Identity.** Vertices are ids, not pointers; two vertices may share a name. Where Go's
//!   name-keyed maps would conflate them (`String()`), each vertex is printed with its own edges.
//! * **Errors.** Orders and reduction return [`Cyclic`] instead of panicking or silently
//!   skipping; the caller decides (the graph layer skips reduction as Terraform does, and says so).

mod adjacency;
mod cycle_text;
mod cycles;
mod graph;
mod graph_ops;
mod order;
mod reach;
mod reduce;
mod reduce_bits;
mod render_dot;
mod render_mermaid;
mod render_resource;
mod render_text;
mod set;
mod tarjan;

pub use crate::addrs::quote::{go_escape, go_quote};
pub use cycle_text::{cycle_diagnostics, cycle_summary, legacy_cycle_summary, self_reference_summary, CycleStyle};
pub use cycles::Cyclic;
pub use graph::{Graph, NodeId};
pub use reach::{Direction, WalkControl, WalkOrder};
pub use reduce::{RemovedEdge, DEFAULT_REDUCTION_BUDGET};
pub use render_dot::{DotAttrs, DotOptions};
pub use render_mermaid::mermaid_label;
pub use render_resource::{resource_dot, resource_mermaid, ResourceNode};
pub use set::NodeSet;
pub(crate) use tarjan::tarjan_with;
pub use tarjan::Components;
