// The web playground's budget, printed by `./build.sh bench`: bytes over the wire for a first
// visit (compressed, as sent by `heaplab serve`), time until the editor is usable, until the
// engine answers, and until Z3 is ready; then the same for a second visit (service worker and
// caches warm). A table, no assertions. Needs `./build.sh build` and Chromium.
// Usage: node tests/bench/web-budget.mjs

import { launch, startServer } from '../browser/helpers.mjs';
import { totalBytes, transferred as transferredIn } from './page-bytes.mjs';

const transferred = () => transferredIn(page);

const server = await startServer();
const browser = await launch();
const { page } = browser;

await page.goto(server.url, { waitUntil: 'domcontentloaded' });
await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout: 180000 });
const first = await page.evaluate(() => globalThis.__heaplab.marks);
const firstBytes = await transferred();
// Let the service worker finish its precache (it revalidates against the HTTP cache).
await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 180000 })
  .catch(() => {});
await page.reload({ waitUntil: 'domcontentloaded' });
await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout: 180000 });
const second = await page.evaluate(() => globalThis.__heaplab.marks);
const secondBytes = await transferred();

await browser.close();
await server.stop();

const sum = totalBytes;
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const ms = (n) => (typeof n === 'number' ? `${Math.round(n)} ms` : 'n/a');
const name = (url) => new URL(url, server.url).pathname.replace(/^\//, '') || '(page)';

console.log('\n### Web playground budget (heaplab serve, gzip, fresh Chromium profile)\n');
console.log('| visit | bytes over the wire | editor usable | engine ready | Z3 ready |');
console.log('|---|---:|---:|---:|---:|');
console.log(`| first | ${kb(sum(firstBytes))} | ${ms(first.editorReady)} | ${ms(first.engineReady)} | ${ms(first.z3Ready)} |`);
console.log(`| second (cached) | ${kb(sum(secondBytes))} | ${ms(second.editorReady)} | ${ms(second.engineReady)} | ${ms(second.z3Ready)} |`);
console.log('\nFirst visit by file (compressed bytes):\n');
console.log('| file | bytes |');
console.log('|---|---:|');
const files = new Map();
for (const { name: url, transferSize } of firstBytes) files.set(name(url), (files.get(name(url)) ?? 0) + transferSize);
for (const [file, n] of [...files].sort((a, b) => b[1] - a[1])) console.log(`| ${file} | ${kb(n)} |`);
console.log('\nTimes are from navigation start (performance.now() in the page). The service worker\'s\nprecache revalidates against the HTTP cache after Z3 is ready and is not counted.');
