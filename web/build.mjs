// Builds the static site in web/dist: `node build.mjs` (run by `./build.sh build`).
//
//   main.js      the page (src/main.js and its views), an ES module bundle
//   worker.js    the engine worker, a classic script bundle (the wasm engine; no Z3)
//   layout-worker.js  the execution tree's layout for large trees (src/draw/tree-layout.js)
//   z3-worker.js the Z3 worker, a classic script bundle (it importScripts Z3's glue); started
//                only when something needs Z3
//   sw.js        the service worker, with the asset list and a content hash baked in
//   heaplab_wasm_bg.wasm            the engine, from web/pkg (wasm-bindgen, see build_wasm)
//   z3-built.js, z3-built.wasm      Z3, copied as they are from node_modules/z3-solver/build
//   examples/*.hl, examples/index.json   the gallery: file, title and one-line description
//   examples/duels/*.hl                  the duels (a `// @duel` part: see src/duel.js), in the
//                                        index as `duels/NAME.hl` with `duel: true`
//   examples/java/*.java, examples/java/course/*.java   Java examples, in the index as
//                                        `java/NAME.java` with `lang: 'java'` and their `group`
//   style.css    src/style.css with the views' stylesheets it @imports, one bundle
//   index.html
//   FILE.br, FILE.gz  brotli and gzip copies of every asset, for servers that send precompressed
//                     files (`heaplab serve` does; so can most static hosts)
//
// Flags: --dev (no minification, inline source maps).

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const web = dirname(fileURLToPath(import.meta.url));

/**
 * The engine's wasm without its `name` section (the functions' names, a custom section the
 * module never reads): a sixth of the file before compression, and about as much of a first
 * visit. web/pkg keeps the names, for profiles and stack traces in node.
 */
function withoutNames(bytes) {
  const kept = [bytes.subarray(0, 8)];
  let at = 8;
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++];
    const size = leb();
    const body = at;
    at = body + size;
    if (at > bytes.length) throw new Error('withoutNames: a section runs past the end of the module');
    if (id === 0) {
      const saved = at;
      at = body;
      const nameLength = leb();
      const name = new TextDecoder().decode(bytes.subarray(at, at + nameLength));
      at = saved;
      if (name === 'name') continue;
    }
    kept.push(bytes.subarray(start, at));
  }
  return Buffer.concat(kept);
}
const root = join(web, '..');
const dist = join(web, 'dist');
const dev = process.argv.includes('--dev');

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Title and one-line description from an example's leading `//` comment: the first line is the
 * title; the description is the first sentence of the lines after it (up to a `Source:` line).
 */
export function describeExample(text) {
  const lines = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\s?(.*)$/.exec(line);
    if (!m) break;
    lines.push(m[1].trim());
  }
  return { title: lines[0] || '', description: firstSentence(lines.slice(1)) };
}

