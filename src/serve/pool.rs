//! The deciding threads: long-lived workers that answer parts of a
//! pipelined batch, in order.

use super::*;

/// A batch of fewer lines is decided on the main thread alone: handing it
/// to workers would cost more than it saves (and an interactive client
/// sends one line at a time).
pub(super) const PARALLEL_MIN: usize = 32;

/// A part of a batch handed to a worker, and handed back with its answers.
/// The buffers travel back and forth, so a worker allocates none per batch.
pub(super) struct Job {
    pub(super) decider: Shared,
    pub(super) max_line: usize,
    pub(super) input: Vec<u8>,
    pub(super) output: Vec<u8>,
}

/// A thread that lives as long as the process and answers parts of
/// pipelined batches. Long-lived rather than spawned per batch: a new
/// thread per 64 KiB costs a stack mapped and unmapped, and a cold
/// allocator cache, each time.
pub(super) struct Worker {
    pub(super) jobs: mpsc::Sender<Job>,
    pub(super) done: mpsc::Receiver<Job>,
}

impl Worker {
    pub(super) fn spawn() -> io::Result<Worker> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, done) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("permc-decide".into())
            .spawn(move || {
                for mut job in inbox {
                    answer_part(
                        job.decider.as_ref(),
                        &job.input,
                        job.max_line,
                        &mut job.output,
                    );
                    if outbox.send(job).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Worker { jobs, done })
    }
}

/// Cuts `batch` (complete lines) into `n` parts at line boundaries, of about
/// equal bytes.
pub(super) fn cut(batch: &[u8], n: usize) -> Vec<&[u8]> {
    let mut parts = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..=n {
        let target = (batch.len() * k / n).max(start);
        let end = if k == n {
            batch.len()
        } else {
            memchr::memchr(b'\n', &batch[target..]).map_or(batch.len(), |i| target + i + 1)
        };
        parts.push(&batch[start..end]);
        start = end;
    }
    parts
}

/// The threads that decide a batch: the main thread and the workers.
pub(super) struct Deciders {
    pub(super) workers: Vec<Worker>,
    /// Buffers for the workers' jobs, kept between batches.
    pub(super) spare: Vec<(Vec<u8>, Vec<u8>)>,
    /// The main thread's answers.
    pub(super) own: Vec<u8>,
}

impl Deciders {
    /// `threads` deciding threads in all, the main thread included. A
    /// worker that cannot be started is done without.
    pub(super) fn new(threads: usize) -> Deciders {
        let workers: Vec<Worker> = (1..threads).map_while(|_| Worker::spawn().ok()).collect();
        let spare = workers
            .iter()
            .map(|_| (Vec::with_capacity(BUF), Vec::with_capacity(BUF)))
            .collect();
        Deciders {
            workers,
            spare,
            own: Vec::with_capacity(BUF),
        }
    }

    /// Answers every line of `batch` (complete lines) and writes the answers
    /// to `w`, in order. A batch of at least [`PARALLEL_MIN`] lines is cut
    /// into one part per thread; each request is still decided whole by one
    /// thread and one policy. If a worker is gone (it cannot be, short of a
    /// bug), its part is decided here.
    pub(super) fn answer(
        &mut self,
        decider: &Shared,
        batch: &[u8],
        max_line: usize,
        w: &mut impl Write,
    ) -> io::Result<()> {
        // Only whether there are PARALLEL_MIN lines matters: stop counting there.
        let lines = batch
            .iter()
            .filter(|&&b| b == b'\n')
            .take(PARALLEL_MIN)
            .count();
        let parts = if self.workers.is_empty() || lines < PARALLEL_MIN {
            vec![batch]
        } else {
            cut(batch, self.workers.len() + 1)
        };
        let mut handed = Vec::with_capacity(self.workers.len());
        for (k, part) in parts.iter().enumerate().skip(1) {
            let (mut input, output) = std::mem::take(&mut self.spare[k - 1]);
            input.clear();
            input.extend_from_slice(part);
            let job = Job {
                decider: Arc::clone(decider),
                max_line,
                input,
                output,
            };
            handed.push(self.workers[k - 1].jobs.send(job).is_ok());
        }
        answer_part(decider.as_ref(), parts[0], max_line, &mut self.own);
        w.write_all(&self.own)?;
        self.own.clear();
        self.own.shrink_to(BUF);
        for (k, part) in parts.iter().enumerate().skip(1) {
            let job = if handed[k - 1] {
                self.workers[k - 1].done.recv().ok()
            } else {
                None
            };
            match job {
                Some(mut job) => {
                    w.write_all(&job.output)?;
                    job.output.clear();
                    job.output.shrink_to(BUF);
                    job.input.shrink_to(BUF);
                    self.spare[k - 1] = (job.input, job.output);
                }
                None => {
                    answer_part(decider.as_ref(), part, max_line, &mut self.own);
                    w.write_all(&self.own)?;
                    self.own.clear();
                }
            }
        }
        Ok(())
    }
}
