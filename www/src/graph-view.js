// The graph panel: draws a graph (plain data from main.js) with Graphviz compiled to wasm
// (@viz-js/viz, vendored into www/vendor/ at build time, run in layout-worker.js), one cluster per module and a shape
// per node kind, and makes it explorable: zoom (wheel, buttons), pan (drag), search, click a
// node or an edge, highlight a selection, colour nodes by walk state.
//
// Every name reaches Graphviz inside a quoted DOT string with `\`, `"` and `&` escaped, and
// Graphviz writes it into the SVG as escaped XML text; node and edge ids in the SVG are our own
// (`n12`, `e7`), and the tooltips (<title>) are made with textContent. No configuration text is
// ever parsed as markup.

/**
 * `fit()` shows the whole drawing unless that needs a scale (screen px per Graphviz point)
 * under TOO_SMALL, where nothing can be read; then it opens at READABLE (11 pt labels ~9 px).
 */
const TOO_SMALL = 0.3;
const READABLE = 0.8;

/**
 * Drawings with more nodes than this paint their nodes' fills, and so the walk states (pending,
 * running, done, ...), on a canvas under the SVG instead of restyling the SVG: in Chromium's
 * software raster every restyle re-rasterised the whole drawing's labels (70-180 ms stalls while
 * a 501-node walk animated), while the canvas is redrawn on its own layer in a few milliseconds.
 */
const FILLS_ABOVE = 150;
/** The states' colours (style.css has the same for smaller drawings). */
const STATE_FILL = { pending: "#f1f3f5", running: "#ffd43b", done: "#b2f2bb", failed: "#ff8787", skipped: "#dee2e6", cancelled: "#e9ecef" };
const STATE_STROKE = { running: "#e67700", failed: "#c92a2a", done: "#2b8a3e" };

/** A node's first shape (Graphviz's polygon, ellipse or path) as a Path2D in the drawing's units. */
function shapePath(shape) {
  const p = new Path2D();
  if (shape.localName === "polygon") {
    const pts = (shape.getAttribute("points") ?? "").trim().split(/\s+/).map((xy) => xy.split(",").map(Number));
    pts.forEach(([x, y], i) => (i ? p.lineTo(x, y) : p.moveTo(x, y)));
    p.closePath();
  } else if (shape.localName === "ellipse") {
    const n = (a) => Number(shape.getAttribute(a));
    p.ellipse(n("cx"), n("cy"), n("rx"), n("ry"), 0, 0, 2 * Math.PI);
  } else p.addPath(new Path2D(shape.getAttribute("d") ?? ""));
  return p;
}

let worker = null;
let nextId = 0;
const pending = new Map();
/**
 * Lays out DOT in the layout worker (started on first use); resolves to `{ svg, ms, edges }`
 * (`edges`: the compact drawing's edge geometry by id, see layout-worker.js; else null).
 */
function layout(dot, compact) {
  if (!worker) {
    worker = new Worker(new URL("./layout-worker.js", import.meta.url), { type: "module" });
    worker.onmessage = ({ data }) => {
      const done = pending.get(data.id);
      pending.delete(data.id);
      if (data.status === "success") done?.resolve(data);
      else done?.reject(new Error(`Graphviz: ${data.errors?.map((e) => e.message).join("; ") || "layout failed"}`));
    };
    worker.onerror = (e) => {
      for (const p of pending.values()) p.reject(new Error(`Graphviz worker: ${e.message}`));
      pending.clear();
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, dot, compact });
  });
}

/** How each node kind is drawn: Graphviz shape, fill, and the legend's word for it. */
export const KIND_STYLE = {
  resource: { shape: "box", fill: "#e3f2fd", legend: "resource" },
  data: { shape: "box", fill: "#e0f2f1", style: "filled,rounded", legend: "data source" },
  destroy: { shape: "box", fill: "#ffebee", style: "filled,dashed", legend: "destroy" },
  provider: { shape: "diamond", fill: "#fff8e1", legend: "provider" },
  provider_close: { shape: "diamond", fill: "#f5f5f5", style: "filled,dashed", legend: "provider close" },
  variable: { shape: "note", fill: "#f3e5f5", legend: "variable" },
  local: { shape: "ellipse", fill: "#ede7f6", legend: "local" },
  output: { shape: "cds", fill: "#e8f5e9", legend: "output" },
  module: { shape: "folder", fill: "#fffde7", legend: "module expand/close" },
  root: { shape: "doublecircle", fill: "#eceff1", legend: "root" },
  check: { shape: "hexagon", fill: "#fce4ec", legend: "check / validation" },
  other: { shape: "box", fill: "#f5f5f5", style: "filled,dotted", legend: "other" },
};

