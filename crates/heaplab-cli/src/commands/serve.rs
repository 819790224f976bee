//! `heaplab serve DIR`: a small static file server for the web playground.
//!
//! Z3 compiled to wasm needs `SharedArrayBuffer`, which browsers grant only to cross-origin
//! isolated pages, so every response carries COOP/COEP/CORP headers. Files are gzip-compressed
//! when the client accepts it (compressed bodies are cached in memory by path and mtime, since
//! Z3's wasm is 35 MB), paths that climb out of DIR are refused, and unknown paths get a 404.
//!
//! [`Server::start`] returns a handle whose [`Server::stop`] shuts the server down cleanly; the
//! command itself serves until the process is interrupted.

use anyhow::Context;
use flate2::{write::GzEncoder, Compression};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::SystemTime;
use tiny_http::{Header, Method, Request, Response, StatusCode};

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
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let addr: SocketAddr = format!("{}:{}", args.host, args.port)
        .parse()
        .with_context(|| format!("`{}` is not an IP address", args.host))?;
    let server = Server::start(&args.dir, addr)?;
    // Tests and scripts wait for this line; print it only once the socket is listening.
    println!("Serving {} at http://{}/ (Ctrl-C to stop)", args.dir.display(), server.addr());
    std::io::stdout().flush().ok();
    server.wait();
    Ok(ExitCode::SUCCESS)
}

/// A running server: a few threads taking requests from one listening socket.
pub struct Server {
    #[cfg_attr(not(test), allow(dead_code))]
    http: Arc<tiny_http::Server>,
    addr: SocketAddr,
    threads: Vec<JoinHandle<()>>,
}

const THREADS: usize = 4;

impl Server {
    /// Binds `addr` and starts serving `dir` in background threads.
    pub fn start(dir: &Path, addr: SocketAddr) -> anyhow::Result<Server> {
        let root = dir
            .canonicalize()
            .with_context(|| format!("cannot serve `{}`: no such folder", dir.display()))?;
        anyhow::ensure!(root.is_dir(), "cannot serve `{}`: not a folder", dir.display());
        let http = tiny_http::Server::http(addr)
            .map_err(|err| anyhow::anyhow!("cannot listen on {addr}: {err}"))?;
        let http = Arc::new(http);
        let addr = http.server_addr().to_ip().unwrap_or(addr);
        let site = Arc::new(Site { root, gzip_cache: Mutex::new(HashMap::new()) });
        let threads = (0..THREADS)
            .map(|_| {
                let http = Arc::clone(&http);
                let site = Arc::clone(&site);
                std::thread::spawn(move || {
                    for request in http.incoming_requests() {
                        site.respond(request);
                    }
                })
            })
            .collect();
        Ok(Server { http, addr, threads })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks until the server stops (in the command: until the process is interrupted).
    pub fn wait(self) {
        for thread in self.threads {
            let _ = thread.join();
        }
    }

    /// Stops accepting requests and joins the threads.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn stop(self) {
        for _ in 0..self.threads.len() {
            self.http.unblock();
        }
        self.wait();
    }
}

/// Status, extra headers and body of one answer.
type Answer = (u16, Vec<(&'static str, String)>, Arc<Vec<u8>>);

/// Compressed bodies by path, with the modification time they were made from.
type GzipCache = Mutex<HashMap<PathBuf, (SystemTime, Arc<Vec<u8>>)>>;

/// What every thread shares: the served folder and compressed bodies already computed.
struct Site {
    root: PathBuf,
    gzip_cache: GzipCache,
}

/// The headers that make a page cross-origin isolated (needed for `SharedArrayBuffer`).
const ISOLATION: [(&str, &str); 3] = [
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Embedder-Policy", "require-corp"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
];

impl Site {
    fn respond(&self, request: Request) {
        let (status, headers, body) = self.answer(&request);
        let head_only = *request.method() == Method::Head;
        let len = body.len();
        let data: Box<dyn Read + Send> =
            if head_only { Box::new(std::io::empty()) } else { Box::new(SharedBytes::new(body)) };
        let mut response = Response::new(StatusCode(status), Vec::new(), data, Some(len), None);
        for (name, value) in
            ISOLATION.iter().copied().chain(headers.iter().map(|(n, v)| (*n, v.as_str())))
        {
            if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                response.add_header(header);
            }
        }
        // The client may have gone away; nothing to do about it.
        let _ = request.respond(response);
    }

    /// Status, extra headers and body for one request.
    fn answer(&self, request: &Request) -> Answer {
        let text = |status: u16, msg: &str| {
            let headers = vec![("Content-Type", "text/plain; charset=utf-8".to_string())];
            (status, headers, Arc::new(format!("{msg}\n").into_bytes()))
        };
        if !matches!(request.method(), Method::Get | Method::Head) {
            return text(405, "405 method not allowed");
        }
        let Some(rel) = url_to_relative_path(request.url()) else {
            return text(403, "403 forbidden: the path leaves the served folder");
        };
        let mut path = self.root.join(&rel);
        if path.is_dir() {
            path = path.join("index.html");
        }
        let Ok(meta) = std::fs::metadata(&path) else { return text(404, "404 not found") };
        if !meta.is_file() {
            return text(404, "404 not found");
        }
        let mtime = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let etag = format!(
            "\"{:x}-{:x}\"",
            meta.len(),
            mtime.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
        );
        let mut headers = vec![
            ("Content-Type", mime_type(&path).to_string()),
            ("Cache-Control", "no-cache".to_string()),
            ("ETag", etag.clone()),
            ("Vary", "Accept-Encoding".to_string()),
        ];
        if header_value(request, "If-None-Match")
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag))
        {
            return (304, headers, Arc::new(Vec::new()));
        }
        let gzip = accepts_gzip(request) && compressible(&path);
        let body =
            if gzip { self.gzipped(&path, mtime) } else { std::fs::read(&path).map(Arc::new) };
        match body {
            Ok(body) => {
                if gzip {
                    headers.push(("Content-Encoding", "gzip".to_string()));
                }
                (200, headers, body)
            }
            Err(_) => text(404, "404 not found"),
        }
    }

    fn gzipped(&self, path: &Path, mtime: SystemTime) -> std::io::Result<Arc<Vec<u8>>> {
        if let Ok(cache) = self.gzip_cache.lock() {
            if let Some((when, body)) = cache.get(path) {
                if *when == mtime {
                    return Ok(Arc::clone(body));
                }
            }
        }
        let raw = std::fs::read(path)?;
        let mut encoder = GzEncoder::new(Vec::with_capacity(raw.len() / 3), Compression::new(6));
        encoder.write_all(&raw)?;
        let body = Arc::new(encoder.finish()?);
        if let Ok(mut cache) = self.gzip_cache.lock() {
            cache.insert(path.to_path_buf(), (mtime, Arc::clone(&body)));
        }
        Ok(body)
    }
}

