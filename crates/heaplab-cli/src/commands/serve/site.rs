//! What `heaplab serve` answers for one path: the served folder's files, never anything outside.
//!
//! A request path is decoded and checked segment by segment (no `..`, no backslash, no NUL), then
//! the file it names is resolved through its symlinks and refused unless the result is still
//! inside the served folder. When the client accepts brotli or gzip and the build left a fresh
//! `FILE.br` or `FILE.gz` beside the file (web/build.mjs writes them), that file is sent with the
//! matching `Content-Encoding`; nothing is compressed on the fly.

use super::body::Payload;
use std::fs::Metadata;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// Status, headers (beyond the isolation headers every answer gets) and body of one answer.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Payload,
}

impl Answer {
    pub fn text(status: u16, msg: &str) -> Answer {
        let headers = vec![("Content-Type", "text/plain; charset=utf-8".to_string())];
        Answer { status, headers, body: Payload::text(format!("{status} {msg}\n")) }
    }
}

/// One request, reduced to what the site looks at.
pub struct Request<'r> {
    pub path: &'r str,
    pub accept_encoding: Option<&'r str>,
    pub if_none_match: Option<&'r str>,
    /// `Range: bytes=…` (one range is served; several are answered with the whole file, as
    /// RFC 9110 allows).
    pub range: Option<&'r str>,
    /// `If-Range`: the range applies only while the file still has this ETag.
    pub if_range: Option<&'r str>,
}

/// The served folder (canonical, so containment checks compare resolved paths).
pub struct Site {
    root: PathBuf,
}

/// Precompressed siblings, in order of preference on equal quality.
const ENCODINGS: [(&str, &str); 2] = [("br", "br"), ("gzip", "gz")];

impl Site {
    pub fn new(root: PathBuf) -> Site {
        Site { root }
    }

    pub fn answer(&self, request: &Request) -> Answer {
        let rel = match url_to_relative_path(request.path) {
            Ok(rel) => rel,
            Err(PathError::Malformed) => return Answer::text(400, "bad request: malformed path"),
            Err(PathError::Escapes) => {
                return Answer::text(403, "forbidden: the path leaves the served folder")
            }
        };
        let mut path = self.root.join(&rel);
        if path.is_dir() {
            path = path.join("index.html");
        }
        let (real, meta) = match self.resolve(&path) {
            Ok(found) => found,
            Err(Refusal::NotFound) => return Answer::text(404, "not found"),
            Err(Refusal::Outside) => {
                return Answer::text(403, "forbidden: the link leaves the served folder")
            }
        };
        let mtime = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let mut chosen = (real, meta, None);
        for coding in preferred_encodings(request.accept_encoding.unwrap_or("")) {
            let Some((_, ext)) = ENCODINGS.iter().find(|(name, _)| *name == coding) else {
                continue;
            };
            let mut sibling = path.clone().into_os_string();
            sibling.push(format!(".{ext}"));
            if let Ok((real, meta)) = self.resolve(Path::new(&sibling)) {
                // A sibling older than its file is stale (the file was rebuilt without it).
                if meta.modified().unwrap_or(SystemTime::UNIX_EPOCH) >= mtime {
                    chosen = (real, meta, Some(coding));
                    break;
                }
            }
        }
        let (real, meta, coding) = chosen;
        let etag = format!(
            "\"{:x}-{:x}{}\"",
            meta.len(),
            mtime.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos()),
            coding.map_or(String::new(), |c| format!("-{c}"))
        );
        let mut headers = vec![
            ("Content-Type", mime_type(&path).to_string()),
            ("Cache-Control", "no-cache".to_string()),
            ("ETag", etag.clone()),
            ("Vary", "Accept-Encoding".to_string()),
        ];
        if let Some(coding) = coding {
            headers.push(("Content-Encoding", coding.to_string()));
        }
        if request.if_none_match.is_some_and(|v| v.split(',').any(|t| t.trim() == etag)) {
            return Answer { status: 304, headers, body: Payload::empty() };
        }
        headers.push(("Accept-Ranges", "bytes".to_string()));
        let len = meta.len();
        let wanted = match request.if_range {
            Some(tag) if tag.trim() != etag => None,
            _ => request.range.map(|r| byte_range(r, len)),
        };
        let Ok(mut file) = std::fs::File::open(&real) else {
            return Answer::text(404, "not found");
        };
        match wanted {
            None | Some(Range::Ignored) => {
                Answer { status: 200, headers, body: Payload::file(file, len) }
            }
            Some(Range::Unsatisfiable) => {
                let mut answer = Answer::text(416, "range not satisfiable");
                answer.headers.push(("Content-Range", format!("bytes */{len}")));
                answer
            }
            Some(Range::Bytes(first, last)) => {
                use std::io::{Seek, SeekFrom};
                if file.seek(SeekFrom::Start(first)).is_err() {
                    return Answer::text(500, "internal error");
                }
                headers.push(("Content-Range", format!("bytes {first}-{last}/{len}")));
                Answer { status: 206, headers, body: Payload::file(file, last - first + 1) }
            }
        }
    }

    /// The file `path` names, resolved through symlinks, if it is a regular file in the folder.
    fn resolve(&self, path: &Path) -> Result<(PathBuf, Metadata), Refusal> {
        let Ok(real) = path.canonicalize() else { return Err(Refusal::NotFound) };
        if !real.starts_with(&self.root) {
            return Err(Refusal::Outside);
        }
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_file() => Ok((real, meta)),
            _ => Err(Refusal::NotFound),
        }
    }
}

