//! The kernels of [`Graph::transitive_reduction`](super::Graph::transitive_reduction), on a
//! compact adjacency (CSR) in topological-position space: vertex `p` is the `p`-th of a
//! sources-first order, so every edge goes from a smaller to a larger position and each
//! successor list is sorted ascending.
//!
//! * [`triangles`]: `u -> x` is redundant when some other dependency `w` of `u` has `w -> x`.
//!   Cheap (sorted-list intersection, smaller side searched in the larger) and, on Terraform
//!   graphs, it removes most redundant edges: `root -> everything`, `(close) -> consumers`,
//!   `resource -> provider`.
//! * [`chunked_rows`]: the exact test for what remains, with reachability rows over chunks of
//!   columns (see the module docs of `reduce.rs`).

/// Compressed sparse rows: the successors of `p` are `tgt[off[p]..off[p + 1]]`.
pub(crate) struct Csr {
    pub off: Vec<u32>,
    pub tgt: Vec<u32>,
}

impl Csr {
    pub fn row(&self, p: usize) -> &[u32] {
        &self.tgt[self.off[p] as usize..self.off[p + 1] as usize]
    }

    pub fn len(&self) -> usize {
        self.off.len() - 1
    }

    /// Builds rows from `(from, to)` pairs, each row sorted ascending.
    pub fn from_rows(n: usize, mut rows: impl FnMut(usize, &mut Vec<u32>)) -> Csr {
        let mut off = Vec::with_capacity(n + 1);
        let mut tgt = Vec::new();
        off.push(0);
        let mut buf = Vec::new();
        for p in 0..n {
            buf.clear();
            rows(p, &mut buf);
            buf.sort_unstable();
            tgt.extend_from_slice(&buf);
            off.push(tgt.len() as u32);
        }
        Csr { off, tgt }
    }

