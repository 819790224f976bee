//! `heaplab run --strategy symheap` through the real binary: the run's time bound holds even
//! though one symheap step asks many solver questions (issue 15: stop within `--timeout-ms` +
//! 10 % and report the timeout).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn symheap_stops_at_the_time_bound_and_says_so() {
    // AVL insertion at k = 3 under its precondition: the guarded value sets grow with every
    // unfolding, and the run does not end within 20 s on our machines.
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args([
            "run",
            "examples/avl.hl",
            "--method",
            "AvlTree.insert",
            "--strategy",
            "symheap",
            "--k",
            "3",
            "--timeout-ms",
            "2000",
        ])
        .current_dir(workspace_root())
        .output()
        .expect("the heaplab binary runs");
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(took < Duration::from_millis(2200), "--timeout-ms 2000 took {took:?}\n{stdout}");
    assert!(stdout.contains("stopped by: timeout"), "{stdout}");
    assert!(stdout.contains("bounded (by timeout)"), "{stdout}");
}
