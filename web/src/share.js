// Persistence and share links. The program and settings live in localStorage between visits;
// a share link carries them in the URL fragment as deflate-raw compressed JSON in base64url
// (`#p=...`), so a link reproduces exactly what its author saw and never reaches a server log.

const STORAGE_KEY = 'heaplab:v1';
const FRAGMENT_KEY = 'p';

/**
 * Bounds on what a link may carry. Deflate expands up to about a thousand times, so a short
 * crafted link could decompress to hundreds of megabytes: the compressed text is checked before
 * decoding, and the decompressed size while it streams, stopping at the first byte too many.
 */
export const MAX_LINK_CHARS = 1_000_000;
export const MAX_SNAPSHOT_BYTES = 2 * 1024 * 1024;

const megabytes = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`;

/** The parts of the state that persist and travel in links. */
export function snapshot(state) {
  const { tab, formula, maxObjects, explore } = state.settings;
  // `explore`: the method, strategy and bounds, so a link opens the same exploration setup.
  const snap = { v: 1, source: state.source, settings: { tab, formula, maxObjects, explore } };
  // The language the program is read in ('java' or 'hl'), so that a link reopens a Java class
  // as Java even where the text alone would not say so. Links made before it have none: the
  // page then detects the language from the text.
  if (state.lang === 'java' || state.lang === 'hl') snap.lang = state.lang;
  // A duel whose reference is hidden travels with the link (compressed like the program).
  const d = state.duel;
  if (d?.hidden) snap.duel = { method: d.method, reference: d.reference, k: d.k, hidden: d.hidden };
  return snap;
}

export function loadLocal() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    return saved && typeof saved.source === 'string' ? saved : null;
  } catch {
    return null;
  }
}

export function saveLocal(snap) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(snap));
  } catch {
    // Storage full or disabled (private mode): the program simply does not persist.
  }
}

// ---- recent programs ---------------------------------------------------------------------------
// Every program the editor held before something replaced it (a share link, an example, another
// recent program) is kept here, newest first, so that no link or menu ever loses work.

const RECENT_KEY = 'heaplab:recent:v1';
/** How many programs the list keeps. */
export const RECENT_LIMIT = 12;

/** The recent programs: `[{ id, title, savedAt, snap }]`, newest first. */
export function loadRecent() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((r) => r && typeof r.snap?.source === 'string') : [];
  } catch {
    return [];
  }
}

function saveRecent(list) {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list));
    return true;
  } catch {
    // Storage full or disabled: the list stays as it was.
    return false;
  }
}

/**
 * A program's name in the list: the first line of its leading comment, else its first class or
 * function, else "Untitled program".
 */
export function programTitle(source) {
  const text = String(source ?? '');
  const comment = /^\s*\/\/\s*(\S.*)$/m.exec(text.split('\n').find((l) => l.trim() !== '') ?? '');
  if (comment) return comment[1].trim().slice(0, 80);
  const decl = /\b(class|pred)\s+([A-Za-z_]\w*)|\b[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s*\(/.exec(text);
  if (decl) return decl[2] ? `${decl[1]} ${decl[2]}` : `${decl[3]}(…)`;
  return 'Untitled program';
}

/**
 * Puts `snap` first in the recent list (the same program text is kept once) and returns the new
 * list; an empty program is not kept.
 */
export function rememberProgram(snap, now = Date.now()) {
  const list = loadRecent();
  if (!snap || typeof snap.source !== 'string' || snap.source.trim() === '') return list;
  const rest = list.filter((r) => r.snap.source !== snap.source);
  const entry = { id: `r${now.toString(36)}${Math.random().toString(36).slice(2, 6)}`, title: programTitle(snap.source), savedAt: now, snap };
  const next = [entry, ...rest].slice(0, RECENT_LIMIT);
  return saveRecent(next) ? next : list;
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('the link is damaged: its data is not base64url');
  const b64 = text.replaceAll('-', '+').replaceAll('_', '/');
  let binary;
  try {
    binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  } catch {
    throw new Error('the link is damaged: its data is not base64url');
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Inflates `bytes`, giving up as soon as the output passes `limit` bytes. */
async function inflateWithin(bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    let step;
    try {
      step = await reader.read();
    } catch {
      throw new Error('the link is damaged: its data does not decompress');
    }
    if (step.done) break;
    total += step.value.length;
    if (total > limit) {
      reader.cancel().catch(() => {});
      throw new Error(`the link's program is too large: it decompresses to more than ${megabytes(limit)}`);
    }
    chunks.push(step.value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function encodeSnapshot(snap) {
  const json = new TextEncoder().encode(JSON.stringify(snap));
  return toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
}

export async function decodeSnapshot(text) {
  if (text.length > MAX_LINK_CHARS) {
    throw new Error(`the link is too long: ${text.length} characters of data, at most ${MAX_LINK_CHARS}`);
  }
  const json = await inflateWithin(fromBase64Url(text), MAX_SNAPSHOT_BYTES);
  let snap;
  try {
    snap = JSON.parse(new TextDecoder().decode(json));
  } catch {
    throw new Error('the link is damaged: its data is not a HeapLab program');
  }
  if (!snap || typeof snap.source !== 'string') throw new Error('the link holds no program');
  return snap;
}

/**
 * The example named in a URL's fragment (`#example=bst.hl`), or null: a file of examples/, a
 * duel of examples/duels/ (`duels/NAME.hl`), or a Java example (`java/BST.java`,
 * `java/course/LinkedStack.java`).
 */
export function exampleFromUrl(url) {
  const name = new URLSearchParams(new URL(url).hash.slice(1)).get('example');
  return name && /^((duels\/)?[\w-][\w.-]*\.hl|java\/(course\/)?[\w-][\w.-]*\.java)$/.test(name) ? name : null;
}

/** The language a snapshot names (`'java'` or `'hl'`), or null for an older one without it. */
export function langOfSnapshot(snap) {
  return snap?.lang === 'java' || snap?.lang === 'hl' ? snap.lang : null;
}

/** The snapshot in a URL's fragment, or null when there is none; throws on a damaged link. */
export async function fromUrl(url) {
  const params = new URLSearchParams(new URL(url).hash.slice(1));
  const data = params.get(FRAGMENT_KEY);
  return data ? decodeSnapshot(data) : null;
}

/**
 * A link to the full page (or the embed view) reproducing `snap`.
 * @param {string} base the page URL; its query and fragment are replaced
 */
export async function shareUrl(base, snap, { embed = false } = {}) {
  const url = new URL(base);
  // `embed`: false, true (`?embed=1`, the Tests tab) or the tab to embed ('explore', 'tests', 'logic').
  url.search = embed ? `?embed=${embed === true ? 1 : embed}` : '';
  url.hash = `${FRAGMENT_KEY}=${await encodeSnapshot(snap)}`;
  return url.href;
}

/**
 * Height of the embedded frame per tab, so that what the tab shows fits without scrolling, in a
 * wide page (the program beside the tab) and in a narrow course column (the program above it):
 * Explore its controls, the tree and the heap; Logic the formula and its answer; a duel the
 * Check button and the first clue (tests/browser/embed.test.mjs checks each).
 */
export const EMBED_HEIGHTS = { explore: 900, tests: 520, logic: 680, duel: 680 };

/**
 * The `<iframe>` a course page pastes to embed `url`. `allow="cross-origin-isolated"` lets the
 * frame use Z3 when the course page itself is cross-origin isolated; elsewhere HeapLab runs
 * without Z3 and offers to open the program in a full page when a question needs it.
 */
export function iframeSnippet(url, tab = 'explore') {
  const height = EMBED_HEIGHTS[tab] ?? 600;
  const escaped = url.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return `<iframe src="${escaped}" title="HeapLab: ${tab}" width="100%" height="${height}" ` +
    'style="border:1px solid #ccc;border-radius:6px" allow="cross-origin-isolated; clipboard-write" loading="lazy"></iframe>';
}
