// The web playground's budget, printed by `./build.sh bench`: bytes over the wire for a first
// visit (compressed, as sent by `heaplab serve`; no Z3, which loads only when asked), time until
// the editor is usable, until the engine answers, and until Z3 is ready once asked for; then the
// same for a second visit (service worker and caches warm). A table, no assertions. Needs
// `./build.sh build` and Chromium.
// Usage: node tests/bench/web-budget.mjs

import { launch, startServer } from '../browser/helpers.mjs';
import { totalBytes, transferred as transferredIn } from './page-bytes.mjs';

const transferred = () => transferredIn(page);

const server = await startServer();
const browser = await launch();
const { page } = browser;

// Z3 loads only when something needs it: the visit is measured without it, then Z3 is asked for
// (as the SMT console does) for the time to Z3 ready.
async function visit() {
  await page.getByText('Engine ready', { exact: true }).waitFor({ timeout: 180000 });
  await page.waitForTimeout(1000);
  const bytes = await transferred();
  await page.evaluate(() => globalThis.__heaplab.engine.loadZ3());
  await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout: 180000 });
  return { bytes, marks: await page.evaluate(() => globalThis.__heaplab.marks) };
}
await page.goto(server.url, { waitUntil: 'domcontentloaded' });
const { bytes: firstBytes, marks: first } = await visit();
// Let the service worker take control (it precaches all but Z3, and keeps Z3 once fetched).
await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 180000 })
  .catch(() => {});
await page.evaluate(() => globalThis.__heaplab.engine.request('smt', { text: '(check-sat)' }));
await page.reload({ waitUntil: 'domcontentloaded' });
const { bytes: secondBytes, marks: second } = await visit();

await browser.close();
await server.stop();

const sum = totalBytes;
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const ms = (n) => (typeof n === 'number' ? `${Math.round(n)} ms` : 'n/a');
const name = (url) => new URL(url, server.url).pathname.replace(/^\//, '') || '(page)';

console.log('\n### Web playground budget (heaplab serve, gzip, fresh Chromium profile)\n');
console.log('| visit | bytes over the wire (before Z3) | editor usable | engine ready | Z3 ready (asked for at engine ready) |');
console.log('|---|---:|---:|---:|---:|');
console.log(`| first | ${kb(sum(firstBytes))} | ${ms(first.editorReady)} | ${ms(first.engineReady)} | ${ms(first.z3Ready)} |`);
console.log(`| second (cached) | ${kb(sum(secondBytes))} | ${ms(second.editorReady)} | ${ms(second.engineReady)} | ${ms(second.z3Ready)} |`);
console.log('\nFirst visit by file (compressed bytes):\n');
console.log('| file | bytes |');
console.log('|---|---:|');
const files = new Map();
for (const { name: url, transferSize } of firstBytes) files.set(name(url), (files.get(name(url)) ?? 0) + transferSize);
for (const [file, n] of [...files].sort((a, b) => b[1] - a[1])) console.log(`| ${file} | ${kb(n)} |`);
console.log('\nTimes are from navigation start (performance.now() in the page). Z3 is fetched only when\nasked for, here right after the engine answered.');