/** The style group of a node: `kind` from the package, `data` for data sources. */
export function styleOf(kind, address = "") {
  if (kind.startsWith("resource")) {
    if (/destroy|orphan|deposed|forget/.test(kind)) return "destroy";
    return /(^|\.)data\./.test(address) ? "data" : "resource";
  }
  if (kind === "provider" || kind === "provider_proxy") return "provider";
  if (kind === "provider_close") return "provider_close";
  if (kind === "root_variable" || kind === "module_variable") return "variable";
  if (kind === "local") return "local";
  if (kind === "output" || kind === "output_destroy") return "output";
  if (kind === "module_expand" || kind === "module_close") return "module";
  if (kind === "root") return "root";
  if (kind === "check" || kind === "check_report" || kind === "variable_validation") return "check";
  return "other";
}

/** A DOT double-quoted string: `\` and `"` escaped, `&` as an entity, newlines as `\n`. */
export function dotString(s) {
  return `"${String(s).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/&/g, "&amp;").replace(/\r?\n/g, "\\n")}"`;
}

/**
 * DOT for a model: `{ nodes: [{ id, label, style, module }], edges: [{ id, from, to, cycle,
 * added, removed }] }` (ids are safe identifiers chosen by the caller).
 */
export function toDot(model) {
  const out = [
    "digraph tfgraph {",
    '  rankdir="BT"; bgcolor="transparent"; nodesep=0.25; ranksep=0.45; newrank=true;',
    '  node [fontname="Courier" fontsize=11 style="filled" color="#7b8794" penwidth=1 height=0.35 margin="0.12,0.04"];',
    '  edge [color="#8f9aa7" arrowsize=0.6 penwidth=1];',
  ];
  // Compact: small unlabelled boxes and straight edges (the names stay in each node's tooltip):
  // no text to shape and rasterise, a smaller SVG to parse, a faster Graphviz.
  // nslimit=0.1 caps the network simplex that places nodes across each rank, where dot spends
  // most of a large layout: 2,000 resources laid out in a quarter of the CPU time, the same size
  // and crossings (bench/page/graphviz.mjs).
  if (model.compact) out.push('  splines="line"; nodesep=0.12; ranksep=0.6; nslimit=0.1;', '  node [width=0.3 height=0.2 fixedsize=true];');
  // Clusters: one per module path, nested like the modules.
  const tree = { children: new Map(), nodes: [] };
  for (const n of model.nodes) {
    let at = tree;
    if (n.module) {
      const parts = n.module.match(/module\.[^.[]+(?:\[[^\]]*\])?/g) ?? [n.module];
      let path = "";
      for (const p of parts) {
        path = path ? `${path}.${p}` : p;
        if (!at.children.has(path)) at.children.set(path, { children: new Map(), nodes: [] });
        at = at.children.get(path);
      }
    }
    at.nodes.push(n);
  }
  let clusters = 0;
  const emit = (branch, indent) => {
    for (const n of branch.nodes) {
      const s = KIND_STYLE[n.style] ?? KIND_STYLE.other;
      const attrs = [
        `id=${dotString(n.id)}`,
        `class=${dotString(`kind-${n.style}`)}`,
        `label=${model.compact ? '""' : dotString(n.label)}`,
        `shape=${s.shape}`,
        `fillcolor=${dotString(s.fill)}`,
      ];
      if (s.style) attrs.push(`style=${dotString(s.style)}`);
      out.push(`${indent}${n.id} [${attrs.join(" ")}];`);
    }
    for (const [path, child] of branch.children) {
      const id = `cluster_${clusters++}`;
      out.push(`${indent}subgraph ${id} {`);
      out.push(`${indent}  id=${dotString(id)}; class="module-cluster"; label=${dotString(path)}; labeljust="l"; fontname="Courier"; fontsize=10; style="rounded,dashed"; color="#9aa5b1"; fontcolor="#52606d";`);
      emit(child, `${indent}  `);
      out.push(`${indent}}`);
    }
  };
  emit(tree, "  ");
  for (const e of model.edges) {
    const attrs = [`id=${dotString(e.id)}`];
    const cls = ["dep"];
    if (e.cycle) {
      cls.push("cycle");
      attrs.push('color="#d32f2f"', "penwidth=2.2");
    }
    if (e.added) {
      cls.push("added");
      attrs.push('color="#2e7d32"', "penwidth=2.2");
    }
    if (e.removed) {
      cls.push("removed");
      attrs.push('color="#c62828"', 'style="dashed"', "penwidth=1.6");
    }
    attrs.push(`class=${dotString(cls.join(" "))}`);
    out.push(`  ${e.from} -> ${e.to} [${attrs.join(" ")}];`);
  }
  out.push("}");
  return out.join("\n");
}

