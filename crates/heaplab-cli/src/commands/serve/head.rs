//! The request head, read and checked before hyper sees it.
//!
//! hyper answers a request it cannot parse with its own bare `400` or `431`, without the
//! isolation headers every answer of `heaplab serve` must carry. So each connection's head is
//! read here first (at most [`MAX_HEADER_BYTES`], within the header timeout) and parsed with
//! `httparse`; a head that is too large or malformed gets the server's own answer, headers
//! included, and the connection closes. A good head is handed to hyper with the bytes already
//! read put back in front of the stream ([`Prefixed`]). Connections carry one request each
//! (no keep-alive), so every head passes through here.

use super::{ISOLATION, MAX_HEADERS, MAX_HEADER_BYTES};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

/// Why a head was refused: the status to answer with.
#[derive(Debug, PartialEq)]
pub enum Refused {
    /// The client closed, or sent nothing in time: no answer.
    Gone,
    TooLarge,
    Malformed,
}

/// Reads one request head (through the blank line) from `io`.
pub async fn read_head<T: AsyncRead + Unpin>(io: &mut T) -> Result<Vec<u8>, Refused> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        let n = io.read(&mut chunk).await.map_err(|_| Refused::Gone)?;
        if n == 0 {
            return Err(Refused::Gone);
        }
        let scan_from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf[scan_from..].windows(4).position(|w| w == b"\r\n\r\n") {
            let end = scan_from + end + 4;
            if end > MAX_HEADER_BYTES {
                return Err(Refused::TooLarge);
            }
            check(&buf[..end])?;
            return Ok(buf);
        }
        if buf.len() > MAX_HEADER_BYTES {
            return Err(Refused::TooLarge);
        }
    }
}

/// Parses a complete head; too many headers is "too large", anything else wrong "malformed".
fn check(head: &[u8]) -> Result<(), Refused> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    match httparse::Request::new(&mut headers).parse(head) {
        Ok(httparse::Status::Complete(_)) => Ok(()),
        Ok(httparse::Status::Partial) => Err(Refused::Malformed),
        Err(httparse::Error::TooManyHeaders) => Err(Refused::TooLarge),
        Err(_) => Err(Refused::Malformed),
    }
}

/// Writes the server's answer to a refused head, isolation headers included, then reads (and
/// drops) what the client is still sending, for a moment: closing with unread input would reset
/// the connection, and a reset can destroy the answer before the client reads it.
pub async fn refuse<T: AsyncRead + AsyncWrite + Unpin>(io: &mut T, refused: Refused) {
    let (status, body) = match refused {
        Refused::Gone => return,
        Refused::TooLarge => {
            ("431 Request Header Fields Too Large", "431 request head too large\n")
        }
        Refused::Malformed => ("400 Bad Request", "400 bad request: malformed request head\n"),
    };
    let mut answer = format!("HTTP/1.1 {status}\r\n");
    for (name, value) in ISOLATION {
        answer.push_str(&format!("{name}: {value}\r\n"));
    }
    answer.push_str(&format!(
        "content-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    ));
    let _ = io.write_all(answer.as_bytes()).await;
    let _ = io.shutdown().await;
    let drain = async {
        let mut sink = [0u8; 8192];
        let mut total = 0;
        while total < 4 * 1024 * 1024 {
            match io.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), drain).await;
}

/// A stream with bytes already read from it put back in front.
pub struct Prefixed<T> {
    prefix: Vec<u8>,
    pos: usize,
    inner: T,
}

impl<T> Prefixed<T> {
    pub fn new(prefix: Vec<u8>, inner: T) -> Prefixed<T> {
        Prefixed { prefix, pos: 0, inner }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Prefixed<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.pos < this.prefix.len() {
            let rest = &this.prefix[this.pos..];
            let n = rest.len().min(buf.remaining());
            buf.put_slice(&rest[..n]);
            this.pos += n;
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Prefixed<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_checked() {
        assert_eq!(check(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"), Ok(()));
        assert_eq!(check(b"GARBAGE\r\n\r\n"), Err(Refused::Malformed));
        assert_eq!(check(b"GET / HTTP/1.1\r\nBad Header\r\n\r\n"), Err(Refused::Malformed));
        let many: String = (0..MAX_HEADERS + 1).map(|i| format!("X-{i}: 1\r\n")).collect();
        let head = format!("GET / HTTP/1.1\r\n{many}\r\n");
        assert_eq!(check(head.as_bytes()), Err(Refused::TooLarge));
    }
}
