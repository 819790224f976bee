// The web playground's budget, printed by `./build.sh bench`: bytes over the wire for a first
// visit (compressed, as sent by `heaplab serve`; no Z3, which loads only when asked), time until
// the editor is usable, until the engine answers, and until Z3 is ready once the first query that
// needs it arrives (`factor` of crates/heaplab-cli/tests/data/nonlinear.hl: a product of two
// unknowns, which the Rust procedure leaves to Z3),
// with the bytes over the wire after that query; then the same for a second visit (service worker
// and caches warm). A table, no assertions. Needs `./build.sh build` and Chromium.
// Usage: node tests/bench/web-budget.mjs

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launch, ROOT, startServer } from '../browser/helpers.mjs';
import { totalBytes, transferred as transferredIn } from './page-bytes.mjs';

const transferred = () => transferredIn(page);

const server = await startServer();
const browser = await launch();
const { page } = browser;

// Z3 loads only when something needs it: the visit is measured without it, then a query that
// needs Z3 (the Compare tab's request for nonlinear.hl's `factor`) starts it, for the time to Z3 ready
// and the bytes after it.
const nonlinear = await readFile(join(ROOT, 'crates', 'heaplab-cli', 'tests', 'data', 'nonlinear.hl'), 'utf8');
async function visit() {
  await page.getByText('Engine ready', { exact: true }).waitFor({ timeout: 180000 });
  await page.waitForTimeout(1000);
  const bytes = await transferred();
  const z3Before = await page.evaluate(() => globalThis.__heaplab.engine.z3Started);
  const sent = await page.evaluate(async (src) => {
    const [r] = await globalThis.__heaplab.engine.request('compare',
      { source: src, method: 'factor', options: {}, strategies: ['lazier#'] });
    return r.solver_calls.sent;
  }, nonlinear);
  await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout: 180000 });
  const after = await transferred();
  return { bytes, after, z3Before, sent, marks: await page.evaluate(() => globalThis.__heaplab.marks) };
}
await page.goto(server.url, { waitUntil: 'domcontentloaded' });
const firstVisit = await visit();
const firstBytes = firstVisit.bytes;
// Let the service worker take control (it precaches all but Z3, and keeps Z3 once fetched).
await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 180000 })
  .catch(() => {});
await page.reload({ waitUntil: 'domcontentloaded' });
const secondVisit = await visit();

await browser.close();
await server.stop();

const sum = totalBytes;
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const ms = (n) => (typeof n === 'number' ? `${Math.round(n)} ms` : 'n/a');
const name = (url) => new URL(url, server.url).pathname.replace(/^\//, '') || '(page)';

console.log('\n### Web playground budget (heaplab serve, gzip, fresh Chromium profile)\n');
console.log('| visit | bytes over the wire before any Z3 query | Z3 worker started before it | bytes after the first Z3 query | queries sent to Z3 | editor usable | engine ready | Z3 ready (first query at engine ready) |');
console.log('|---|---:|---|---:|---:|---:|---:|---:|');
for (const [label, v] of [['first', firstVisit], ['second (cached)', secondVisit]]) {
  console.log(`| ${label} | ${kb(sum(v.bytes))} | ${v.z3Before ? 'yes' : 'no'} | ${kb(sum(v.after))} | ${v.sent} | ` +
    `${ms(v.marks.editorReady)} | ${ms(v.marks.engineReady)} | ${ms(v.marks.z3Ready)} |`);
}
console.log('\nFirst visit by file (compressed bytes):\n');
console.log('| file | bytes |');
console.log('|---|---:|');
const files = new Map();
for (const { name: url, transferSize } of firstBytes) files.set(name(url), (files.get(name(url)) ?? 0) + transferSize);
for (const [file, n] of [...files].sort((a, b) => b[1] - a[1])) console.log(`| ${file} | ${kb(n)} |`);
console.log('\nTimes are from navigation start (performance.now() in the page). Z3 is fetched only when\na query needs it, here one sent right after the engine answered.');