/** The first sentence of a comment's lines (up to a blank or a `Source:` line), cut short. */
function firstSentence(lines) {
  const rest = [];
  for (const line of lines) {
    if (line === '' || /^(Source|Where it comes from):/.test(line)) break;
    rest.push(line);
  }
  let description = rest.join(' ');
  const end = /[.;](\s+(?=[A-Z(])|$)/.exec(description);
  if (end) description = description.slice(0, end.index);
  // A long sentence keeps its part before the first colon ("X: the methods ...").
  const colon = description.indexOf(': ');
  if (description.length > 120 && colon > 0 && colon <= 120) description = description.slice(0, colon);
  if (description.length > 140) description = `${description.slice(0, 137).replace(/\s+\S*$/, '')}…`;
  return description;
}

/**
 * Title and description of a Java example: the file's name (`LinkedStack.java`) and the first
 * sentence of its first `/** … *\/` comment (the class's Javadoc).
 */
export function describeJava(text, file) {
  const doc = /\/\*\*([\s\S]*?)\*\//.exec(text);
  const lines = doc ? doc[1].split('\n').map((l) => l.replace(/^\s*\*?\s?/, '').trim()) : [];
  while (lines.length > 0 && lines[0] === '') lines.shift();
  return { title: file.split('/').pop(), description: firstSentence(lines) };
}

/**
 * Writes FILE.br and FILE.gz beside each asset. Brotli runs at its best quality on every file
 * but Z3's wasm (35 MB), where 11 would take minutes for a few percent and 9 is kept. The
 * engine's wasm, every first visit's largest file, is worth the ten seconds 11 takes on it:
 * 1.12 MB against 1.28 MB at 9.
 * Compressing Z3 alone takes most of a rebuild, so each result is kept under the hash of what
 * it compressed (in `target/precompressed/`, which a clean checkout does not have): a rebuild
 * with nothing changed copies instead of compressing (`./build.sh serve` starts in seconds).
 */
export async function precompress(dir, assets) {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  const cache = join(root, 'target', 'precompressed');
  await mkdir(cache, { recursive: true });
  let sizes = { br: 0, gz: 0 };
  const used = new Set();
  await Promise.all(assets.map(async (asset) => {
    const path = join(dir, asset);
    const raw = await readFile(path);
    const quality = raw.length > 16e6 ? 9 : zlib.BROTLI_MAX_QUALITY;
    const key = createHash('sha256').update(raw).digest('hex');
    const cached = async (ext, make) => {
      const name = `${key}.q${quality}.${ext}`;
      used.add(name);
      const file = join(cache, name);
      try {
        return await readFile(file);
      } catch {
        const bytes = await make();
        // Written under a temporary name and renamed: an interrupted build leaves no half file.
        await writeFile(`${file}.tmp`, bytes);
        await rename(`${file}.tmp`, file);
        return bytes;
      }
    };
    const [b, g] = await Promise.all([
      cached('br', () => br(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } })),
      cached('gz', () => gz(raw, { level: 9 })),
    ]);
    await writeFile(`${path}.br`, b);
    await writeFile(`${path}.gz`, g);
    sizes = { br: sizes.br + b.length, gz: sizes.gz + g.length };
  }));
  // Only this build's results stay: the cache never outgrows one build.
  for (const name of await readdir(cache)) {
    if (!used.has(name)) await rm(join(cache, name), { force: true });
  }
  return sizes;
}

