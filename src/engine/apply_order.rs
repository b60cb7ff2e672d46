//! Which apply operations may start, as others finish: the apply graph's edges kept as
//! barriers instead of one edge per pair of operations.
//!
//! Between operations of resources X and D where X's configuration (or state) depends on D:
//! - a create, update or read of X waits for every destroy of D that is not
//!   create_before_destroy ordered, and for every create/update/read of D when X's
//!   configuration refers to D (a dependency only the state records orders destroys alone, as
//!   Terraform's `DestroyEdgeTransformer` reads stored dependencies: else a reference turned
//!   around since the last apply would be a cycle);
//! - a create/update/read of D waits for every destroy of X that is not create_before_destroy
//!   ordered;
//! - a destroy of D waits for every destroy of X, and when it is create_before_destroy ordered
//!   for every create/update/read of X too.
//!
//! Resources are configuration addresses, so every instance of a resource in a module with
//! count waits for every instance of what it depends on in every instance of the module: as
//! pairs that is (instances × instances) edges. Here each (resource, kind) is one group that is
//! done when all its members are, so the edges are (operations × dependencies per resource) and
//! what may start when is the same. The two operations of one replacement, and a resource that
//! depends on itself (only a state can say so), keep direct edges.

use super::stepper::{OpNode, Status};
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// Creates, updates and reads.
    Apply,
    /// Every destroy.
    Destroy,
    /// Destroys not ordered as create_before_destroy.
    PlainDestroy,
}

/// A barrier over a (resource, kind) group.
#[derive(Default)]
struct Group {
    /// Members not done yet.
    remaining: usize,
    /// A member failed or was skipped: whatever waits for the group is skipped.
    failed: bool,
    waiters: Vec<usize>,
}

pub struct ApplyOrder {
    /// Per operation: the operations it waits for directly.
    direct: Vec<Vec<usize>>,
    /// Per operation: the groups it waits for.
    waits_for: Vec<Vec<usize>>,
    /// Per operation: the operations waiting for it directly.
    direct_waiters: Vec<Vec<usize>>,
    /// Per operation: the groups it is a member of.
    member_of: Vec<Vec<usize>>,
    groups: Vec<Group>,
    /// Per operation, how many of its operations and groups are not done yet.
    waiting: Vec<usize>,
    /// Operations with nothing left to wait for, lowest index first.
    ready: BTreeSet<usize>,
}

