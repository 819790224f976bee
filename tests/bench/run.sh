#!/usr/bin/env bash
# Solver benchmark: the same ~200 path-condition queries through the native z3 process and
# through Z3 wasm in node; prints one markdown table. Called by `./build.sh bench` after
# `./build.sh build` (needs web/pkg and web/node_modules).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p tests/artifacts
batch=tests/artifacts/bench-queries.json
native=$(cargo run --release --quiet -p heaplab-smt --example bench_solver -- --emit "$batch" --n "${BENCH_QUERIES:-200}")
node tests/bench/wasm.mjs "$batch" "$native"
# The web playground's budget: bytes of a first visit, time to a usable editor, time to Z3
# (needs web/dist and Chromium).
node tests/bench/web-budget.mjs
# The Rust decision procedure against z3 on the query corpus (the share it decides), and what
# makes a z3 call cheaper (one script per call, batches, incremental along a path).
cargo test --release --quiet -p heaplab-smt --test corpus -- --nocapture 2>&1 | grep '^query corpus'
cargo run --release --quiet -p heaplab-smt --example z3_call_costs
# Engine bench: every example method with a `requires` x lazy, lazier, lazier#, sl, symheap at the default
# bounds (1 s cap per run); bench/results.md is committed, bench/results.json is for tools.
mkdir -p bench
./target/release/heaplab bench --suite examples --format md --out bench/results.md
./target/release/heaplab bench --suite examples --format json --out bench/results.json
# The same rows through the wasm engine on Z3 wasm, with the wasm/native ratio per row and
# overall; appended to bench/results.md.
node tests/bench/wasm-suite.mjs bench/results.json > /dev/null
# The same rows in Chromium through the page's engine worker, next to native and node, and the
# goal rows of issue 17 (BST under sl, TreeMap and Kiasan's rows at k = 3, wasm/native overall,
# first visit, Z3 ready) measured and judged; appended to bench/results.md.
node tests/bench/browser-suite.mjs bench/results.json tests/artifacts/bench-wasm.json > /dev/null
cat bench/results.md
# CSF's Table 1 next to HeapLab's `concolic` on the same subjects (issue 16), written into its
# section of docs/symbolic.md (between the csf-table marker lines).
./target/release/heaplab csf-table --into docs/symbolic.md
sed -n '/<!-- csf-table:begin -->/,/<!-- csf-table:end -->/p' docs/symbolic.md
# Issue 32's rows at k = 3 for symheap and concolic (BST, AVL, TreeMap), next to sl and lazier#.
node tests/bench/k3-rows.mjs
# The playground's execution tree: layout and viewport culling of synthetic trees of 1k to 20k
# nodes (the page's own layout code, run in node).
node tests/bench/tree-layout.mjs
# Logic: satisfiability per family and Korat's enumeration counts, with their time.
tests/bench/logic.sh
# SL-COMP'18's satisfiability divisions in their own format (issue 31): the competition's files
# are not in this repository, so this runs only when SLCOMP_DIR names its bench/ folder
# (a checkout of sl-comp/SL-COMP18); the time and memory bounds of the runs next to them.
if [ -n "${SLCOMP_DIR:-}" ]; then
  tests/bench/slcomp.sh "$SLCOMP_DIR"/qf_shls_sat "$SLCOMP_DIR"/qf_shid_sat "$SLCOMP_DIR"/qf_shidlia_sat \
    "$SLCOMP_DIR"/qf_bsl_sat "$SLCOMP_DIR"/qf_bsllia_sat
else
  echo "SL-COMP divisions: skipped (set SLCOMP_DIR to SL-COMP18's bench/ folder to run them)"
fi
tests/bench/sat-bounds.sh
