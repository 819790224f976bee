// Share links (web/src/share.js) under node's own CompressionStream: a round trip, and crafted
// links that must fail with a clear message instead of decompressing without bound (issue 21:
// a `#p=` link decompressed to 150 MB in the page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import {
  MAX_LINK_CHARS, MAX_SNAPSHOT_BYTES, decodeSnapshot, encodeSnapshot, fromUrl, shareUrl,
} from '../../web/src/share.js';

const b64url = (bytes) => Buffer.from(bytes).toString('base64url');

test('a snapshot survives the link', async () => {
  const snap = { v: 1, source: 'class A {\n  int x;\n}\n', settings: { tab: 'explore' } };
  const url = await shareUrl('http://h/heaplab/?q=1#old', snap);
  assert.deepEqual(await fromUrl(url), snap);
});

test('a link that inflates to 150 MB stops at the bound with a clear message', async () => {
  // 150 MB of spaces inside a JSON string: about 150 kB once deflated.
  const big = Buffer.alloc(150 * 1024 * 1024, 0x20);
  const payload = Buffer.concat([Buffer.from('{"v":1,"source":"'), big, Buffer.from('"}')]);
  const link = b64url(deflateRawSync(payload, { level: 9 }));
  assert.ok(link.length < MAX_LINK_CHARS, `${link.length}`);
  const before = process.memoryUsage().rss;
  await assert.rejects(decodeSnapshot(link), /too large: it decompresses to more than 2 MB/);
  const grown = process.memoryUsage().rss - before;
  assert.ok(grown < 64 * 1024 * 1024, `decoding grew the process by ${grown} bytes`);
});

test('a program just under the bound still opens', async () => {
  const source = 'x'.repeat(MAX_SNAPSHOT_BYTES - 100);
  const snap = await decodeSnapshot(await encodeSnapshot({ v: 1, source }));
  assert.equal(snap.source.length, source.length);
});

test('too long, damaged and empty links have clear messages', async () => {
  await assert.rejects(decodeSnapshot('A'.repeat(MAX_LINK_CHARS + 1)), /the link is too long/);
  await assert.rejects(decodeSnapshot('not base64!'), /not base64url/);
  await assert.rejects(decodeSnapshot(b64url([1, 2, 3, 4, 5])), /does not decompress/);
  await assert.rejects(decodeSnapshot(b64url(deflateRawSync('{"v":'))), /not a HeapLab program/);
  await assert.rejects(decodeSnapshot(b64url(deflateRawSync('{"v":1}'))), /holds no program/);
});