/**
 * @param {HTMLElement} container
 * @param {{ onNode: (name: string) => void, onEdge: (from: string, to: string) => void,
 *           onBackground: () => void }} handlers
 */
export function createGraphView(container, { onNode, onEdge, onBackground }) {
  let svg = null;
  let base = null; // the full drawing's viewBox
  let box = null; // the current viewBox
  let byName = new Map(); // node name → <g>
  let nameOf = new Map(); // svg id → node name
  let edgeEnds = new Map(); // svg id → [from name, to name]
  let edgesOf = new Map(); // node name → [<g> edge]
  // The compact drawing has no element per edge (layout-worker.js): a selected node's edges are
  // drawn on top from their geometry.
  let compactEdges = null; // null, or node name → [{ id, from, to, d, arrow, stroke, width }]
  let overlay = null; // the <g> of those edges
  let generation = 0;
  /**
   * A large drawing's walk states: `{ canvas, ctx, graph, shapes: Map name → { path, fill },
   * states: Map name → state, frame }`, made on the first state set; null otherwise.
   */
  let fills = null;

  const dropFills = () => {
    if (!fills) return;
    cancelAnimationFrame(fills.frame);
    fills.canvas.remove();
    fills = null;
  };
  /** Puts the canvas under the drawing and takes the nodes' fills off the SVG (render). */
  const startFills = () => {
    const canvas = document.createElement("canvas");
    canvas.className = "state-fills";
    canvas.setAttribute("aria-hidden", "true");
    canvas.dataset.testid = "state-fills";
    const shapes = new Map();
    for (const [name, g] of byName) {
      const shape = g.querySelector(":scope > polygon, :scope > ellipse, :scope > path");
      if (shape) shapes.set(name, { g, path: shapePath(shape), fill: shape.getAttribute("fill") ?? "#fff" });
    }
    container.prepend(canvas);
    svg.classList.add("state-fills-on");
    fills = { canvas, ctx: canvas.getContext("2d"), graph: svg.querySelector("g.graph") ?? svg, shapes, states: new Map(), frame: 0 };
  };
  /** Draws every node's fill (its state's colour, else its own) under the drawing, next frame. */
  const paintFills = () => {
    if (!fills || fills.frame) return;
    fills.frame = requestAnimationFrame(() => {
      if (!fills) return;
      fills.frame = 0;
      const { canvas, ctx, graph, shapes, states } = fills;
      const r = container.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      const w = Math.round(r.width * dpr);
      const h = Math.round(r.height * dpr);
      if (canvas.width !== w || canvas.height !== h) Object.assign(canvas, { width: w, height: h });
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, w, h);
      const m = graph.getScreenCTM();
      if (!m) return;
      ctx.setTransform(dpr * m.a, dpr * m.b, dpr * m.c, dpr * m.d, dpr * (m.e - r.left), dpr * (m.f - r.top));
      ctx.lineWidth = 3;
      // A selection or a search dims the other nodes (style.css does it to the SVG's part).
      const selecting = svg.classList.contains("has-selection");
      const searching = svg.classList.contains("searching");
      for (const [name, { g, path, fill }] of shapes) {
        const state = states.get(name);
        const dim = (selecting && !g.classList.contains("selected") && !g.classList.contains("neighbour")) || (searching && !g.classList.contains("match"));
        ctx.globalAlpha = dim ? 0.3 : 1;
        ctx.fillStyle = STATE_FILL[state] ?? fill;
        ctx.fill(path);
        if (STATE_STROKE[state]) {
          ctx.strokeStyle = STATE_STROKE[state];
          ctx.stroke(path);
        }
      }
    });
  };

  /**
   * The drawing is sized in pixels, never in percent: Chromium lays out a percent-sized SVG
   * again whenever anything else on the page changes size or text (a walk's progress line cost
   * 20-150 ms of layout per update on the 501-node fan-out); a pixel-sized one stays a layout
   * boundary. A ResizeObserver keeps the size in step with the panel.
   */
  const sizeToContainer = (r = container.getBoundingClientRect()) => {
    if (!svg) return;
    svg.style.width = `${r.width}px`;
    svg.style.height = `${r.height}px`;
  };
  // The view is fit()'s (no zoom, pan or centring since): a panel that changes size (a window
  // narrowed to a phone's) fits it again, instead of keeping the old scale and centre.
  let fitted = false;
  new ResizeObserver(() => {
    sizeToContainer();
    if (fitted && container.clientWidth > 0 && container.clientHeight > 0) api.clipped = api.fit();
    paintFills();
  }).observe(container);

  const setBox = (b) => {
    box = b;
    fitted = false;
    svg?.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
    paintFills();
  };

  /** A point of the container (client coordinates) in drawing coordinates. */
  const toDrawing = (clientX, clientY) => {
    const r = container.getBoundingClientRect();
    // preserveAspectRatio xMidYMid meet: one scale, centred.
    const scale = Math.max(box.w / r.width, box.h / r.height);
    const x = box.x + (box.w - r.width * scale) / 2 + (clientX - r.left) * scale;
    const y = box.y + (box.h - r.height * scale) / 2 + (clientY - r.top) * scale;
    return { x, y, scale };
  };

  const zoom = (factor, clientX, clientY) => {
    if (!box) return;
    const r = container.getBoundingClientRect();
    const p = toDrawing(clientX ?? r.left + r.width / 2, clientY ?? r.top + r.height / 2);
    const w = Math.min(base.w * 8, Math.max(base.w / 40, box.w / factor));
    const k = w / box.w;
    setBox({ x: p.x - (p.x - box.x) * k, y: p.y - (p.y - box.y) * k, w, h: box.h * k });
  };

  container.addEventListener(
    "wheel",
    (e) => {
      if (!svg) return;
      e.preventDefault();
      zoom(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
    },
    { passive: false },
  );

  // Drag pans; a press that barely moves is a click.
  let drag = null;
  container.addEventListener("pointerdown", (e) => {
    if (!svg || e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, box: { ...box }, moved: false, id: e.pointerId };
  });
  container.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (!drag.moved) container.setPointerCapture?.(drag.id);
    drag.moved = true;
    container.classList.add("panning");
    const r = container.getBoundingClientRect();
    const scale = Math.max(drag.box.w / r.width, drag.box.h / r.height);
    setBox({ ...drag.box, x: drag.box.x - dx * scale, y: drag.box.y - dy * scale });
  });
  const endDrag = (e) => {
    if (!drag) return;
    const wasClick = !drag.moved;
    drag = null;
    container.classList.remove("panning");
    if (!wasClick || e.type !== "pointerup") return;
    const target = e.target instanceof Element ? e.target : null;
    const node = target?.closest("g.node");
    const edge = target?.closest("g.edge");
    if (node && nameOf.has(node.id)) onNode(nameOf.get(node.id));
    else if (edge && edgeEnds.has(edge.id)) onEdge(...edgeEnds.get(edge.id));
    else onBackground();
  };
  // Tooltips: a node's or edge's <title> is made when the pointer first reaches it (the layout
  // worker drops Graphviz's, which name our ids), so a large drawing parses without them.
  container.addEventListener("pointerover", (e) => {
    const g = e.target instanceof Element ? e.target.closest("g.node, g.edge") : null;
    if (g) ensureTitle(g);
  });
  container.addEventListener("pointerup", endDrag);
  container.addEventListener("pointercancel", endDrag);

  /** Gives a drawn node or edge its tooltip, once: the node's name, or "a depends on b". */
  const ensureTitle = (g) => {
    if (g.querySelector(":scope > title")) return;
    const text = nameOf.has(g.id) ? nameOf.get(g.id) : edgeEnds.has(g.id) ? `${edgeEnds.get(g.id)[0]} depends on ${edgeEnds.get(g.id)[1]}` : null;
    if (text === null) return;
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = text;
    g.prepend(title);
  };

  const api = {
    /**
     * Draws `model`: `{ nodes: [{ name, label, style, module }], edges: [{ from, to, cycle?,
     * added?, removed? }], compact? }` (names, not ids; compact: unlabelled, see toDot). Graphviz runs in a worker. Resolves to the
     * milliseconds its layout took, or null when a newer render superseded this one.
     */
    async render(model) {
      const mine = ++generation;
      const ids = new Map(model.nodes.map((n, i) => [n.name, `n${i}`]));
      const dotModel = {
        compact: model.compact === true,
        nodes: model.nodes.map((n) => ({ ...n, id: ids.get(n.name) })),
        edges: model.edges
          .filter((e) => ids.has(e.from) && ids.has(e.to))
          .map((e, i) => ({ ...e, id: `e${i}`, from: ids.get(e.from), to: ids.get(e.to) })),
      };
      const dot = toDot(dotModel);
      const { svg: text, ms, edges: geometry } = await layout(dot, dotModel.compact);
      if (mine !== generation) return null;
      // Graphviz's SVG, parsed as XML (never as HTML): its text is escaped XML from our DOT.
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const element = doc.documentElement;
      if (element.nodeName !== "svg" || doc.querySelector("parsererror")) throw new Error("Graphviz produced SVG that does not parse");

      byName = new Map();
      nameOf = new Map();
      edgeEnds = new Map();
      edgesOf = new Map();
      compactEdges = geometry ? new Map() : null;
      overlay = null;
      const names = new Map([...ids].map(([name, id]) => [id, name]));
      for (const g of element.querySelectorAll("g.node")) {
        const name = names.get(g.id);
        if (name === undefined) continue;
        byName.set(name, g);
        nameOf.set(g.id, name);
        g.dataset.name = name;
        g.setAttribute("data-testid", "graph-node");
      }
      const edgeById = new Map(dotModel.edges.map((e) => [e.id, e]));
      if (geometry) {
        for (const e of dotModel.edges) {
          const at = geometry[e.id];
          if (!at) continue;
          const record = { id: e.id, from: names.get(e.from), to: names.get(e.to), ...at };
          for (const n of [record.from, record.to]) {
            if (!compactEdges.has(n)) compactEdges.set(n, []);
            compactEdges.get(n).push(record);
          }
        }
      }
      for (const g of element.querySelectorAll("g.edge")) {
        const e = edgeById.get(g.id);
        if (!e) continue;
        const ends = [names.get(e.from), names.get(e.to)];
        edgeEnds.set(g.id, ends);
        g.dataset.from = ends[0];
        g.dataset.to = ends[1];
        g.setAttribute("data-testid", "graph-edge");
        for (const n of ends) {
          if (!edgesOf.has(n)) edgesOf.set(n, []);
          edgesOf.get(n).push(g);
        }
      }
      for (const g of element.querySelectorAll("g.cluster")) {
        const title = g.querySelector("title");
        if (title) title.textContent = g.querySelector("text")?.textContent ?? "";
      }
      const vb = element.viewBox.baseVal;
      base = { x: vb.x, y: vb.y, w: vb.width || 1, h: vb.height || 1 };
      element.removeAttribute("width");
      element.removeAttribute("height");
      element.setAttribute("preserveAspectRatio", "xMidYMid meet");
      element.setAttribute("data-testid", "graph-svg");
      // The panel's size is read before the drawing goes in: read after, it would force Chromium
      // to lay out the whole new SVG at once inside this task (0.6 s for 2,000 nodes) instead of
      // in the next frame's rendering.
      const rect = container.getBoundingClientRect();
      dropFills();
      svg = element;
      // A large drawing's fills are the canvas's from the start: a walk then never restyles
      // the SVG, not even once when it begins.
      if (byName.size > FILLS_ABOVE) svg.classList.add("state-fills-on");
      container.replaceChildren(svg);
      if (byName.size > FILLS_ABOVE) startFills();
      sizeToContainer(rect);
      api.clipped = api.fit(rect);
      return ms;
    },
    clear(message) {
      generation++;
      dropFills();
      svg = null;
      byName = new Map();
      container.replaceChildren();
      if (message) {
        const p = document.createElement("p");
        p.className = "graph-empty";
        p.textContent = message;
        container.append(p);
      }
    },
    /**
     * Shows the whole drawing (with a little room), never magnified past 1.5×; a drawing too
     * large to read that way (a 500-resource fan-out is one row of 500 boxes) opens on its
     * centre at a readable scale, to be panned or zoomed out. Returns whether it was clipped.
     */
    fit(r = container.getBoundingClientRect()) {
      if (!svg) return;
      const pad = 12;
      const w0 = base.w + pad * 2;
      const h0 = base.h + pad * 2;
      const whole = Math.min(r.width / w0, r.height / h0);
      const scale = whole >= TOO_SMALL ? Math.min(1.5, whole) : READABLE;
      const w = r.width / scale;
      const h = r.height / scale;
      setBox({ x: base.x + base.w / 2 - w / 2, y: base.y + base.h / 2 - h / 2, w, h });
      fitted = true;
      return whole < TOO_SMALL;
    },
    zoomIn: () => zoom(1.25),
    zoomOut: () => zoom(0.8),
    /** Centres the view on a node. */
    centre(name) {
      const g = byName.get(name);
      if (!g || !svg) return;
      const r = g.getBoundingClientRect();
      const p = toDrawing(r.left + r.width / 2, r.top + r.height / 2);
      setBox({ ...box, x: p.x - box.w / 2, y: p.y - box.h / 2 });
    },
    /**
     * Highlights `name`, its neighbours and the edges between them (null clears). Returns
     * whether the node is drawn.
     */
    select(name) {
      if (!svg) return false;
      svg.classList.toggle("has-selection", name != null && byName.has(name));
      for (const el of svg.querySelectorAll(".selected, .neighbour, .active")) el.classList.remove("selected", "neighbour", "active");
      overlay?.remove();
      overlay = null;
      edgeEnds = compactEdges ? new Map() : edgeEnds;
      paintFills();
      const g = byName.get(name);
      if (!g) return false;
      g.classList.add("selected");
      if (compactEdges) {
        // The node's edges, drawn on top of the compact drawing's merged ones, each its own
        // element (clickable, like a full drawing's).
        const ns = "http://www.w3.org/2000/svg";
        overlay = document.createElementNS(ns, "g");
        overlay.setAttribute("class", "edges-selected");
        for (const e of compactEdges.get(name) ?? []) {
          const eg = document.createElementNS(ns, "g");
          eg.id = e.id;
          eg.setAttribute("class", `edge active${e.stroke === "#d32f2f" ? " cycle" : ""}`);
          eg.setAttribute("data-testid", "graph-edge");
          eg.dataset.from = e.from;
          eg.dataset.to = e.to;
          const title = document.createElementNS(ns, "title");
          title.textContent = `${e.from} depends on ${e.to}`;
          const path = document.createElementNS(ns, "path");
          path.setAttribute("fill", "none");
          path.setAttribute("stroke", e.stroke);
          path.setAttribute("d", e.d);
          eg.append(title, path);
          if (e.arrow) {
            const arrow = document.createElementNS(ns, "path");
            arrow.setAttribute("class", "arrow");
            arrow.setAttribute("fill", e.stroke);
            arrow.setAttribute("stroke", e.stroke);
            arrow.setAttribute("d", e.arrow);
            eg.append(arrow);
          }
          overlay.append(eg);
          edgeEnds.set(e.id, [e.from, e.to]);
          byName.get(e.from === name ? e.to : e.from)?.classList.add("neighbour");
        }
        svg.querySelector("g.graph")?.append(overlay);
        return true;
      }
      for (const e of edgesOf.get(name) ?? []) {
        e.classList.add("active");
        const other = e.dataset.from === name ? e.dataset.to : e.dataset.from;
        byName.get(other)?.classList.add("neighbour");
      }
      return true;
    },
    /** Marks the nodes whose name contains `query` (case-insensitive); returns their names. */
    search(query) {
      if (!svg) return [];
      const q = query.trim().toLowerCase();
      const hits = [];
      for (const [name, g] of byName) {
        const hit = q !== "" && name.toLowerCase().includes(q);
        g.classList.toggle("match", hit);
        if (hit) hits.push(name);
      }
      svg.classList.toggle("searching", q !== "");
      paintFills();
      return hits;
    },
    /** Colours a node by walk state (`pending`, `running`, `done`, `failed`, `skipped`, `cancelled`, or null). */
    setState(name, state) {
      const g = byName.get(name);
      if (!g) return;
      if (byName.size > FILLS_ABOVE) {
        // On the canvas (see FILLS_ABOVE); data-state says it to tests and tools, and no style
        // rule reads it, so the SVG is not restyled.
        if (state) g.dataset.state = state;
        else delete g.dataset.state;
        fills.states.set(name, state);
        paintFills();
        return;
      }
      if (g.dataset.state) g.classList.remove(`state-${g.dataset.state}`);
      if (state) {
        g.dataset.state = state;
        g.classList.add(`state-${state}`);
      } else delete g.dataset.state;
    },
    has: (name) => byName.has(name),
    /** The tooltip of a drawn node (made now if the pointer has not reached it yet). */
    tooltip(name) {
      const g = byName.get(name);
      if (!g) return null;
      ensureTitle(g);
      return g.querySelector(":scope > title").textContent;
    },
    names: () => [...byName.keys()],
  };
  return api;
}
