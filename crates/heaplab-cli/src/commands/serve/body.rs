//! Response bodies: a short message held in memory, or a file streamed in chunks.
//!
//! Files are read 64 KiB at a time as the client takes them, so a download costs one chunk of
//! memory however large the file is, and a client that stops reading stops the reads.

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

const CHUNK: usize = 64 * 1024;

pub enum Payload {
    /// In-memory bytes, sent as one frame (`None` once sent).
    Bytes(Option<Bytes>),
    /// The `remaining` bytes of an open file.
    File { file: tokio::fs::File, remaining: u64, buf: Vec<u8> },
}

impl Payload {
    pub fn text(text: String) -> Payload {
        Payload::Bytes(Some(Bytes::from(text)))
    }

    pub fn empty() -> Payload {
        Payload::Bytes(None)
    }

    pub fn file(file: std::fs::File, len: u64) -> Payload {
        Payload::File { file: tokio::fs::File::from_std(file), remaining: len, buf: Vec::new() }
    }

    pub fn len(&self) -> u64 {
        match self {
            Payload::Bytes(bytes) => bytes.as_ref().map_or(0, |b| b.len() as u64),
            Payload::File { remaining, .. } => *remaining,
        }
    }
}

impl Body for Payload {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match self.get_mut() {
            Payload::Bytes(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Payload::File { file, remaining, buf } => {
                if *remaining == 0 {
                    return Poll::Ready(None);
                }
                let want = usize::try_from(*remaining).unwrap_or(CHUNK).min(CHUNK);
                buf.resize(want, 0);
                let mut read = ReadBuf::new(buf);
                match Pin::new(file).poll_read(cx, &mut read) {
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(Err(err)) => Poll::Ready(Some(Err(err))),
                    Poll::Ready(Ok(())) => {
                        let n = read.filled().len();
                        if n == 0 {
                            // The file shrank under us: end the response short rather than hang.
                            return Poll::Ready(Some(Err(io::Error::new(
                                io::ErrorKind::UnexpectedEof,
                                "the file shrank while it was sent",
                            ))));
                        }
                        *remaining -= n as u64;
                        let chunk = Bytes::copy_from_slice(&buf[..n]);
                        Poll::Ready(Some(Ok(Frame::data(chunk))))
                    }
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.len() == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.len())
    }
}
