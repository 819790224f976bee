//! What the end-to-end tests share: running the real `heaplab` binary from the workspace root,
//! as a user would, and reading what it printed.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `heaplab ARGS...` in the workspace root and waits for it.
pub fn heaplab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("the heaplab binary runs")
}

/// The folder with `examples/` and `Cargo.lock`.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
