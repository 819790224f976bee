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
# Engine bench: every example method with a `requires` x lazy, lazier, lazier# at the default
# bounds (1 s cap per run); bench/results.md is committed, bench/results.json is for tools.
# Native only: wasm rows are "not yet" until the wasm exploration API lands.
mkdir -p bench
./target/release/heaplab bench --suite examples --format md --out bench/results.md
./target/release/heaplab bench --suite examples --format json --out bench/results.json
cat bench/results.md