/// What a `Range` header asks of a file of some length.
#[derive(Debug, PartialEq, Eq)]
pub enum Range {
    /// The bytes `first..=last`.
    Bytes(u64, u64),
    /// A range past the end (416).
    Unsatisfiable,
    /// Not one byte range (another unit, several ranges, malformed): the whole file (200).
    Ignored,
}

/// Reads `bytes=a-b`, `bytes=a-` and `bytes=-n` (the last n bytes) against a file of `len` bytes.
pub fn byte_range(header: &str, len: u64) -> Range {
    let Some(spec) = header.trim().strip_prefix("bytes=") else { return Range::Ignored };
    if spec.contains(',') {
        return Range::Ignored;
    }
    let Some((a, b)) = spec.trim().split_once('-') else { return Range::Ignored };
    let (a, b) = (a.trim(), b.trim());
    let number = |s: &str| s.parse::<u64>().ok();
    match (a.is_empty(), b.is_empty()) {
        // The last `n` bytes.
        (true, false) => match number(b) {
            Some(0) => Range::Unsatisfiable,
            Some(n) if len > 0 => Range::Bytes(len.saturating_sub(n), len - 1),
            Some(_) => Range::Unsatisfiable,
            None => Range::Ignored,
        },
        (false, _) => {
            let Some(first) = number(a) else { return Range::Ignored };
            let last = match b.is_empty() {
                true => None,
                false => match number(b) {
                    Some(last) if last >= first => Some(last),
                    _ => return Range::Ignored,
                },
            };
            if first >= len {
                return Range::Unsatisfiable;
            }
            Range::Bytes(first, last.map_or(len - 1, |l| l.min(len - 1)))
        }
        (true, true) => Range::Ignored,
    }
}

/// Why a path resolves to nothing servable.
enum Refusal {
    NotFound,
    /// A symlink that resolves outside the served folder.
    Outside,
}

/// Codings the client accepts (`q` above 0), best first; `*` stands for every coding not named.
fn preferred_encodings(header: &str) -> Vec<&'static str> {
    let mut named: Vec<(String, f32)> = Vec::new();
    for part in header.split(',') {
        let mut it = part.split(';');
        let coding = it.next().unwrap_or("").trim().to_ascii_lowercase();
        if coding.is_empty() {
            continue;
        }
        let q = it
            .filter_map(|p| p.trim().strip_prefix("q=").and_then(|v| v.trim().parse::<f32>().ok()))
            .next()
            .unwrap_or(1.0);
        named.push((coding, q));
    }
    let quality = |coding: &str| {
        named
            .iter()
            .find(|(c, _)| c == coding)
            .or_else(|| named.iter().find(|(c, _)| c == "*"))
            .map_or(0.0, |(_, q)| *q)
    };
    let mut out: Vec<(&'static str, f32)> = ENCODINGS
        .iter()
        .map(|(name, _)| (*name, quality(name)))
        .filter(|(_, q)| *q > 0.0)
        .collect();
    // Stable: on equal quality brotli (first in ENCODINGS) stays first.
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.into_iter().map(|(name, _)| name).collect()
}

