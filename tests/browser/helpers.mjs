// Shared setup of the browser tests: a `heaplab serve` of web/dist on a free port, and Debian's
// Chromium driven by playwright-core with a fresh profile. Every test starts and stops its own
// server and browser, so tests never depend on one another.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'web', 'package.json'));
const { chromium } = require('playwright-core');

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `target/release/heaplab serve web/dist` and resolves once it listens.
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function startServer(port) {
  port ??= await freePort();
  const bin = join(ROOT, 'target', 'release', 'heaplab');
  const child = spawn(bin, ['serve', join(ROOT, 'web', 'dist'), '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`heaplab serve did not start:\n${output}`)), 15000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Serving')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`heaplab serve exited with ${code}:\n${output}`));
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * Chromium with a fresh profile (a temporary user-data dir, removed by `close`). Console errors
 * and uncaught page errors are collected in `errors`. `serviceWorkers: 'block'` for a page that
 * must stay without cross-origin isolation.
 */
export async function launch({ viewport = { width: 1360, height: 860 }, serviceWorkers = 'allow' } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'heaplab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport,
    // 'block' keeps HeapLab's offline helper from adding COOP/COEP (a page that stays
    // without SharedArrayBuffer).
    serviceWorkers,
  });
  const errors = [];
  const watch = (page) => {
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => errors.push(`page: ${err.message}`));
  };
  context.on('page', watch);
  context.pages().forEach(watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Asks for Z3 (as opening the SMT console does: a page loads it only when something needs it)
 * and waits until the status line says it is ready (a real query answered by Z3 wasm).
 */
export async function waitForZ3(page, timeout = 120000) {
  await page.waitForFunction(() => globalThis.__heaplab?.engine, null, { timeout });
  await page.evaluate(() => globalThis.__heaplab.engine.loadZ3());
  await page.getByText('Z3 ready', { exact: true }).waitFor({ timeout });
}

/** Waits until the engine (wasm) has loaded. */
export async function waitForEngine(page, timeout = 30000) {
  await page.getByText('Engine ready', { exact: true }).waitFor({ timeout });
}

/** Replaces the editor's text the way a student would: select all, then type. */
export async function typeProgram(page, text) {
  const editor = page.getByRole('textbox', { name: 'Program editor' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  // insertText keeps the text exactly (typing would trigger auto-indent and bracket closing).
  await page.keyboard.insertText(text);
}

/** The Explore tab at the method whose option says `method`, under `strategy`. */
export async function chooseInExplore(page, method, strategy) {
  await page.getByRole('tab', { name: 'Explore' }).click();
  const select = page.getByRole('combobox', { name: 'Method' });
  const option = select.locator('option', { hasText: method }).first();
  await option.waitFor({ state: 'attached', timeout: 30000 });
  await select.selectOption(await option.getAttribute('value'));
  await page.getByRole('combobox', { name: 'Strategy' }).selectOption(strategy);
}

/**
 * A server and a browser for one test, both stopped when the test ends (`t.after`). The page is
 * not opened yet, so a test can set up routes first.
 */
export async function session(t, launchOptions) {
  const server = await startServer();
  const browser = await launch(launchOptions);
  t.after(async () => {
    await browser.close();
    await server.stop();
  });
  return { server, browser, page: browser.page };
}

/**
 * A static file server for `web/dist` (or a page given as text) with chosen response headers,
 * standing for the other hosts a course uses: a static host, an LMS page that embeds HeapLab.
 * `pages` maps a path (`/host.html`) to HTML served as it is.
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function startStatic({ root = join(ROOT, 'web', 'dist'), headers = {}, pages = {} } = {}) {
  const { createServer: createHttp } = await import('node:http');
  const { readFile: read } = await import('node:fs/promises');
  const { extname, normalize } = await import('node:path');
  const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
    '.json': 'application/json', '.hl': 'text/plain', '.png': 'image/png', '.svg': 'image/svg+xml' };
  const server = createHttp(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const send = (status, body, type) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    if (pages[path] !== undefined) return send(200, pages[path], 'text/html');
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root)) return send(403, 'forbidden', 'text/plain');
    try {
      return send(200, await read(file), TYPES[extname(file)] ?? 'application/octet-stream');
    } catch {
      return send(404, 'not found', 'text/plain');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    stop: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

/** The headers that make a page cross-origin isolated and let isolated pages frame it. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};
