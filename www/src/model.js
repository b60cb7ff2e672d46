// Pure graph helpers for the page, on plain data (never the package): the resource-only view
// `terraform graph` draws, transitive reduction, cycle edges, and the graph text Terraform's
// `Graph.String()` prints (which each build step records) parsed back into nodes and edges.

/** Kinds drawn in the resources view: resources and their instances, all modes. */
export const isResourceKind = (kind) => kind.startsWith("resource");

/** `aws_instance.web[0]` → `aws_instance.web`: instances fold into their resource (a key's quoted `]` too). */
export const resourceKey = (address) => address.replace(/\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]$/, "");

/**
 * Terraform's `ResourceGraph()` (terraform graph since v1.7) on plain data: one node per
 * resource, an edge a → b wherever a reaches b through non-resource nodes only, then (with
 * `reduce`) transitive reduction, which Terraform skips on a cycle.
 *
 * @param {Array<{ name: string, kind: string, address: string, module: string }>} nodes
 * @param {Array<{ from: string, to: string }>} edges  `from` depends on `to`
 * @returns {{ nodes: Array<{ key: string, names: string[], module: string, address: string }>,
 *             edges: Array<{ from: string, to: string, via: string[][] }> }}
 *   node keys are resource addresses; an edge's `via` is one path of full-graph node names from
 *   a node of `from` to a node of `to` (for explaining it hop by hop).
 */
export function resourceView(nodes, edges, reduce = true) {
  const out = new Map();
  const keyOf = new Map();
  for (const n of nodes) {
    if (!isResourceKind(n.kind)) continue;
    const key = resourceKey(n.address);
    keyOf.set(n.name, key);
    if (!out.has(key)) out.set(key, { key, names: [], module: n.module, address: key });
    out.get(key).names.push(n.name);
  }
  const next = adjacency(edges);
  const found = new Map(); // "a\0b" → path
  for (const [name, from] of keyOf) {
    // Breadth-first through non-resource nodes, keeping the path to each resource met.
    const parent = new Map([[name, null]]);
    const queue = [name];
    while (queue.length) {
      const v = queue.shift();
      for (const w of next.get(v) ?? []) {
        if (parent.has(w)) continue;
        parent.set(w, v);
        const to = keyOf.get(w);
        if (to !== undefined) {
          if (to !== from && !found.has(`${from}\0${to}`)) {
            const path = [w];
            for (let p = v; p !== null; p = parent.get(p)) path.push(p);
            found.set(`${from}\0${to}`, path.reverse());
          }
          continue;
        }
        queue.push(w);
      }
    }
  }
  let list = [...found].map(([k, via]) => {
    const [from, to] = k.split("\0");
    return { from, to, via };
  });
  if (reduce && cycleSets(list).length === 0) list = transitiveReduction(list);
  const sorted = [...out.values()].sort((a, b) => a.key.localeCompare(b.key));
  return { nodes: sorted, edges: list };
}

function adjacency(edges) {
  const next = new Map();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    next.get(e.from).push(e.to);
  }
  return next;
}

/**
 * Drops every edge u → v for which v is also reachable from u through another edge. For a
 * DAG (callers skip it on a cycle): descendants as bitsets, filled in reverse topological
 * order, so 2,000 nodes and 4,000 edges take milliseconds. O(V · E / 32).
 */
export function transitiveReduction(edges) {
  const names = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  const index = new Map(names.map((n, i) => [n, i]));
  const n = names.length;
  const words = (n + 31) >>> 5;
  const next = Array.from({ length: n }, () => []);
  const indegree = new Uint32Array(n);
  for (const e of edges) {
    next[index.get(e.from)].push(index.get(e.to));
    indegree[index.get(e.to)]++;
  }
  // Topological order (Kahn), then descendants from the sinks up.
  const order = [];
  const queue = [];
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue.push(i);
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    order.push(v);
    for (const w of next[v]) if (--indegree[w] === 0) queue.push(w);
  }
  const below = new Uint32Array(n * words); // below[v] = nodes reachable from v in one or more steps
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k];
    const base = v * words;
    for (const w of next[v]) {
      below[base + (w >>> 5)] |= 1 << (w & 31);
      const wb = w * words;
      for (let j = 0; j < words; j++) below[base + j] |= below[wb + j];
    }
  }
  // u → v is implied when v lies below another direct successor of u.
  return edges.filter((e) => {
    const u = index.get(e.from);
    const v = index.get(e.to);
    return !next[u].some((w) => w !== v && (below[w * words + (v >>> 5)] & (1 << (v & 31))) !== 0);
  });
}

/** Strongly connected components of more than one node (Tarjan), as arrays of names. */
export function cycleSets(edges) {
  const next = adjacency(edges);
  const names = new Set(edges.flatMap((e) => [e.from, e.to]));
  const index = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  let counter = 0;
  for (const root of names) {
    if (index.has(root)) continue;
    // Iterative Tarjan: frames of [node, next child position].
    const frames = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    on.add(root);
    while (frames.length) {
      const frame = frames[frames.length - 1];
      const [v, i] = frame;
      const kids = next.get(v) ?? [];
      if (i < kids.length) {
        frame[1]++;
        const w = kids[i];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          on.add(w);
          frames.push([w, 0]);
        } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      frames.pop();
      if (frames.length) {
        const u = frames[frames.length - 1][0];
        low.set(u, Math.min(low.get(u), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          on.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1) out.push(scc);
      }
    }
  }
  return out;
}

/** Edges whose two ends lie in the same cycle, as a Set of `from\0to`. */
export function cycleEdgeKeys(edges, cycles) {
  const group = new Map();
  cycles.forEach((c, i) => c.forEach((n) => group.set(n, i)));
  const out = new Set();
  for (const e of edges) {
    if (group.has(e.from) && group.get(e.from) === group.get(e.to)) out.add(`${e.from}\0${e.to}`);
  }
  return out;
}

/**
 * Parses Terraform's `Graph.String()` text: each node on a line of its own, sorted, each
 * followed by its dependencies indented by two spaces.
 *
 * @returns {{ nodes: string[], edges: Array<{ from: string, to: string }> }}
 */
export function parseGraphText(text) {
  const nodes = [];
  const edges = [];
  let current = null;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("  ")) {
      if (current !== null) edges.push({ from: current, to: line.slice(2) });
    } else {
      current = line;
      nodes.push(line);
    }
  }
  return { nodes, edges };
}
