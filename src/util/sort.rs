//! Sorting with a comparator, without a copy of the standard library's sort per call site.
//!
//! `slice::sort_by` and `sort_unstable_by` are generic over the closure, so every call site
//! with its own closure compiles its own driftsort or ipnsort (4-8 KB of wasm each, ~50 of them
//! were 200 KB of the module before wasm-opt: bench/RESULTS.md, 2026-11-25 "sorts"). Here the
//! standard stable sort is instantiated once, on the indices `0..n` with a `dyn` comparator,
//! and each call site adds only its comparator and a small in-place permutation. Results are
//! exactly those of `slice::sort_by` (stable); where a caller used an unstable sort its order
//! was total, so the result is the same too.
//!
//! Plain `sort()` / `sort_unstable()` of one element type share one instance per type and
//! need no help.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Stable sort of `v` by `cmp` (as `slice::sort_by`).
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = sorted_order(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, order);
}

/// Sort of `v` in its natural order (as `slice::sort`; the same result as `sort_unstable`,
/// whose order is total). Plain sorts share one standard instance per element type, so this is
/// for the element types that are sorted only in a few places off the hot paths.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, |a, b| a.cmp(b));
}

/// Stable sort of `v` by a key (as `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// A `BTreeMap` from pairs, as `collect()` makes it (the last value of a repeated key wins).
/// `BTreeMap::from_iter` sorts with a closure typed by the iterator, so each `collect()` site
/// compiled a sort of its own; inserting one by one needs no sort at all.
pub fn btree_map<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (k, v) in items {
        map.insert(k, v);
    }
    map
}

/// A `BTreeSet` from items, as `collect()` makes it: `BTreeSet::from_iter` sorts per call
/// site as `BTreeMap::from_iter` does; inserting one by one needs no sort.
pub fn btree_set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    for x in items {
        set.insert(x);
    }
    set
}

/// A JSON object from pairs, as `collect()` makes it, built as [`btree_map`] builds (serde_json's
/// `Map` is a `BTreeMap` and would build itself with `BTreeMap::from_iter`).
pub fn json_map(
    items: impl IntoIterator<Item = (String, serde_json::Value)>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    for (k, v) in items {
        map.insert(k, v);
    }
    map
}

/// The stable sorted order of `0..n` under `cmp`: the crate's one instance of the standard
/// library's stable sort.
#[inline(never)]
fn sorted_order(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<u32> {
    let n = u32::try_from(n).expect("fewer than 2^32 elements to sort");
    let mut order: Vec<u32> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a as usize, b as usize));
    order
}

/// Rearranges `v` so that the new `v[i]` is the old `v[order[i]]`, following each cycle of the
/// permutation once (`order` is consumed as the visited marks).
fn permute<T>(v: &mut [T], mut order: Vec<u32>) {
    for start in 0..v.len() {
        let mut cur = start;
        loop {
            let next = order[cur] as usize;
            order[cur] = cur as u32;
            if next == start || next == cur {
                break;
            }
            v.swap(cur, next);
            cur = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency): xorshift.
    fn numbers(seed: u64, n: usize, modulo: u64) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % modulo
            })
            .collect()
    }

    #[test]
    fn same_as_the_standard_stable_sort() {
        for (seed, n, modulo) in
            [(1, 0, 5), (2, 1, 5), (3, 2, 2), (4, 17, 3), (5, 100, 10), (6, 1000, 50), (7, 5000, 1 << 40)]
        {
            // Pairs of (key, original position): stability shows in the positions.
            let items: Vec<(u64, usize)> =
                numbers(seed, n, modulo).into_iter().enumerate().map(|(i, k)| (k, i)).collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = items.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "seed {seed}, n {n}");
            let mut by_key = items.clone();
            sort_by_key(&mut by_key, |p| std::cmp::Reverse(p.0));
            let mut std_key = items;
            std_key.sort_by_key(|p| std::cmp::Reverse(p.0));
            assert_eq!(by_key, std_key);
        }
    }

    #[test]
    fn sorts_values_that_own_memory() {
        let mut v: Vec<String> = numbers(9, 300, 40).iter().map(|n| format!("s{n}")).collect();
        let mut std = v.clone();
        sort_by(&mut v, |a, b| b.cmp(a));
        std.sort_by(|a, b| b.cmp(a));
        assert_eq!(v, std);
    }

    #[test]
    fn btree_map_keeps_the_last_value_of_a_key() {
        let m = btree_map([("b", 1), ("a", 2), ("b", 3)]);
        let std: BTreeMap<_, _> = [("b", 1), ("a", 2), ("b", 3)].into_iter().collect();
        assert_eq!(m, std);
        assert_eq!(m["b"], 3);
    }

    #[test]
    fn btree_set_is_collect() {
        let items = ["b", "a", "c", "a", "b"];
        assert_eq!(btree_set(items), items.into_iter().collect::<BTreeSet<_>>());
    }
}