/** Examples in the order of examples/README.md's table (simplest first), then any others. */
async function examplesIndex(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.hl')).sort();
  let order = [];
  try {
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    order = [...readme.matchAll(/^\|\s*`([^`]+\.hl)`/gm)].map((m) => m[1]);
  } catch {
    // No README: alphabetical.
  }
  const rank = (f) => (order.includes(f) ? order.indexOf(f) : order.length);
  files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const index = [];
  for (const file of files) {
    const { title, description } = describeExample(await readFile(join(dir, file), 'utf8'));
    index.push({ file, title: title || file, description });
  }
  return index;
}

async function main() {
  const pkg = join(web, 'pkg');
  const z3 = join(web, 'node_modules', 'z3-solver', 'build');
  for (const [path, fix] of [
    [join(pkg, 'heaplab_wasm.js'), 'build the wasm engine first: ./build.sh build'],
    [join(z3, 'z3-built.wasm'), 'install the npm packages first: ./build.sh setup'],
  ]) {
    if (!(await exists(path))) throw new Error(`missing ${path}: ${fix}`);
  }

  await rm(dist, { recursive: true, force: true, maxRetries: 5 });
  await mkdir(join(dist, 'examples'), { recursive: true });

  // Static files.
  await copyFile(join(web, 'index.html'), join(dist, 'index.html'));
  await writeFile(join(dist, 'heaplab_wasm_bg.wasm'), withoutNames(await readFile(join(pkg, 'heaplab_wasm_bg.wasm'))));
  await copyFile(join(z3, 'z3-built.js'), join(dist, 'z3-built.js'));
  await copyFile(join(z3, 'z3-built.wasm'), join(dist, 'z3-built.wasm'));
  const examplesDir = join(root, 'examples');
  const index = await examplesIndex(examplesDir);
  for (const { file } of index) await copyFile(join(examplesDir, file), join(dist, 'examples', file));
  if (await exists(join(examplesDir, 'duels'))) {
    await mkdir(join(dist, 'examples', 'duels'), { recursive: true });
    for (const entry of await examplesIndex(join(examplesDir, 'duels'))) {
      await copyFile(join(examplesDir, 'duels', entry.file), join(dist, 'examples', 'duels', entry.file));
      index.push({ ...entry, file: `duels/${entry.file}`, duel: true });
    }
  }
  // Java: examples/java/*.java (the twins of .hl examples) and examples/java/course/*.java
  // (public course classes as they are taught), each read in Java mode (`lang`), in a group of
  // their own.
  for (const [sub, group] of [['java', 'Java'], ['java/course', 'Java course classes']]) {
    const dir = join(examplesDir, sub);
    if (!(await exists(dir))) continue;
    await mkdir(join(dist, 'examples', sub), { recursive: true });
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.java')).sort()) {
      const text = await readFile(join(dir, file), 'utf8');
      await writeFile(join(dist, 'examples', sub, file), text);
      index.push({ ...describeJava(text, file), file: `${sub}/${file}`, lang: 'java', group });
    }
  }
  await writeFile(join(dist, 'examples', 'index.json'), `${JSON.stringify(index, null, 2)}\n`);

  const common = {
    bundle: true,
    minify: !dev,
    sourcemap: dev ? 'inline' : false,
    target: ['es2022'],
    logLevel: 'warning',
    legalComments: 'none',
  };
  const z3WasmBytes = (await stat(join(z3, 'z3-built.wasm'))).size;
  // One stylesheet: style.css @imports each view's own CSS file.
  await build({
    ...common,
    entryPoints: [join(web, 'src', 'style.css')],
    outfile: join(dist, 'style.css'),
  });
  // src/NAME bundled into dist/NAME for the browser: the page as a module, workers as classic scripts.
  const script = (name, options) => build({
    ...common,
    entryPoints: [join(web, 'src', name)],
    outfile: join(dist, name),
    platform: 'browser',
    format: 'iife',
    ...options,
  });
  await script('main.js', { format: 'esm' });
  await script('worker.js', {
    // wasm-bindgen's glue mentions import.meta.url, which a classic worker lacks; we always pass
    // the wasm URL explicitly, but give it the worker's URL so nothing is left undefined.
    banner: { js: 'var __heaplabWorkerUrl = self.location.href;' },
    define: { 'import.meta.url': '__heaplabWorkerUrl' },
  });
  await script('layout-worker.js');
  await script('z3-worker.js', { define: { __Z3_WASM_BYTES__: String(z3WasmBytes) } });

  // The service worker last: it lists (and hashes) everything above. Z3 is not precached (a
  // first visit must not download it); the service worker keeps it, under its own version, once
  // a question fetched it.
  const assets = ['./', 'index.html', 'style.css', 'main.js', 'worker.js', 'layout-worker.js', 'heaplab_wasm_bg.wasm',
    'examples/index.json', ...index.map(({ file }) => `examples/${file}`)];
  const z3Assets = ['z3-worker.js', 'z3-built.js', 'z3-built.wasm'];
  const digest = async (list) => {
    const hash = createHash('sha256');
    for (const asset of list) hash.update(asset).update(await readFile(join(dist, asset)));
    return hash.digest('hex').slice(0, 16);
  };
  const version = await digest(assets.slice(1));
  const z3Version = await digest(z3Assets);
  await script('sw.js', {
    define: {
      __ASSETS__: JSON.stringify(assets), __VERSION__: JSON.stringify(version),
      __Z3_ASSETS__: JSON.stringify(z3Assets), __Z3_VERSION__: JSON.stringify(z3Version),
    },
  });

  const files = [...assets.slice(1), ...z3Assets, 'sw.js'];
  let total = 0;
  for (const asset of files) total += (await stat(join(dist, asset))).size;
  const packed = await precompress(dist, files);
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(`web/dist: ${files.length + 1} assets, ${mb(total)} (brotli ${mb(packed.br)}, gzip ${mb(packed.gz)}), version ${version}, ${index.length} examples`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`build.mjs: ${err.message}`);
    process.exit(1);
  });
}
