//! `heaplab serve DIR`: the static file server for the web playground.
//!
//! Z3 compiled to wasm needs `SharedArrayBuffer`, which browsers grant only to cross-origin
//! isolated pages, so every response carries COOP `same-origin` and COEP `require-corp`; CORP is
//! `cross-origin` so that an isolated course page can frame the embed (the classroom issue).
//! Request heads are read and checked in [`head`] before hyper sees them, so that a malformed
//! or oversized one gets the server's own 400/431 with those headers, not hyper's bare one.
//!
//! The server is hyper on a small tokio runtime: a client that never reads its download holds a
//! connection, not a thread. Each connection is dropped when it makes no progress for the idle
//! timeout ([`timed_io`]) or has not sent its request head within [`HEADER_TIMEOUT`]; request
//! heads are bounded in bytes and header count, and at most `--max-connections` connections
//! are open at once, `--max-connections-per-client` from one address (more are closed on
//! arrival). What is served is decided in [`site`], byte ranges included.
//!
//! The command serves until the process is interrupted.

mod body;
mod head;
mod site;
mod timed_io;

use anyhow::Context;
use body::Payload;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use site::{Answer, Site};
use std::collections::HashMap;
use std::convert::Infallible;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use timed_io::TimedIo;
use tokio::sync::Semaphore;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to serve (the built site is web/dist).
    dir: PathBuf,
    /// TCP port; 0 picks a free one (the chosen address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Address to listen on. Use 0.0.0.0 to serve other machines.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Connections open at once; more are closed as they arrive.
    #[arg(long, default_value_t = 256)]
    max_connections: usize,
    /// Connections open at once from one client address (so one client cannot take them all);
    /// more are closed as they arrive.
    #[arg(long, default_value_t = 64)]
    max_connections_per_client: usize,
    /// A connection that neither sends nor takes a byte for this long is closed.
    #[arg(long, default_value_t = 30_000)]
    idle_timeout_ms: u64,
}

/// How long a client has to send its whole request head.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The request line and headers together; larger heads get 431.
const MAX_HEADER_BYTES: usize = 16 * 1024;
const MAX_HEADERS: usize = 64;

/// The headers that make a page cross-origin isolated (needed for `SharedArrayBuffer`).
const ISOLATION: [(&str, &str); 3] = [
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Embedder-Policy", "require-corp"),
    ("Cross-Origin-Resource-Policy", "cross-origin"),
];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let addr: SocketAddr = format!("{}:{}", args.host, args.port)
        .parse()
        .with_context(|| format!("`{}` is not an IP address", args.host))?;
    anyhow::ensure!(args.max_connections > 0, "--max-connections must be at least 1");
    anyhow::ensure!(
        args.max_connections_per_client > 0,
        "--max-connections-per-client must be at least 1"
    );
    let limits = Limits {
        max_connections: args.max_connections,
        per_client: args.max_connections_per_client,
        idle_timeout: Duration::from_millis(args.idle_timeout_ms.max(1)),
    };
    let server = Server::start_with(&args.dir, addr, limits)?;
    // Tests and scripts wait for this line; print it only once the socket is listening.
    println!("Serving {} at http://{}/ (Ctrl-C to stop)", args.dir.display(), server.addr());
    std::io::stdout().flush().ok();
    server.wait();
    Ok(ExitCode::SUCCESS)
}

/// The bounds on what clients may hold.
#[derive(Clone, Copy)]
pub struct Limits {
    pub max_connections: usize,
    pub per_client: usize,
    pub idle_timeout: Duration,
}

/// A running server: a tokio runtime on its own thread, accepting from one listening socket.
pub struct Server {
    addr: SocketAddr,
    thread: JoinHandle<()>,
}

