#!/usr/bin/env bash
# HeapLab's one entry point: setup | build | test | bench | serve.
# Each subcommand is a function below; `./build.sh help` lists them.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)

# Each step is stamped with the minutes:seconds since the script started, so a CI log shows
# where its time went.
log() { printf '\033[1m==> [%d:%02d] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

# The wasm-bindgen CLI must match the wasm-bindgen crate in Cargo.lock exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock 2>/dev/null
}

# Debian packages the project needs. Checked first so a set-up machine does no apt work.
# clang compiles tree-sitter's Java grammar (C) for wasm32 (the Java front end in the page).
APT_PACKAGES=(z3 chromium junit5 default-jdk-headless clang)

setup() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "apt-get install ${missing[*]}"
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  local want; want=$(wasm_bindgen_version)
  if [ -n "$want" ]; then
    if ! command -v wasm-bindgen >/dev/null || [ "$(wasm-bindgen --version | awk '{print $2}')" != "$want" ]; then
      log "cargo install wasm-bindgen-cli $want"
      cargo install --quiet wasm-bindgen-cli --version "=$want" --locked \
        || cargo install --quiet wasm-bindgen-cli --version "=$want"
    fi
  fi
  if [ -f web/package-lock.json ]; then
    if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
      log "npm ci (web/)"
      (cd web && npm ci --no-audit --no-fund --loglevel=error)
    fi
  fi
  install_completions
  log "setup done"
}

# Shell completions and the man page, for the user running setup. The completion files are
# loaders that ask the built binary (target/release/heaplab, else `heaplab` on the PATH) for its
# completions when a shell starts, so they never fall behind its options; the man page is
# written once a binary exists (a later setup or build refreshes it).
install_completions() {
  local data="${XDG_DATA_HOME:-$HOME/.local/share}" config="${XDG_CONFIG_HOME:-$HOME/.config}"
  local bin="$ROOT/target/release/heaplab"
  local bash_file="$data/bash-completion/completions/heaplab"
  local fish_file="$config/fish/completions/heaplab.fish"
  local bash_text fish_text
  bash_text=$(printf '%s\n' \
    "# heaplab's completions, installed by HeapLab's ./build.sh setup." \
    "if [ -x '$bin' ]; then source <('$bin' completions bash)" \
    "elif command -v heaplab >/dev/null 2>&1; then source <(heaplab completions bash); fi")
  fish_text=$(printf '%s\n' \
    "# heaplab's completions, installed by HeapLab's ./build.sh setup." \
    "if test -x '$bin'; '$bin' completions fish | source" \
    "else if command -q heaplab; heaplab completions fish | source; end")
  write_if_changed "$bash_file" "$bash_text"
  write_if_changed "$fish_file" "$fish_text"
  install_man_page
}

# Writes $2 to $1 unless it already holds exactly that (setup stays quick and quiet).
write_if_changed() {
  if [ ! -f "$1" ] || [ "$(cat "$1")" != "$2" ]; then
    mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1" && log "installed $1"
  fi
}

install_man_page() {
  local bin="$ROOT/target/release/heaplab"
  [ -x "$bin" ] || return 0
  local page="${XDG_DATA_HOME:-$HOME/.local/share}/man/man1/heaplab.1" text
  text=$("$bin" man 2>/dev/null) || return 0
  write_if_changed "$page" "$text"
}

build_native() {
  log "cargo build --release"
  cargo build --release --quiet
  install_man_page
}

# The folder of C headers that tree-sitter ships for wasm32 (in the tree-sitter-language crate).
wasm_c_include() {
  cargo metadata --format-version 1 --filter-platform wasm32-unknown-unknown 2>/dev/null \
    | node -e '
      let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
        const p = JSON.parse(s).packages.find((p) => p.name === "tree-sitter-language");
        if (!p) process.exit(1);
        console.log(require("path").join(require("path").dirname(p.manifest_path), "wasm", "include"));
      });' \
    || { echo "cannot find the tree-sitter-language crate (cargo metadata)" >&2; return 1; }
}

build_wasm() {
  [ -d crates/heaplab-wasm ] || return 0
  command -v wasm-bindgen >/dev/null \
    || { echo "wasm-bindgen CLI not found: run ./build.sh setup" >&2; return 1; }
  log "wasm engine -> web/pkg"
  # tree-sitter's C for wasm32-unknown-unknown: clang with the tree-sitter-language crate's
  # minimal libc headers (no imports); the crate's folder comes from cargo.
  local ts_include
  ts_include=$(wasm_c_include) || return 1
  # The `wasm` profile (Cargo.toml): release with fat LTO and one codegen unit.
  CFLAGS_wasm32_unknown_unknown="-I$ts_include" \
    cargo build --profile wasm --quiet --target wasm32-unknown-unknown -p heaplab-wasm
  wasm-bindgen --target web --out-dir web/pkg \
    target/wasm32-unknown-unknown/wasm/heaplab_wasm.wasm
  optimize_wasm web/pkg/heaplab_wasm_bg.wasm
}