    /// The reverse adjacency (predecessors), rows sorted ascending.
    pub fn reversed(&self) -> Csr {
        let n = self.len();
        let mut count = vec![0u32; n + 1];
        for &t in &self.tgt {
            count[t as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let off = count.clone();
        let mut fill = count;
        let mut tgt = vec![0u32; self.tgt.len()];
        for p in 0..n {
            for &t in self.row(p) {
                tgt[fill[t as usize] as usize] = p as u32;
                fill[t as usize] += 1;
            }
        }
        Csr { off, tgt }
    }
}

/// Marks `dead[e]` for every edge slot `e` of `f` (index into `f.tgt`) closing a triangle
/// `u -> w -> x` with `u -> x`. O(Σ over edges u->w of min(d(u), d(w))·log max(d(u), d(w))).
pub(crate) fn triangles(f: &Csr, dead: &mut [bool]) {
    for u in 0..f.len() {
        let su = f.row(u);
        if su.len() < 2 {
            continue;
        }
        let base = f.off[u] as usize;
        for &w in su {
            let sw = f.row(w as usize);
            if sw.len() <= su.len() {
                for x in sw {
                    if let Ok(i) = su.binary_search(x) {
                        dead[base + i] = true;
                    }
                }
            } else {
                for (i, x) in su.iter().enumerate() {
                    if *x > w && sw.binary_search(x).is_ok() {
                        dead[base + i] = true;
                    }
                }
            }
        }
    }
}

/// A reachability row's summary: some columns, or every column of the chunk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Row {
    Partial,
    Full,
}

/// Every redundant edge `(u, x)` of the DAG `f` (positions), by chunked reachability rows of at
/// most `words` 64-bit words. `r` is `f` reversed. Rows that cover a whole chunk are kept as a
/// flag, and a vertex that reaches the chunk through one dependency's row alone shares it, so
/// vertices far upstream of a chunk cost O(degree), not O(degree · words).
pub(crate) fn chunked_rows(f: &Csr, r: &Csr, budget_bytes: usize) -> Vec<(u32, u32)> {
    let n = f.len();
    let mut is_col = vec![false; n];
    for u in 0..n {
        let su = f.row(u);
        if su.len() >= 2 {
            for &x in su {
                if r.row(x as usize).len() >= 2 {
                    is_col[x as usize] = true;
                }
            }
        }
    }
    let columns: Vec<u32> = (0..n as u32).filter(|&p| is_col[p as usize]).collect();
    drop(is_col);
    let mut redundant = Vec::new();
    if columns.is_empty() {
        return redundant;
    }

    const NONE: u32 = u32::MAX;
    let words = (budget_bytes / 8 / n.max(1)).clamp(1, columns.len().div_ceil(64));
    let mut col_bit = vec![NONE; n];
    let mut row_of = vec![NONE; n];
    let mut marked = vec![0u64; n.div_ceil(64)];
    let mut queue: Vec<u32> = Vec::new();
    // A pool of rows, `state` per row; rows are written before they are read (copied from a
    // dependency's row, or zeroed), so the buffer is only grown, never cleared between chunks.
    let mut rows: Vec<u64> = Vec::new();
    let mut state: Vec<Row> = Vec::new();
    let mut full = vec![0u64; words];
    // Row 0 of every chunk is the `Full` flag's: no bits stored, its state says it all.
    const FULL_ROW: u32 = 0;
    // A vertex's own column dependencies not reachable through another dependency.
    let mut own: Vec<u32> = Vec::new();

    for chunk in columns.chunks(words * 64) {
        full.fill(0);
        for (bit, &x) in chunk.iter().enumerate() {
            col_bit[x as usize] = bit as u32;
            full[bit / 64] |= 1 << (bit % 64);
        }
        // Members: everything that reaches a column of the chunk (reverse search).
        queue.clear();
        for &x in chunk {
            marked[x as usize / 64] |= 1 << (x % 64);
            queue.push(x);
        }
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head] as usize;
            head += 1;
            for &s in r.row(v) {
                let (w, b) = (s as usize / 64, 1u64 << (s % 64));
                if marked[w] & b == 0 {
                    marked[w] |= b;
                    queue.push(s);
                }
            }
        }
        // Largest position first: dependencies before dependents. A vertex whose dependencies
        // all reach the chunk through one and the same row, and which adds no column of its
        // own, shares that row instead of copying it: far downstream of a chunk (everything
        // after a module call that reaches it through one output) that is most members, and
        // they cost O(degree) instead of O(degree · words). A new row is taken from the pool
        // only when a vertex ORs two different rows or sets a bit of its own, so the pool never
        // holds more rows than there are members: the byte budget holds as before.
        let members = queue.len();
        if rows.len() < (members + 1) * words {
            rows.resize((members + 1) * words, 0);
        }
        state.clear();
        state.push(Row::Full);
        for wi in (0..marked.len()).rev() {
            let mut bits = std::mem::take(&mut marked[wi]);
            while bits != 0 {
                let b = 63 - bits.leading_zeros() as usize;
                bits &= !(1u64 << b);
                let v = wi * 64 + b;
                let sv = f.row(v);

                // The dependencies' rows: none, all Full, one shared row, or several to OR.
                let mut shared = NONE;
                let mut mixed = false;
                let mut is_full = false;
                for &w in sv {
                    let wr = row_of[w as usize];
                    if wr == NONE {
                        continue; // reaches no column of this chunk
                    }
                    if state[wr as usize] == Row::Full {
                        is_full = true;
                        break;
                    }
                    if shared == NONE {
                        shared = wr;
                    } else if shared != wr {
                        mixed = true;
                    }
                }
                // The row of everything reachable through a dependency: `Full`, a pool row
                // (`through`, either shared or a new OR of several), or nothing (`NONE`).
                let mut through = NONE;
                if !is_full && shared != NONE {
                    if mixed {
                        let r_idx = state.len();
                        state.push(Row::Partial);
                        let (done, rest) = rows.split_at_mut(r_idx * words);
                        let row = &mut rest[..words];
                        row.copy_from_slice(&done[shared as usize * words..(shared as usize + 1) * words]);
                        let mut last = shared;
                        for &w in sv {
                            let wr = row_of[w as usize];
                            if wr == NONE || wr == shared || wr == last || state[wr as usize] != Row::Partial {
                                continue;
                            }
                            last = wr;
                            let src = &done[wr as usize * words..(wr as usize + 1) * words];
                            row.iter_mut().zip(src).for_each(|(a, s)| *a |= s);
                        }
                        through = r_idx as u32;
                    } else {
                        through = shared;
                    }
                }
                // This vertex's own column dependencies: redundant when already reachable
                // through another dependency; otherwise bits to add.
                own.clear();
                for &x in sv {
                    let bit = col_bit[x as usize];
                    if bit == NONE {
                        continue;
                    }
                    let reachable = is_full
                        || (through != NONE
                            && rows[through as usize * words + bit as usize / 64] & (1 << (bit % 64)) != 0);
                    if reachable {
                        if sv.len() >= 2 {
                            redundant.push((v as u32, x));
                        }
                    } else {
                        own.push(bit);
                    }
                }
                row_of[v] = if is_full {
                    FULL_ROW
                } else if own.is_empty() {
                    through
                } else {
                    // A row of its own: a copy of the shared row (or the OR just made, which
                    // no one else uses yet), plus its own bits.
                    let r_idx = if through != NONE && (through as usize) == state.len() - 1 && mixed {
                        through as usize
                    } else {
                        let r_idx = state.len();
                        state.push(Row::Partial);
                        if through == NONE {
                            rows[r_idx * words..(r_idx + 1) * words].fill(0);
                        } else {
                            rows.copy_within(through as usize * words..(through as usize + 1) * words, r_idx * words);
                        }
                        r_idx
                    };
                    let row = &mut rows[r_idx * words..(r_idx + 1) * words];
                    for &bit in &own {
                        row[bit as usize / 64] |= 1 << (bit % 64);
                    }
                    if *row == *full {
                        state[r_idx] = Row::Full;
                    }
                    r_idx as u32
                };
            }
        }
        for &v in &queue {
            row_of[v as usize] = NONE;
        }
        for &x in chunk {
            col_bit[x as usize] = NONE;
        }
    }
    redundant
}