impl Server {
    /// Binds `addr` and starts serving `dir` on a background thread.
    pub fn start_with(
        dir: &std::path::Path,
        addr: SocketAddr,
        limits: Limits,
    ) -> anyhow::Result<Server> {
        let root = dir
            .canonicalize()
            .with_context(|| format!("cannot serve `{}`: no such folder", dir.display()))?;
        anyhow::ensure!(root.is_dir(), "cannot serve `{}`: not a folder", dir.display());
        let listener = std::net::TcpListener::bind(addr)
            .with_context(|| format!("cannot listen on {addr}"))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr().unwrap_or(addr);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("heaplab-serve")
            .enable_all()
            .build()
            .context("cannot start the server's runtime")?;
        let site = Arc::new(Site::new(root));
        let thread = std::thread::spawn(move || {
            runtime.block_on(async move {
                match tokio::net::TcpListener::from_std(listener) {
                    Ok(listener) => accept_loop(listener, site, limits).await,
                    Err(err) => eprintln!("heaplab serve: {err}"),
                }
            });
            runtime.shutdown_timeout(Duration::from_secs(1));
        });
        Ok(Server { addr, thread })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until the server stops (in the command: until the process is interrupted).
    pub fn wait(self) {
        let _ = self.thread.join();
    }
}

/// Open connections per client address; a [`ClientSlot`] gives its place back when dropped.
#[derive(Default)]
struct Clients(Mutex<HashMap<IpAddr, usize>>);

struct ClientSlot {
    clients: Arc<Clients>,
    ip: IpAddr,
}

impl Clients {
    /// A slot for one more connection from `ip`, if it holds fewer than `most`.
    fn take(self: &Arc<Self>, ip: IpAddr, most: usize) -> Option<ClientSlot> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= most {
            return None;
        }
        *n += 1;
        Some(ClientSlot { clients: Arc::clone(self), ip })
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self.clients.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

async fn accept_loop(listener: tokio::net::TcpListener, site: Arc<Site>, limits: Limits) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let clients = Arc::new(Clients::default());
    loop {
        let Ok((stream, peer)) = listener.accept().await else {
            // Out of file descriptors or a connection reset before accept: let it pass.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let Some(slot) = clients.take(peer.ip(), limits.per_client) else {
            drop(stream);
            continue;
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let site = Arc::clone(&site);
        tokio::spawn(async move {
            let mut stream = TimedIo::new(stream, limits.idle_timeout);
            let head = tokio::time::timeout(HEADER_TIMEOUT, head::read_head(&mut stream)).await;
            let head = match head {
                Ok(Ok(head)) => head,
                Ok(Err(refused)) => return head::refuse(&mut stream, refused).await,
                Err(_) => return,
            };
            let io = TokioIo::new(head::Prefixed::new(head, stream));
            let service = service_fn(move |request| respond(Arc::clone(&site), request));
            let mut http = http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_header_size(MAX_HEADER_BYTES)
                .max_buf_size(4 * MAX_HEADER_BYTES)
                .max_headers(MAX_HEADERS)
                .keep_alive(false);
            // A client that goes away or times out ends its connection; nothing to report.
            let _ = http.serve_connection(io, service).await;
            drop(permit);
            drop(slot);
        });
    }
}

async fn respond(
    site: Arc<Site>,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<Payload>, Infallible> {
    let head_only = request.method() == Method::HEAD;
    let answer = if matches!(*request.method(), Method::GET | Method::HEAD) {
        let header = |name: &str| {
            request.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
        };
        let path = request.uri().path().to_string();
        let (accept_encoding, if_none_match) = (header("accept-encoding"), header("if-none-match"));
        let (range, if_range) = (header("range"), header("if-range"));
        // File system calls block: run them off the connection tasks.
        tokio::task::spawn_blocking(move || {
            site.answer(&site::Request {
                path: &path,
                accept_encoding: accept_encoding.as_deref(),
                if_none_match: if_none_match.as_deref(),
                range: range.as_deref(),
                if_range: if_range.as_deref(),
            })
        })
        .await
        .unwrap_or_else(|_| Answer::text(500, "internal error"))
    } else {
        let mut answer = Answer::text(405, "method not allowed");
        answer.headers.push(("Allow", "GET, HEAD".to_string()));
        answer
    };
    let len = answer.body.len();
    let body = if head_only { Payload::empty() } else { answer.body };
    let mut response = hyper::Response::new(body);
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    for (name, value) in
        ISOLATION.iter().copied().chain(answer.headers.iter().map(|(n, v)| (*n, v.as_str())))
    {
        if let Ok(value) = hyper::header::HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    }
    if answer.status != 304 {
        headers.insert(hyper::header::CONTENT_LENGTH, len.into());
    }
    Ok(response)
}
