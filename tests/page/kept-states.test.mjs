// The Plan / Apply tab's kept states (www/src/kept-states.js) in Node, over a Storage stand-in
// with a quota: one state per configuration key, the oldest going first past eight or when the
// storage is full, unreadable entries read as none.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keptStates } from "../../www/src/kept-states.js";

/** A Storage with a quota in characters (keys and values), throwing as browsers do when full. */
function storage(quota = Infinity) {
  const items = new Map();
  const used = () => [...items].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    removeItem: (k) => items.delete(k),
    setItem(k, v) {
      const before = items.get(k);
      items.set(k, String(v));
      if (used() > quota) {
        if (before === undefined) items.delete(k);
        else items.set(k, before);
        throw new DOMException("full", "QuotaExceededError");
      }
    },
  };
}
const state = (serial, pad = "") => ({ version: 4, serial, resources: [], pad });

test("one state per configuration; null forgets it", () => {
  const s = storage();
  const kept = keptStates(s);
  kept.store("a", state(1));
  kept.store("b", state(2));
  assert.equal(kept.load("a").serial, 1);
  assert.equal(kept.load("b").serial, 2);
  assert.equal(kept.load("c"), null);
  kept.store("a", null);
  assert.equal(kept.load("a"), null);
  assert.equal(keptStates(s).load("b").serial, 2, "another page of the tab reads the same");
});

test("past eight configurations, the least recently kept goes first", () => {
  const kept = keptStates(storage());
  for (let i = 0; i < 9; i++) kept.store(`k${i}`, state(i));
  assert.equal(kept.load("k0"), null);
  assert.equal(kept.load("k8").serial, 8);
  kept.store("k1", state(11)); // kept again: the most recent now
  kept.store("k9", state(9));
  assert.equal(kept.load("k2"), null);
  assert.equal(kept.load("k1").serial, 11);
});

test("a full storage drops the other configurations' states for this one; too large alone, nothing is kept and nothing throws", () => {
  const s = storage(600);
  const kept = keptStates(s);
  kept.store("a", state(1, "x".repeat(200)));
  kept.store("b", state(2, "y".repeat(200)));
  kept.store("c", state(3, "z".repeat(200)));
  assert.equal(kept.load("c").serial, 3);
  assert.equal(kept.load("a"), null);
  kept.store("d", state(4, "w".repeat(5000)));
  assert.equal(kept.load("d"), null);
});

test("unreadable entries read as none", () => {
  const s = storage();
  s.setItem("tfgraph.engine.state:a", "{not json");
  s.setItem("tfgraph.engine.state:b", "[1,2]");
  s.setItem("tfgraph.engine.keys", "42");
  const kept = keptStates(s);
  assert.equal(kept.load("a"), null);
  assert.equal(kept.load("b"), null);
  kept.store("c", state(3));
  assert.equal(kept.load("c").serial, 3);
});