# Binaryen's optimizer on wasm-bindgen's output (npm `binaryen`, a dev dependency: Debian's is
# too old for the externref table wasm-bindgen makes). On this engine -O3 measured 3–5 % off the
# symheap rows in node and 15 % off the module's bytes (6 % compressed); it takes a minute or
# so. HEAPLAB_WASM_OPT=0 skips it (quicker edit-build cycles; never for what is measured).
optimize_wasm() {
  [ "${HEAPLAB_WASM_OPT:-1}" = 0 ] && return 0
  local opt=web/node_modules/.bin/wasm-opt
  [ -x "$opt" ] || { echo "$opt not found: run ./build.sh setup (npm ci in web/)" >&2; return 1; }
  log "wasm-opt -O3 -> $1"
  "$opt" -O3 "$1" -o "$1.opt" && mv "$1.opt" "$1"
}

build() {
  build_native
  build_wasm
  if [ -f web/build.mjs ]; then
    if [ ! -d web/node_modules ]; then
      echo "web/node_modules is missing: run ./build.sh setup first" >&2
      exit 1
    fi
    log "web bundle -> web/dist"
    (cd web && node build.mjs)
  fi
}

test_rust() {
  log "cargo fmt --check"
  cargo fmt --all -- --check
  log "cargo clippy"
  cargo clippy --quiet --all-targets -- -D warnings
  log "cargo test"
  cargo test --workspace --quiet
}

test_node() {
  [ -d tests/node ] || return 0
  [ -d web/node_modules/z3-solver ] \
    || { echo "web/node_modules missing: run ./build.sh setup (npm ci in web/)" >&2; return 1; }
  log "node tests (wasm engine + Z3 wasm)"
  node --test tests/node/
}

test_browser() {
  [ -d tests/browser ] || return 0
  if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "no Chromium at ${CHROMIUM:-/usr/bin/chromium}: run ./build.sh setup (or set CHROMIUM)" >&2
    exit 1
  fi
  log "browser tests (chromium)"
  node --test --test-concurrency=1 tests/browser/
}

# The JUnit export compiled with javac and run on the JUnit 5 console (needs junit5, a JDK).
test_junit() {
  log "JUnit export (javac + JUnit 5 console)"
  cargo build --release --quiet -p heaplab-cli
  bash tests/junit/run.sh
}

# `./build.sh test --quick`: everything, but the heavy test binaries (symheap, all_examples,
# testgen's concolic, fuzz) run a fixed fraction of their long cases (HEAPLAB_QUICK=1: fewer
# generated programs, example methods and fuzz seeds, chosen by count, never by time). CI runs
# `./build.sh test`, all of them.
test() {
  if [ "${1:-}" = "--quick" ]; then
    export HEAPLAB_QUICK=1
    log "quick: the heavy tests run a fraction of their cases (HEAPLAB_QUICK=1)"
  fi
  # A CI machine builds once: incremental state would only take disk (2 GB of the test build).
  if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi
  log "disk: $(df -h --output=avail . | tail -1 | tr -d ' ') free"
  test_rust
  test_junit
  if [ -d crates/heaplab-wasm ] || [ -d tests/node ] || [ -d tests/browser ]; then
    build
    test_node
    test_browser
  fi
  log "all tests passed (target/ holds $(du -sh target 2>/dev/null | cut -f1), $(df -h --output=avail . | tail -1 | tr -d ' ') free)"
}

# The benches need the native crates, web/pkg (solver on Z3 wasm) and web/dist (page budget).
bench() {
  build
  if [ -f tests/bench/run.sh ]; then bash tests/bench/run.sh; fi
}

# Builds, then serves the playground at http://127.0.0.1:8000 (PORT and HOST override).
serve() {
  build
  exec ./target/release/heaplab serve web/dist --port "${PORT:-8000}" --host "${HOST:-127.0.0.1}"
}

help() {
  sed -n '2,3p' "$0"
  echo "usage: ./build.sh {setup|build|test [--quick]|bench|serve}"
}

cmd=${1:-help}
case "$cmd" in
  setup|build|test|bench|serve|help) shift || true; "$cmd" "$@" ;;
  *) help; exit 2 ;;
esac
