//! Cycle error text as Terraform prints it, and [`Graph::validate`], Terraform's
//! `AcyclicGraph.Validate` as diagnostics.
//!
//! Terraform 1.16+ (commit 4c4adca78b, `dag.go` `Validate`): one error per cycle whose summary is
//! `Cycle:` followed by one name per line, indented two spaces; the Tarjan pop-order list is
//! reversed (so it reads in reference order) and rotated to start at the shortest name, byte-wise
//! smallest among equals. `errors.Join` plus `tfdiags` make each cycle, then each self-loop
//! (`Self reference: <name>`), its own diagnostic, with an empty detail.
//! Up to 1.15 the summary was `Cycle: a, b, c` in pop order ([`CycleStyle::Legacy`]).
//!
//! Deliberate difference: Terraform's order of cycles, and the pop order inside a cycle of more
//! than a simple loop, follow Go map iteration and change between runs. Here the members come
//! from [`Graph::cycles`] (one of Terraform's possible orders, always the same) and the
//! diagnostics are sorted: cycles by their text, then self references by name.

use super::{Graph, NodeId};
use crate::diag::{Diagnostic, Diagnostics};

/// Which Terraform release's cycle text to produce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CycleStyle {
    /// Terraform 1.16+: `Cycle:` then one indented name per line.
    #[default]
    Vertical,
    /// Terraform up to 1.15: `Cycle: a, b, c` in Tarjan pop order.
    Legacy,
}

/// Terraform 1.16's cycle summary for a component given in Tarjan pop order: reversed, rotated
/// to the shortest (then byte-wise smallest) name, one name per indented line.
///
/// ```
/// use tfgraph::dag::cycle_summary;
/// // pop order of a -> b -> c -> a discovered from "a": c, b, a
/// assert_eq!(cycle_summary(&["c", "b", "a"]), "Cycle:\n  a\n  b\n  c");
/// assert_eq!(cycle_summary(&["local.b", "var.a", "local.a"]), "Cycle:\n  var.a\n  local.b\n  local.a");
/// ```
pub fn cycle_summary<S: AsRef<str>>(pop_order: &[S]) -> String {
    let mut names: Vec<&str> = pop_order.iter().rev().map(AsRef::as_ref).collect();
    let mut first = 0;
    for i in 1..names.len() {
        if names[i].len() < names[first].len() {
            first = i;
            continue;
        }
        if names[i].len() == names[first].len() && names[i] < names[first] {
            first = i;
        }
    }
    names.rotate_left(first);
    format!("Cycle:\n  {}", names.join("\n  "))
}

/// Terraform ≤1.15's cycle summary: `Cycle: ` and the names in pop order, comma-separated.
pub fn legacy_cycle_summary<S: AsRef<str>>(pop_order: &[S]) -> String {
    let names: Vec<&str> = pop_order.iter().map(AsRef::as_ref).collect();
    format!("Cycle: {}", names.join(", "))
}

/// Terraform's error for an edge from a vertex to itself.
pub fn self_reference_summary(name: &str) -> String {
    format!("Self reference: {name}")
}

/// The crate's one builder of cycle diagnostics (the graph's [`Graph::validate`], the graph
/// stage's errors with loop details, the walker's input check): one error per cycle, as
/// `(summary, detail)` sorted by summary then detail, then one `Self reference: NAME` error per
/// self-loop as `(name, detail)`, in the order given.
pub fn cycle_diagnostics<S: AsRef<str>>(
    cycles: impl IntoIterator<Item = (String, String)>,
    self_loops: impl IntoIterator<Item = (S, String)>,
) -> Diagnostics {
    let mut found: Vec<(String, String)> = cycles.into_iter().collect();
    crate::util::sort::sort(&mut found);
    let mut diags = Diagnostics::new();
    for (summary, detail) in found {
        diags.push(Diagnostic::error(summary, detail));
    }
    for (name, detail) in self_loops {
        diags.push(Diagnostic::error(self_reference_summary(name.as_ref()), detail));
    }
    diags
}