/// A reader over shared bytes, so a cached body is sent without copying it.
struct SharedBytes {
    bytes: Arc<Vec<u8>>,
    pos: usize,
}

impl SharedBytes {
    fn new(bytes: Arc<Vec<u8>>) -> SharedBytes {
        SharedBytes { bytes, pos: 0 }
    }
}

impl Read for SharedBytes {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = self.bytes.get(self.pos..).unwrap_or(&[]);
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

fn header_value<'r>(request: &'r Request, name: &str) -> Option<&'r str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

fn accepts_gzip(request: &Request) -> bool {
    header_value(request, "Accept-Encoding").is_some_and(|v| {
        v.split(',').any(|part| {
            let mut it = part.split(';');
            let coding = it.next().unwrap_or("").trim();
            let refused = it.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            coding.eq_ignore_ascii_case("gzip") && !refused
        })
    })
}

/// Turns a request target into a path relative to the served folder, or `None` when it tries to
/// leave the folder (`..`, absolute components, backslashes, NUL, bad escapes).
fn url_to_relative_path(url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path)?;
    if decoded.contains('\\') || decoded.contains('\0') {
        return None;
    }
    let mut rel = PathBuf::new();
    for segment in decoded.split('/').filter(|s| !s.is_empty() && *s != ".") {
        let mut components = Path::new(segment).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(part)), None) => rel.push(part),
            _ => return None,
        }
    }
    Some(rel)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn extension(path: &Path) -> String {
    path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase()
}

fn mime_type(path: &Path) -> &'static str {
    match extension(path).as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "txt" | "hl" | "md" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Already-compressed formats gain nothing from gzip.
fn compressible(path: &Path) -> bool {
    !matches!(extension(path).as_str(), "png" | "jpg" | "jpeg" | "woff2" | "gz" | "zip")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::net::TcpStream;

    fn get(addr: SocketAddr, target: &str, extra: &str) -> (String, Vec<u8>) {
        let mut stream = TcpStream::connect(addr).expect("connect");
        write!(stream, "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n")
            .expect("write");
        let mut reader = std::io::BufReader::new(stream);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("read");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push_str(&line);
        }
        let mut body = Vec::new();
        reader.read_to_end(&mut body).expect("body");
        (head.to_ascii_lowercase(), body)
    }

    #[test]
    fn serves_files_with_isolation_headers_gzip_and_refuses_traversal() {
        let dir = std::env::temp_dir().join(format!("heaplab-serve-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
        std::fs::write(dir.join("index.html"), "<p>hi</p>".repeat(100)).expect("write");
        std::fs::write(dir.join("sub/e.wasm"), b"\0asm").expect("write");
        let server = Server::start(&dir, "127.0.0.1:0".parse().expect("addr")).expect("start");
        let addr = server.addr();

        let (head, body) = get(addr, "/", "");
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(head.contains("cross-origin-opener-policy: same-origin"), "{head}");
        assert!(head.contains("cross-origin-embedder-policy: require-corp"), "{head}");
        assert!(head.contains("cross-origin-resource-policy: same-origin"), "{head}");
        assert!(head.contains("content-type: text/html"), "{head}");
        assert_eq!(body.len(), 900);

        let (head, body) = get(addr, "/index.html", "Accept-Encoding: gzip, br\r\n");
        assert!(head.contains("content-encoding: gzip"), "{head}");
        let mut text = String::new();
        flate2::read::GzDecoder::new(&body[..]).read_to_string(&mut text).expect("gunzip");
        assert_eq!(text.len(), 900);

        let (head, _) = get(addr, "/sub/e.wasm?v=1", "");
        assert!(head.contains("content-type: application/wasm"), "{head}");
        let (head, _) = get(addr, "/missing.js", "");
        assert!(head.starts_with("http/1.1 404"), "{head}");
        for bad in ["/../etc/passwd", "/sub/%2e%2e/%2e%2e/x", "/sub/..%2f..%2fx", "/a%5c..%5cb"] {
            let (head, _) = get(addr, bad, "");
            assert!(head.starts_with("http/1.1 403"), "{bad}: {head}");
        }
        server.stop();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn relative_paths() {
        assert_eq!(url_to_relative_path("/a/./b/"), Some(PathBuf::from("a/b")));
        assert_eq!(url_to_relative_path("/a%20b"), Some(PathBuf::from("a b")));
        assert_eq!(url_to_relative_path("/a/../b"), None);
        assert_eq!(url_to_relative_path("/%zz"), None);
    }
}
