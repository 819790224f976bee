// A path condition only Z3 decides (issue 30 item 2): `x * y == 391` in the wasm engine. With
// Z3 wasm the path that needs two factors above 1 gets its test; without Z3 (a page without
// cross-origin isolation) the run ends, and its paths without a test say in words that they
// need Z3, never that no path reached the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { engineAndBridge, ROOT } from './helpers.mjs';

const lab = engineAndBridge();
const FILE = 'crates/heaplab-cli/tests/data/nonlinear.hl';

for (const strategy of ['lazier#', 'sl']) {
  test(`factor under ${strategy}: Z3 wasm finds the factorization; without Z3 the path needs Z3`, async () => {
    const source = await readFile(path.join(ROOT, FILE), 'utf8');
    const options = { strategy, file: FILE };
    const withZ3 = new lab.engine.Exploration(source, 'factor', options, lab.bridge.solve);
    const a = await withZ3.runToEnd(0);
    assert.equal(a.paths_unknown, 0, JSON.stringify(a));
    assert.ok(withZ3.solverStats().sentToZ3 > 0, 'the product went to Z3');
    const hl = withZ3.testsHl();
    assert.match(hl, /assert r == 1;/, hl);
    // The emitted tests replay in the interpreter.
    const results = lab.engine.runTests(hl);
    assert.ok(results.length > 0 && results.every((r) => r.passed), JSON.stringify(results));

    const alone = new lab.engine.Exploration(source, 'factor', options, null);
    const b = await alone.runToEnd(0);
    assert.ok(b.paths_unknown > 0, JSON.stringify(b));
    assert.match(b.unknown_reason ?? '', /needs Z3/, JSON.stringify(b));
    assert.equal(alone.solverStats().sentToZ3, 0);
  });
}