impl ApplyOrder {
    /// `keys[i]`: operation `i`'s resource's configuration address; `deps`: by configuration
    /// address, what a resource depends on (its configuration and its state); `refs`: what its
    /// configuration refers to.
    pub fn new(
        ops: &[OpNode],
        keys: &[String],
        deps: &HashMap<String, BTreeSet<String>>,
        refs: &HashMap<String, BTreeSet<String>>,
    ) -> ApplyOrder {
        let n = ops.len();
        let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, k) in keys.iter().enumerate() {
            by_key.entry(k.as_str()).or_default().push(i);
        }
        // Groups with members only: an empty group has nothing to wait for.
        let mut groups: Vec<Group> = Vec::new();
        let mut group_ix: HashMap<(&str, Kind), usize> = HashMap::new();
        let mut member_of = vec![Vec::new(); n];
        for (i, o) in ops.iter().enumerate() {
            let kinds: &[Kind] = match (o.destroy, o.order_cbd) {
                (false, _) => &[Kind::Apply],
                (true, true) => &[Kind::Destroy],
                (true, false) => &[Kind::Destroy, Kind::PlainDestroy],
            };
            for &k in kinds {
                let g = *group_ix.entry((keys[i].as_str(), k)).or_insert_with(|| {
                    groups.push(Group::default());
                    groups.len() - 1
                });
                groups[g].remaining += 1;
                member_of[i].push(g);
            }
        }
        // Who depends on each resource (itself excepted).
        let mut dependents: HashMap<&str, Vec<&str>> = HashMap::new();
        for (r, ds) in deps {
            for d in ds.iter().filter(|d| *d != r) {
                dependents.entry(d.as_str()).or_default().push(r.as_str());
            }
        }
        let mut direct: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        // Replacement: destroy-then-create, or create-then-destroy (deposed), between the
        // operations of one change.
        let mut by_change: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, o) in ops.iter().enumerate() {
            by_change.entry(o.change).or_default().push(i);
        }
        for (a, oa) in ops.iter().enumerate() {
            for &b in &by_change[&oa.change] {
                let ob = &ops[b];
                if a != b
                    && oa.instance == ob.instance
                    && ((oa.destroy && !ob.destroy && !oa.order_cbd) || (!oa.destroy && ob.destroy && ob.order_cbd))
                {
                    direct[b].insert(a);
                }
            }
        }
        let mut waits_for: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        for (b, o) in ops.iter().enumerate() {
            let me = keys[b].as_str();
            let mut wait = |r: &str, k: Kind| {
                if let Some(&g) = group_ix.get(&(r, k)) {
                    waits_for[b].insert(g);
                }
            };
            let mine = deps.get(me);
            let theirs = dependents.get(me).map(Vec::as_slice).unwrap_or(&[]);
            if o.destroy {
                for &r in theirs {
                    wait(r, Kind::Destroy);
                    if o.order_cbd {
                        wait(r, Kind::Apply);
                    }
                }
            } else {
                for r in mine.into_iter().flatten().filter(|r| r.as_str() != me) {
                    wait(r, Kind::PlainDestroy);
                }
                for r in refs.get(me).into_iter().flatten().filter(|r| r.as_str() != me) {
                    wait(r, Kind::Apply);
                }
                for &r in theirs {
                    wait(r, Kind::PlainDestroy);
                }
            }
            // A resource depending on itself: between its resources' (module instances')
            // operations, pair by pair, as the rules above read.
            if mine.is_some_and(|m| m.contains(me)) {
                for &y in &by_key[me] {
                    let (ox, oy) = (o, &ops[y]);
                    if b == y || ox.resource == oy.resource || (ox.instance == oy.instance && ox.change == oy.change) {
                        continue;
                    }
                    let y_first = !ox.destroy && (!oy.destroy || !oy.order_cbd);
                    let x_first = match (ox.destroy, oy.destroy) {
                        (true, true) => true,
                        (true, false) => !ox.order_cbd,
                        (false, true) => oy.order_cbd,
                        (false, false) => false,
                    };
                    if y_first {
                        direct[b].insert(y);
                    }
                    if x_first {
                        direct[y].insert(b);
                    }
                }
            }
        }
        let mut direct_waiters = vec![Vec::new(); n];
        for (b, ps) in direct.iter().enumerate() {
            for &a in ps {
                direct_waiters[a].push(b);
            }
        }
        for (b, gs) in waits_for.iter().enumerate() {
            for &g in gs {
                groups[g].waiters.push(b);
            }
        }
        let waiting: Vec<usize> = (0..n).map(|b| direct[b].len() + waits_for[b].len()).collect();
        let ready = crate::util::sort::btree_set((0..n).filter(|&b| waiting[b] == 0));
        ApplyOrder {
            direct: direct.into_iter().map(|s| s.into_iter().collect()).collect(),
            waits_for: waits_for.into_iter().map(|s| s.into_iter().collect()).collect(),
            direct_waiters,
            member_of,
            groups,
            waiting,
            ready,
        }
    }

    /// The lowest ready operation, taken out of the ready set.
    pub fn pop_ready(&mut self) -> Option<usize> {
        self.ready.pop_first()
    }

    /// Operation `b` succeeded: what waited only for it (directly or through its groups) is ready.
    pub fn done(&mut self, b: usize) {
        for i in 0..self.direct_waiters[b].len() {
            let w = self.direct_waiters[b][i];
            self.release(w);
        }
        for i in 0..self.member_of[b].len() {
            let g = self.member_of[b][i];
            self.groups[g].remaining -= 1;
            if self.groups[g].remaining == 0 {
                for j in 0..self.groups[g].waiters.len() {
                    let w = self.groups[g].waiters[j];
                    self.release(w);
                }
            }
        }
    }

    fn release(&mut self, b: usize) {
        self.waiting[b] -= 1;
        if self.waiting[b] == 0 {
            self.ready.insert(b);
        }
    }

    /// Operation `b` failed or was skipped: its groups fail with it.
    pub fn failed(&mut self, b: usize) {
        for &g in &self.member_of[b] {
            self.groups[g].failed = true;
        }
    }

    /// The operations that wait for each other in a loop and so could never start: the
    /// strongly connected components of more than one operation among the waits (through
    /// groups too), each in index order. Empty when every operation can be ordered. Read from
    /// the waits as built, so it may be asked before or during a walk.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        // Nodes: operations 0..n, then groups n..n+G. Kahn's peel first, linear in the waits:
        // what it cannot reach is on a cycle or behind one, and only that remainder (usually
        // nothing) goes to Tarjan.
        let n = self.direct.len();
        let waits = |x: usize| -> Vec<usize> {
            if x < n {
                self.direct[x].iter().copied().chain(self.waits_for[x].iter().map(|&g| n + g)).collect()
            } else {
                (0..n).filter(|&b| self.member_of[b].contains(&(x - n))).collect()
            }
        };
        let total = n + self.groups.len();
        let mut members = vec![0usize; self.groups.len()];
        for gs in &self.member_of {
            for &g in gs {
                members[g] += 1;
            }
        }
        let mut waiting: Vec<usize> = (0..total)
            .map(|x| if x < n { self.direct[x].len() + self.waits_for[x].len() } else { members[x - n] })
            .collect();
        let mut queue: Vec<usize> = (0..total).filter(|&x| waiting[x] == 0).collect();
        while let Some(x) = queue.pop() {
            let released: Vec<usize> = if x < n {
                self.direct_waiters[x].iter().copied().chain(self.member_of[x].iter().map(|&g| n + g)).collect()
            } else {
                self.groups[x - n].waiters.clone()
            };
            for w in released {
                waiting[w] -= 1;
                if waiting[w] == 0 {
                    queue.push(w);
                }
            }
        }
        let stuck: Vec<usize> = (0..total).filter(|&x| waiting[x] > 0).collect();
        if stuck.is_empty() {
            return Vec::new();
        }
        let mut g: crate::dag::Graph<usize, ()> = crate::dag::Graph::with_capacity(stuck.len());
        let mut ids: HashMap<usize, crate::dag::NodeId> = HashMap::new();
        for &x in &stuck {
            ids.insert(x, g.add(String::new(), x));
        }
        for &x in &stuck {
            for p in waits(x) {
                if let Some(&to) = ids.get(&p) {
                    g.connect(ids[&x], to, ());
                }
            }
        }
        let mut out: Vec<Vec<usize>> = g
            .strongly_connected()
            .into_iter()
            .map(|c| {
                let mut c: Vec<usize> = c.iter().map(|&id| *g.weight(id)).filter(|&x| x < n).collect();
                c.sort_unstable();
                c
            })
            .filter(|c| c.len() > 1)
            .collect();
        crate::util::sort::sort(&mut out);
        out
    }

    /// Whether `b` waits for a failed or skipped operation, directly or through a group.
    pub fn blocked(&self, b: usize, status: &[Status]) -> bool {
        self.direct[b].iter().any(|&a| matches!(status[a], Status::Failed | Status::Skipped))
            || self.waits_for[b].iter().any(|&g| self.groups[g].failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::Op;

    /// The pairwise edges the barriers replace: every operation of every resource a resource
    /// depends on, against every operation of the resource.
    fn pairwise(ops: &[OpNode], keys: &[String], deps: &HashMap<String, BTreeSet<String>>) -> Vec<BTreeSet<usize>> {
        let mut preds = vec![BTreeSet::new(); ops.len()];
        for (a, oa) in ops.iter().enumerate() {
            for (b, ob) in ops.iter().enumerate() {
                if a != b
                    && keys[a] == keys[b]
                    && oa.instance == ob.instance
                    && oa.change == ob.change
                    && ((oa.destroy && !ob.destroy && !oa.order_cbd) || (!oa.destroy && ob.destroy && ob.order_cbd))
                {
                    preds[b].insert(a);
                }
            }
        }
        for (x, ox) in ops.iter().enumerate() {
            let Some(ds) = deps.get(&keys[x]) else { continue };
            for (y, oy) in ops.iter().enumerate() {
                if !ds.contains(&keys[y])
                    || x == y
                    || ox.resource == oy.resource
                    || (ox.instance == oy.instance && ox.change == oy.change)
                {
                    continue;
                }
                let y_first = match (oy.destroy, ox.destroy) {
                    (false, false) => true,
                    (true, false) => !oy.order_cbd,
                    _ => false,
                };
                let x_first = match (ox.destroy, oy.destroy) {
                    (true, true) => true,
                    (true, false) => !ox.order_cbd,
                    (false, true) => oy.order_cbd,
                    (false, false) => false,
                };
                if y_first {
                    preds[x].insert(y);
                }
                if x_first {
                    preds[y].insert(x);
                }
            }
        }
        preds
    }

    /// A small seeded generator (xorshift), so failures replay.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    #[test]
    fn barriers_order_as_the_pairwise_edges_do() {
        for seed in 1..400u64 {
            let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let configs = 1 + r.below(5) as usize;
            let mut ops = Vec::new();
            let mut keys = Vec::new();
            for change in 0..(1 + r.below(12) as usize) {
                let c = r.below(configs as u64);
                let module = r.below(3);
                let instance = format!("module.m[{module}].t.r{c}[{}]", r.below(2));
                let resource = format!("module.m[{module}].t.r{c}");
                let cbd = r.below(3) == 0;
                let mut push = |op: Op, destroy: bool, order_cbd: bool| {
                    ops.push(OpNode {
                        op,
                        change,
                        resource: resource.clone(),
                        instance: instance.clone(),
                        destroy,
                        cbd,
                        order_cbd,
                    });
                    keys.push(format!("module.m.t.r{c}"));
                };
                match r.below(4) {
                    0 => push(Op::Create, false, false),
                    1 => push(Op::Delete, true, cbd || r.below(2) == 0),
                    2 if cbd => {
                        push(Op::Create, false, true);
                        push(Op::Delete, true, true);
                    }
                    _ => {
                        push(Op::Delete, true, false);
                        push(Op::Create, false, false);
                    }
                }
            }
            let mut deps: HashMap<String, BTreeSet<String>> = HashMap::new();
            for a in 0..configs {
                for b in 0..configs {
                    // Self-dependencies too: a state can record them.
                    if r.below(3) == 0 {
                        deps.entry(format!("module.m.t.r{a}")).or_default().insert(format!("module.m.t.r{b}"));
                    }
                }
            }
            let order = ApplyOrder::new(&ops, &keys, &deps, &deps);
            let expected = pairwise(&ops, &keys, &deps);
            for (b, want) in expected.iter().enumerate() {
                let mut got: BTreeSet<usize> = order.direct[b].iter().copied().collect();
                for &g in &order.waits_for[b] {
                    got.extend((0..ops.len()).filter(|&m| order.member_of[m].contains(&g)));
                }
                assert_eq!(&got, want, "seed {seed}, operation {b}");
            }
        }
    }
}