impl<N, E> Graph<N, E> {
    /// The summary text for one cycle as listed by [`Graph::cycles`] (reference order).
    pub fn cycle_text(&self, cycle: &[NodeId], style: CycleStyle) -> String {
        let pop_order: Vec<&str> = cycle.iter().rev().map(|&v| self.name(v)).collect();
        match style {
            CycleStyle::Vertical => cycle_summary(&pop_order),
            CycleStyle::Legacy => legacy_cycle_summary(&pop_order),
        }
    }

    /// Terraform's `Validate` in 1.16+ form: one error diagnostic per cycle, then one per
    /// self-loop; empty when the graph is acyclic. See the module docs for ordering.
    ///
    /// # Complexity
    /// O(V + E) plus name sorting within cycles.
    pub fn validate(&self) -> Diagnostics {
        self.validate_with(CycleStyle::Vertical)
    }

    /// [`Graph::validate`] with a chosen [`CycleStyle`].
    pub fn validate_with(&self, style: CycleStyle) -> Diagnostics {
        cycle_diagnostics(
            self.cycles().iter().map(|c| (self.cycle_text(c, style), String::new())),
            self.self_loops().into_iter().map(|v| (self.name(v), String::new())),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_rotation_table() {
        let cases: &[(&[&str], &str)] = &[
            (&["a"], "Cycle:\n  a"),
            (&["b", "a"], "Cycle:\n  a\n  b"),
            (&["bb", "a", "cc"], "Cycle:\n  a\n  bb\n  cc"),
            // shortest wins over byte-wise smallest
            (&["zz", "aaa"], "Cycle:\n  zz\n  aaa"),
            // equal lengths: byte-wise ("B" < "a")
            (&["a", "B"], "Cycle:\n  B\n  a"),
            // duplicate names keep the first occurrence after reversal
            (&["x", "y", "x"], "Cycle:\n  x\n  y\n  x"),
        ];
        for &(pop, want) in cases {
            assert_eq!(cycle_summary(pop), want, "pop order {pop:?}");
        }
        assert_eq!(legacy_cycle_summary(&["b", "a"]), "Cycle: b, a");
        assert_eq!(self_reference_summary("a"), "Self reference: a");
    }

    /// `internal/command/testdata/graph-cyclic`: two locals and two resources referring to each
    /// other give two diagnostics (`graph_test.go` checks the prefixes
    /// `"Error: Cycle:\n  test_instance."` and `"Error: Cycle:\n  local."`).
    #[test]
    fn graph_cyclic_fixture_shape() {
        let mut g: Graph<(), ()> = Graph::new();
        let [l1, l2, foo, bar] = [
            "local.test1 (expand)",
            "local.test2 (expand)",
            "test_instance.foo (expand)",
            "test_instance.bar (expand)",
        ]
        .map(|n| g.add(n, ()));
        g.connect(l1, l2, ());
        g.connect(l2, l1, ());
        g.connect(foo, bar, ());
        g.connect(bar, foo, ());
        let diags = g.validate();
        let shown: Vec<String> = diags.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "Error: Cycle:\n  local.test1 (expand)\n  local.test2 (expand)",
                "Error: Cycle:\n  test_instance.bar (expand)\n  test_instance.foo (expand)",
            ]
        );
        assert!(diags.iter().all(|d| d.detail.is_empty()));
        let legacy = g.validate_with(CycleStyle::Legacy);
        assert_eq!(legacy.iter().next().unwrap().summary, "Cycle: local.test2 (expand), local.test1 (expand)");
    }

    #[test]
    fn self_loops_follow_cycles() {
        let mut g: Graph<(), ()> = Graph::new();
        let [a, b, c] = ["a", "b", "c"].map(|n| g.add(n, ()));
        g.connect(c, c, ());
        g.connect(a, b, ());
        g.connect(b, a, ());
        let s: Vec<String> = g.validate().iter().map(|d| d.summary.clone()).collect();
        assert_eq!(s, ["Cycle:\n  a\n  b", "Self reference: c"]);
        g.remove(c);
        g.remove_edge(b, a);
        assert!(g.validate().is_empty());
    }
}
