//! The request stream: reading lines (bounded), answering each one, and
//! the main thread's loop over batches.

use super::*;

/// Standard output, shared with the signal thread: the main thread holds
/// the lock from the moment it starts deciding a batch until its answers
/// are written, so SIGTERM, which takes the lock too, lands between two
/// batches.
pub(super) struct Output {
    pub(super) writer: Mutex<BufWriter<io::Stdout>>,
    pub(super) terminating: AtomicBool,
}

impl Output {
    /// Takes the output to answer a batch — unless a signal asked to end:
    /// then the signal thread owns the ending (it flushes and exits as soon
    /// as it gets the lock) and this thread waits for the exit.
    pub(super) fn begin(&self) -> MutexGuard<'_, BufWriter<io::Stdout>> {
        let w = lock(&self.writer);
        if self.terminating.load(Ordering::Acquire) {
            drop(w);
            loop {
                std::thread::park();
            }
        }
        w
    }
}

/// How one line of input ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum LineRead {
    Eof,
    Line,
    TooLong,
}

/// Reads one line into `buf` (without its `\n`), keeping at most `max`
/// bytes: the rest of a longer line is consumed and dropped as it streams
/// by, so a 10 GB line costs no more memory than a short one.
pub(super) fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    let mut any = false;
    let mut too_long = false;
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => LineRead::Eof,
                (true, true) => LineRead::TooLong,
                (true, false) => LineRead::Line,
            });
        }
        any = true;
        let (chunk, used, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        if !too_long {
            if buf.len() + chunk.len() > max {
                too_long = true;
                buf.clear();
                buf.shrink_to(BUF);
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        input.consume(used);
        if done {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

pub(super) fn error_answer(code: &str, message: String) -> Value {
    json!({"error": {"code": code, "message": message}})
}

pub(super) fn too_long(max_line: usize) -> Value {
    error_answer(
        "line_too_long",
        format!("the request line is longer than {max_line} bytes: send a shorter request, or start permc serve with a larger --max-line-bytes"),
    )
}

/// Appends the answer to one (non-blank) request line to `out`, as one
/// JSON line.
pub(super) fn answer_into(
    decider: &(dyn Decider + Send + Sync),
    line: &[u8],
    max_line: usize,
    out: &mut Vec<u8>,
) {
    if line.len() > max_line {
        return write_answer(&too_long(max_line), out);
    }
    let mark = out.len();
    // A panic is an engine bug; it fails closed for this request (an
    // error, never a decision, and nothing half written) and the stream
    // goes on.
    if catch_unwind(AssertUnwindSafe(|| {
        decide::write_answer_line(decider, line, out)
    }))
    .is_err()
    {
        out.truncate(mark);
        let e = error_answer(
            "internal_error",
            "permc failed on this request; please report it".into(),
        );
        write_answer(&e, out);
    }
}

pub(super) fn write_answer(answer: &Value, out: &mut Vec<u8>) {
    // Serializing a `Value` into memory cannot fail: its keys are strings
    // and a `Vec` takes every byte.
    let _ = serde_json::to_writer(&mut *out, answer);
    out.push(b'\n');
}

/// Answers every line of `bytes` (lines ending in `\n`) into `out`.
pub(super) fn answer_part(
    decider: &(dyn Decider + Send + Sync),
    bytes: &[u8],
    max_line: usize,
    out: &mut Vec<u8>,
) {
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line = bytes[start..end].trim_ascii();
        if !line.is_empty() {
            answer_into(decider, line, max_line, out);
        }
        start = end + 1;
    }
}

/// The loop of the main thread. Every complete line already buffered is
/// decided as one batch and its answers written in one go; when no complete
/// line is left, the answers are flushed and the next line is awaited. So a
/// pipelined stream is answered in 64 KiB writes and an interactive client
/// gets each answer at once. Writes block when the client does not read:
/// back-pressure instead of unbounded buffering. The output lock is held
/// from the start of a batch until its answers are written, so a signal
/// lands between two batches.
pub(super) fn serve_stream<R: io::Read>(
    live: &LiveDecider,
    input: &mut BufReader<R>,
    out: &Output,
    max_line: usize,
    threads: usize,
) -> io::Result<()> {
    let (mut generation, mut decider) = live.get();
    let mut deciders = Deciders::new(threads);
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut one: Vec<u8> = Vec::with_capacity(4096);
    loop {
        let buffered = input.buffer();
        let complete = memchr::memrchr(b'\n', buffered).map_or(0, |i| i + 1);
        if complete == 0 {
            lock(&out.writer).flush()?;
            buf.clear();
            let read = read_line(input, &mut buf, max_line)?;
            let line = buf.trim_ascii();
            match read {
                LineRead::Eof => break,
                LineRead::Line if line.is_empty() => continue,
                _ => {}
            }
            let mut w = out.begin();
            if live.generation.load(Ordering::Acquire) != generation {
                (generation, decider) = live.get();
            }
            if read == LineRead::TooLong {
                write_answer(&too_long(max_line), &mut one);
            } else {
                answer_into(decider.as_ref(), line, max_line, &mut one);
            }
            w.write_all(&one)?;
            one.clear();
            one.shrink_to(4096);
            continue;
        }
        let mut w = out.begin();
        if live.generation.load(Ordering::Acquire) != generation {
            (generation, decider) = live.get();
        }
        deciders.answer(&decider, &buffered[..complete], max_line, &mut *w)?;
        drop(w);
        input.consume(complete);
    }
    lock(&out.writer).flush()
}
