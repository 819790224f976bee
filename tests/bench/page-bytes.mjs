// Bytes over the wire of a page visit, for the bench scripts (web-budget.mjs, browser-suite.mjs):
// Resource Timing in the page, in the engine worker (which fetches the wasm engine) and, once it
// started, in the Z3 worker (which fetches Z3).
// `transferSize` is headers plus the compressed body, 0 when the answer came from a cache or the
// service worker.

/** Every resource of the visit so far: `[{ name, transferSize }]`, the document first. */
export async function transferred(page) {
  return page.evaluate(async () => {
    const resources = performance.getEntriesByType('resource')
      .map((e) => ({ name: e.name, transferSize: e.transferSize }));
    const nav = performance.getEntriesByType('navigation')[0];
    const { engine } = globalThis.__heaplab;
    const worker = await engine.request('resources');
    const z3 = engine.z3Started ? await engine.request('z3Resources') : [];
    return [{ name: location.href, transferSize: nav?.transferSize ?? 0 }, ...resources, ...worker, ...z3];
  });
}

/** The sum of `transferSize` over `list`. */
export const totalBytes = (list) => list.reduce((a, e) => a + e.transferSize, 0);
