// The wasm API of symheap's views (#15 item 5): `Exploration.view` carries the references,
// locations and guarded value sets of a `symheap` node, and `Exploration.worlds` its concrete
// worlds (decided in Rust). Oracles: the view's own entries (a world picks one entry of every
// reference, in range, every world different), and the lazy family, whose views have none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { engineAndBridge, ROOT } from './helpers.mjs';

const lab = engineAndBridge();

async function explore(strategy) {
  const source = await readFile(path.join(ROOT, 'examples', 'heapsummary.hl'), 'utf8');
  const ex = new lab.engine.Exploration(source, 'LinkedList.run1', { strategy, bounds: { k: 3 }, file: 'heapsummary.hl' }, lab.bridge.solve);
  await ex.runToEnd(0);
  return ex;
}

test('symheap nodes have guarded value sets and distinct concrete worlds', async () => {
  const ex = await explore('symheap');
  try {
    let withWorlds = 0;
    let aliased = 0;
    for (const node of ex.tree()) {
      const view = ex.view(node.id);
      if (!view) continue;
      assert.ok(view.symheap, `node ${node.id} has a symheap part`);
      assert.deepEqual(view.objects, []);
      const locs = new Set(view.symheap.locs.map((l) => l.id));
      for (const r of view.symheap.refs) {
        assert.ok(r.entries.length >= 1, r.id);
        for (const e of r.entries) assert.ok(e.loc === null || locs.has(e.loc), `${r.id} → ${e.loc} is listed`);
        if (r.entries.filter((e) => e.loc !== null).length >= 2) aliased += 1;
      }
      if (node.outcome !== 'returned') continue;
      const w = ex.worlds(node.id);
      assert.ok(w.worlds.length >= 1, `a returned path has a world: ${JSON.stringify(w)}`);
      const seen = new Set();
      for (const world of w.worlds) {
        assert.equal(world.length, view.symheap.refs.length);
        world.forEach((i, k) => assert.ok(i >= 0 && i < view.symheap.refs[k].entries.length));
        assert.ok(!seen.has(world.join()), 'worlds are distinct');
        seen.add(world.join());
      }
      withWorlds += 1;
    }
    assert.ok(withWorlds > 0 && aliased > 0, `${withWorlds} paths with worlds, ${aliased} aliased references`);
  } finally {
    ex.free();
  }
});

test('lazy nodes have no symheap part and no worlds', async () => {
  const ex = await explore('lazy');
  try {
    const node = ex.tree()[1];
    assert.equal(ex.view(node.id).symheap, null);
    assert.equal(ex.worlds(node.id), null);
  } finally {
    ex.free();
  }
});
