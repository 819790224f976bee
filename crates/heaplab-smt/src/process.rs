//! The native transport: one long-lived `z3 -in` process, fed one script at a time.
//!
//! Why a long-lived process: starting Z3 costs milliseconds, a path condition often less. Each
//! script runs in its own `(push 1)` scope, so queries cannot see each other, and is followed by
//! `(echo "heaplab-done")`, so we read exactly one response. A reader thread forwards output
//! lines over a channel; waiting on it with a deadline means a hung Z3 can never hang us: on a
//! wall-clock overrun the process is killed and the next query starts a fresh one. The same
//! happens after a crash.
//!
//! Isolation uses `(push 1)` / `(pop 1)` around each script rather than `(reset)`: Z3 4.8 takes
//! about 18 ms per `(reset)` but well under a millisecond per push/pop pair. Scripts must
//! therefore keep their own pushes and pops balanced.

use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::{Result, SolverError};
use crate::sexp::{check_balanced, parse_all, Sexp};
use crate::solver::{BoxFuture, Query, Transport};

/// The line Z3 prints after each script; everything before it is that script's output.
const SENTINEL: &str = "heaplab-done";

/// How to start and supervise the `z3` process.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ProcessConfig {
    /// The executable. Default: `z3` (looked up on `PATH`).
    pub program: PathBuf,
    /// Extra wall-clock time allowed beyond the script's `:timeout` before the process is
    /// killed. Z3's own timeout is not always honoured (e.g. in nonlinear arithmetic).
    /// Default: 1000 ms.
    pub grace_ms: u64,
}

impl Default for ProcessConfig {
    fn default() -> ProcessConfig {
        ProcessConfig { program: PathBuf::from("z3"), grace_ms: 1000 }
    }
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Running {
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `z3 -in` child process implementing [`Transport`]. Started lazily by the first query;
/// queries are serialized by a mutex.
pub struct Z3Process {
    config: ProcessConfig,
    running: Mutex<Option<Running>>,
    pid: AtomicU32,
    starts: AtomicU64,
}

impl std::fmt::Debug for Z3Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Z3Process").field("config", &self.config).field("pid", &self.pid()).finish()
    }
}

impl Z3Process {
    pub fn new(config: ProcessConfig) -> Z3Process {
        Z3Process {
            config,
            running: Mutex::new(None),
            pid: AtomicU32::new(0),
            starts: AtomicU64::new(0),
        }
    }

    /// Starts the process now instead of at the first query, to surface
    /// [`SolverError::NotInstalled`] early.
    pub fn start(&self) -> Result<()> {
        let mut guard = self.running.lock().unwrap_or_else(|e| e.into_inner());
        self.ensure_running(&mut guard).map(|_| ())
    }

    /// The pid of the current `z3` process, if one is running. Readable while a query is in
    /// flight, so tests can kill the process mid-query.
    pub fn pid(&self) -> Option<u32> {
        match self.pid.load(Ordering::SeqCst) {
            0 => None,
            p => Some(p),
        }
    }

    /// How many times a `z3` process was started (1 + restarts after crashes and timeouts).
    pub fn starts(&self) -> u64 {
        self.starts.load(Ordering::SeqCst)
    }

    fn spawn(&self) -> Result<Running> {
        let mut child = Command::new(&self.config.program)
            .arg("-in")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => SolverError::NotInstalled,
                _ => {
                    SolverError::Io(format!("cannot start {}: {e}", self.config.program.display()))
                }
            })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(SolverError::Io("z3 started without pipes".into()));
            }
        };
        let (tx, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name("z3-reader".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| SolverError::Io(format!("cannot start reader thread: {e}")))?;
        self.pid.store(child.id(), Ordering::SeqCst);
        self.starts.fetch_add(1, Ordering::SeqCst);
        Ok(Running { child, stdin, lines })
    }

    fn ensure_running<'g>(&self, slot: &'g mut Option<Running>) -> Result<&'g mut Running> {
        // A process that died between queries (killed, crashed) is replaced silently.
        let dead = match slot.as_mut() {
            Some(r) => !matches!(r.child.try_wait(), Ok(None)),
            None => true,
        };
        if dead {
            if let Some(old) = slot.take() {
                old.kill();
            }
            self.pid.store(0, Ordering::SeqCst);
            *slot = Some(self.spawn()?);
        }
        slot.as_mut().ok_or_else(|| SolverError::Io("z3 process missing".into()))
    }

    fn discard(&self, slot: &mut Option<Running>) -> String {
        self.pid.store(0, Ordering::SeqCst);
        match slot.take() {
            Some(mut r) => {
                let status = r.child.try_wait().ok().flatten();
                r.kill();
                match status {
                    Some(s) => format!("z3 exited ({s})"),
                    None => "z3 closed its output".to_string(),
                }
            }
            None => "z3 is not running".to_string(),
        }
    }

    /// Runs one script synchronously; the body of [`Transport::run`].
    pub fn run_blocking(&self, script: &str) -> Result<String> {
        check_balanced(script)?;
        let wall_ms = u64::from(script_timeout_ms(script).unwrap_or(Query::DEFAULT_TIMEOUT_MS))
            .saturating_add(self.config.grace_ms);
        let mut guard = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let running = self.ensure_running(&mut guard)?;
        let input = format!("(push 1)\n{script}\n(pop 1)\n(echo \"{SENTINEL}\")\n");
        if let Err(e) =
            running.stdin.write_all(input.as_bytes()).and_then(|_| running.stdin.flush())
        {
            let why = self.discard(&mut guard);
            return Err(SolverError::Crashed(format!("{why}; write failed: {e}")));
        }
        let deadline = Instant::now() + Duration::from_millis(wall_ms);
        let mut out = String::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(running) = guard.as_mut() else {
                return Err(SolverError::Crashed("z3 process missing".into()));
            };
            match running.lines.recv_timeout(left) {
                Ok(line) if line.trim() == SENTINEL => return Ok(out),
                Ok(line) => {
                    out.push_str(&line);
                    out.push('\n');
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.discard(&mut guard);
                    return Err(SolverError::Timeout { ms: wall_ms });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = self.discard(&mut guard);
                    return Err(SolverError::Crashed(why));
                }
            }
        }
    }
}

impl Default for Z3Process {
    fn default() -> Z3Process {
        Z3Process::new(ProcessConfig::default())
    }
}

impl Drop for Z3Process {
    fn drop(&mut self) {
        let slot = self.running.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = slot.take() {
            r.kill();
        }
    }
}

impl Transport for Z3Process {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, Result<String>> {
        // The work is blocking but bounded by the wall-clock guard; the future is ready at once.
        Box::pin(async move { self.run_blocking(script) })
    }
}

/// The last `(set-option :timeout N)` in a script, used to size the wall-clock guard.
fn script_timeout_ms(script: &str) -> Option<u32> {
    let items = parse_all(script).ok()?;
    items.iter().rev().find_map(|s| match s.list()? {
        [Sexp::Atom(cmd), Sexp::Atom(key), Sexp::Atom(n)]
            if cmd == "set-option" && key == ":timeout" =>
        {
            n.parse().ok()
        }
        _ => None,
    })
}
