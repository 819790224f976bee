// The web playground's budget, printed by `./build.sh bench`: bytes over the wire for a first
// visit (compressed, as sent by `heaplab serve`), time until the editor is usable, until the
// engine answers, and until Z3 is ready; then the same for a second visit (service worker and
// caches warm). A table, no assertions. Needs `./build.sh build` and Chromium.
// Usage: node tests/bench/web-budget.mjs

import { launch, startServer } from '../browser/helpers.mjs';

const server = await startServer();
const browser = await launch();
const { page, context } = browser;


// Every response of the page and its workers (playwright follows dedicated workers too):
// compressed body plus headers, as received. Answers of the service worker cost no network.
const byUrl = new Map();
context.on('requestfinished', async (request) => {
  const response = await request.response();
  if (!response || response.fromServiceWorker()) return;
  const sizes = await request.sizes().catch(() => null);
  if (!sizes) return;
  const n = sizes.responseBodySize + sizes.responseHeadersSize;
  byUrl.set(request.url(), (byUrl.get(request.url()) ?? 0) + n);
});

async function visit() {
  const started = Date.now();
  await page.reload({ waitUntil: 'domcontentloaded' }).catch(() => page.goto(server.url));
  await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout: 180000 });
  const marks = await page.evaluate(() => globalThis.__heaplab.marks);
  return { marks, wallMs: Date.now() - started };
}

await page.goto(server.url, { waitUntil: 'domcontentloaded' });
await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout: 180000 });
const first = await page.evaluate(() => globalThis.__heaplab.marks);
// Let the service worker finish its precache (it revalidates against the HTTP cache).
await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 180000 })
  .catch(() => {});
const firstBytes = new Map(byUrl);
byUrl.clear();
const second = (await visit()).marks;
const secondBytes = new Map(byUrl);

await browser.close();
await server.stop();

const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
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
for (const [url, n] of firstBytes) files.set(name(url), (files.get(name(url)) ?? 0) + n);
for (const [file, n] of [...files].sort((a, b) => b[1] - a[1])) console.log(`| ${file} | ${kb(n)} |`);
console.log('\nTimes are from navigation start (performance.now() in the page).');