#[derive(Debug, PartialEq)]
pub enum PathError {
    /// Not a path at all (bad escape, not UTF-8, NUL).
    Malformed,
    /// A path that climbs out of the folder (`..`, a backslash, an absolute component).
    Escapes,
}

/// Turns a request path into a path relative to the served folder.
pub fn url_to_relative_path(url: &str) -> Result<PathBuf, PathError> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path).ok_or(PathError::Malformed)?;
    if decoded.contains('\0') {
        return Err(PathError::Malformed);
    }
    if decoded.contains('\\') {
        return Err(PathError::Escapes);
    }
    let mut rel = PathBuf::new();
    for segment in decoded.split('/').filter(|s| !s.is_empty() && *s != ".") {
        let mut components = Path::new(segment).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(part)), None) => rel.push(part),
            _ => return Err(PathError::Escapes),
        }
    }
    Ok(rel)
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

fn mime_type(path: &Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
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
        "gz" => "application/gzip",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(url_to_relative_path("/a/./b/"), Ok(PathBuf::from("a/b")));
        assert_eq!(url_to_relative_path("/a%20b"), Ok(PathBuf::from("a b")));
        assert_eq!(url_to_relative_path("/a/../b"), Err(PathError::Escapes));
        assert_eq!(url_to_relative_path("/a%5cb"), Err(PathError::Escapes));
        assert_eq!(url_to_relative_path("/%zz"), Err(PathError::Malformed));
        assert_eq!(url_to_relative_path("/%00"), Err(PathError::Malformed));
        assert_eq!(url_to_relative_path("/%ff"), Err(PathError::Malformed));
    }

    #[test]
    fn byte_ranges() {
        assert_eq!(byte_range("bytes=0-9", 100), Range::Bytes(0, 9));
        assert_eq!(byte_range("bytes=90-", 100), Range::Bytes(90, 99));
        assert_eq!(byte_range("bytes=90-500", 100), Range::Bytes(90, 99));
        assert_eq!(byte_range("bytes=-10", 100), Range::Bytes(90, 99));
        assert_eq!(byte_range("bytes=-500", 100), Range::Bytes(0, 99));
        assert_eq!(byte_range("bytes=100-", 100), Range::Unsatisfiable);
        assert_eq!(byte_range("bytes=-0", 100), Range::Unsatisfiable);
        assert_eq!(byte_range("bytes=0-", 0), Range::Unsatisfiable);
        assert_eq!(byte_range("bytes=5-2", 100), Range::Ignored);
        assert_eq!(byte_range("bytes=0-1,5-6", 100), Range::Ignored);
        assert_eq!(byte_range("items=0-1", 100), Range::Ignored);
        assert_eq!(byte_range("bytes=x-", 100), Range::Ignored);
    }

    #[test]
    fn encodings_follow_quality_then_brotli_first() {
        assert_eq!(preferred_encodings("gzip, deflate, br"), vec!["br", "gzip"]);
        assert_eq!(preferred_encodings("gzip"), vec!["gzip"]);
        assert_eq!(preferred_encodings("br;q=0.5, gzip"), vec!["gzip", "br"]);
        assert_eq!(preferred_encodings("br;q=0, gzip;q=0.0"), Vec::<&str>::new());
        assert_eq!(preferred_encodings("*"), vec!["br", "gzip"]);
        assert_eq!(preferred_encodings("*, br;q=0"), vec!["gzip"]);
        assert_eq!(preferred_encodings(""), Vec::<&str>::new());
        assert_eq!(preferred_encodings("identity"), Vec::<&str>::new());
    }
}
