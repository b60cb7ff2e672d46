// The Plan / Apply tab's states, one per configuration (main.js keys each by what the share link
// carries), in the tab's sessionStorage: a reload or the same link again finds its state, and
// at most MAX_KEPT configurations are kept (a 2,000-resource state is ~2 MB of a ~5 MB quota).

/** Each configuration's state is under STORE + its key; KEYS lists the keys, oldest first. */
const STORE = "tfgraph.engine.state:";
const KEYS = "tfgraph.engine.keys";
const MAX_KEPT = 8;

/** `{ load(key), store(key, state) }` over a Storage (sessionStorage); never throws. */
export function keptStates(storage) {
  const keys = () => {
    try {
      const list = JSON.parse(storage.getItem(KEYS) ?? "[]");
      return Array.isArray(list) ? list.filter((k) => typeof k === "string") : [];
    } catch {
      return [];
    }
  };
  return {
    /** The state kept for `key`, or null. */
    load(key) {
      try {
        const s = JSON.parse(storage.getItem(STORE + key) ?? "null");
        return s && typeof s === "object" && !Array.isArray(s) ? s : null;
      } catch {
        return null;
      }
    },
    /** Keeps `state` for `key` (null: forgets it); the least recently kept go first when full. */
    store(key, state) {
      let others = keys().filter((k) => k !== key);
      const write = () => {
        for (const old of others.splice(0, Math.max(0, others.length - (MAX_KEPT - 1)))) storage.removeItem(STORE + old);
        if (state) storage.setItem(STORE + key, JSON.stringify(state));
        else storage.removeItem(STORE + key);
        storage.setItem(KEYS, JSON.stringify(state ? [...others, key] : others));
      };
      try {
        write();
      } catch {
        // Full: forget every other configuration's state and try once more; else the state
        // lives only in the page.
        try {
          for (const old of others) storage.removeItem(STORE + old);
          others = [];
          write();
        } catch {
          // Storage off, or this state alone too large.
        }
      }
    },
  };
}
