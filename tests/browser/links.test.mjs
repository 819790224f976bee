// Links as a course uses them: choosing an example writes `#example=` into the address bar (and
// a settings change keeps it), and a share link pasted into a tab that already has HeapLab open
// loads the program it carries.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { session, waitForEngine } from './helpers.mjs';

const source = (page) => page.evaluate(() => globalThis.__heaplab.store.getState().source);

test('choosing an example puts #example= in the URL, and it stays until an edit', async (t) => {
  const { page, server, browser } = await session(t);
  await page.goto(server.url);
  await waitForEngine(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: /Binary search tree/ }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().source.includes('class BST'));
  await page.waitForFunction(() => location.hash === '#example=bst.hl');
  // Settings changes (the Explore tab picks a method for the new program) keep the link.
  await page.getByRole('tab', { name: 'Explore' }).click();
  await page.getByRole('combobox', { name: 'Strategy' }).selectOption('sl');
  await page.waitForTimeout(600);
  assert.equal(new URL(page.url()).hash, '#example=bst.hl');
  // A reload of that address opens the example.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await waitForEngine(page);
  assert.match(await source(page), /class BST/);
  // An edit: the link no longer describes the program, so it goes.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// mine\n');
  await page.waitForFunction(() => location.hash === '');
  assert.deepEqual(browser.errors, []);
});

test('a share link pasted into an open HeapLab tab loads its program', async (t) => {
  const { page, server, browser } = await session(t);
  await page.goto(`${server.url}#example=sll.hl`);
  await waitForEngine(page);
  assert.match(await source(page), /class List|class Node/);
  // Another program's link, encoded as share links are (deflate-raw, base64url).
  const program = 'class Cell { int v; }\n\ntest pasted_link {\n  Cell c = new Cell { v: 3 };\n  assert c.v == 3;\n}\n';
  const link = await page.evaluate(async (text) => {
    const json = new TextEncoder().encode(JSON.stringify({ v: 1, source: text, settings: { tab: 'tests' } }));
    const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    const data = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    return `${location.origin}${location.pathname}#p=${data}`;
  }, program);
  // Pasting into the address bar of the same page changes only the fragment.
  await page.goto(link);
  await page.waitForFunction((text) => globalThis.__heaplab.store.getState().source === text, program);
  await page.getByRole('button', { name: 'Run tests' }).click();
  await page.getByText('1 passed, 0 failed', { exact: false }).waitFor();
  // And an example link too.
  await page.goto(`${server.url}#example=stack.hl`);
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().source.includes('class Stack'));
  assert.deepEqual(browser.errors, []);
});

/** A share link (deflate-raw, base64url, as share.js writes them) to `program` on this page. */
const shareLink = (page, program) => page.evaluate(async (text) => {
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, source: text, settings: { tab: 'tests' } }));
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const data = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return `${location.origin}${location.pathname}#p=${data}`;
}, program);

/** Types a line at the end of the program and waits until the page has saved it. */
async function editAndSave(page, line) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(`\n${line}\n`);
  await page.waitForFunction((l) => (localStorage.getItem('heaplab:v1') ?? '').includes(l), line);
}

async function recentTitles(page) {
  await page.getByRole('button', { name: 'Recent' }).click();
  const titles = await page.getByRole('menu', { name: 'Recent programs' }).getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  return titles;
}

test('a share link opened while an edited program is saved keeps that program in the recent list', async (t) => {
  const { page, server, browser } = await session(t);
  await page.goto(server.url);
  await waitForEngine(page);
  await editAndSave(page, '// my own work, not yet shared');
  const mine = await source(page);
  const shared = 'class Cell { int v; }\n\ntest shared_cell {\n  Cell c = new Cell { v: 3 };\n  assert c.v == 3;\n}\n';
  const link = await shareLink(page, shared);
  // The student follows a link from the course page: a fresh load of the page with it.
  await page.goto('about:blank');
  await page.goto(link);
  await waitForEngine(page);
  assert.equal(await source(page), shared, 'the link\'s program is opened');
  const notice = page.getByRole('status').filter({ hasText: 'Opened the shared program' });
  await notice.waitFor();
  assert.ok((await recentTitles(page)).some((title) => title.startsWith('Singly linked list')), 'the edited program is in Recent');
  await notice.getByRole('button', { name: 'Back to my program' }).click();
  await page.waitForFunction((text) => globalThis.__heaplab.store.getState().source === text, mine);

  // Pasted into this open tab, another link keeps the program in the editor too.
  await page.goto(await shareLink(page, shared.replace('Cell', 'Box').replaceAll('Cell', 'Box')));
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().source.includes('class Box'));
  await page.getByRole('button', { name: 'Recent' }).click();
  await page.getByRole('menuitem', { name: /Singly linked list/ }).click();
  await page.waitForFunction((text) => globalThis.__heaplab.store.getState().source === text, mine);
  assert.deepEqual(browser.errors, []);
});

test('choosing an example over edits asks first, and the edits stay in Recent either way', async (t) => {
  const { page, server, browser } = await session(t);
  await page.goto(server.url);
  await waitForEngine(page);
  await editAndSave(page, '// edited before choosing an example');
  const mine = await source(page);
  const choose = async () => {
    await page.getByRole('button', { name: 'Examples' }).click();
    await page.getByRole('menuitem', { name: /Binary search tree/ }).first().click();
  };
  await choose();
  const ask = page.getByRole('status').filter({ hasText: 'in place of your program?' });
  await ask.waitFor();
  await ask.getByRole('button', { name: 'Keep my program' }).click();
  assert.equal(await source(page), mine, 'nothing replaced');
  await choose();
  await ask.getByRole('button', { name: 'Open the example' }).click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().source.includes('class BST'));
  // Unedited, another example opens without asking; the edited program is still in Recent.
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.getByRole('menuitem', { name: /Stack/ }).first().click();
  await page.waitForFunction(() => globalThis.__heaplab.store.getState().source.includes('class Stack'));
  await page.getByRole('button', { name: 'Recent' }).click();
  await page.getByRole('menuitem', { name: /Singly linked list/ }).click();
  await page.waitForFunction((text) => globalThis.__heaplab.store.getState().source === text, mine);
  assert.deepEqual(browser.errors, []);
});
