//! Reading a rule file or an artifact: a regular file (or a symlink to
//! one), at most [`MAX_FILE_BYTES`] of it. A FIFO swapped in for
//! `permissions.json` would block the reader until a writer came (forever,
//! for `permc serve`'s watcher), and `/dev/zero` would fill memory: both
//! are refused with an error naming what the path is.

use std::io::{self, Read};
use std::path::Path;

/// The most a rule file or an artifact may hold. A rule file of 100k rules
/// is a few MB; past this it is refused unread, not read into memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The bytes of the regular file at `path` (symlinks followed). Opened
/// without blocking (a FIFO opens at once, and is then refused by its
/// type, checked on the open file, so a swap between a check and the open
/// cannot slip one in); read to at most [`MAX_FILE_BYTES`].
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", what(&meta.file_type())),
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // The length can grow between the stat and the read: the read is
    // bounded too.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text (a `permc.toml`, a test file).
pub fn read_regular_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_regular(path)?).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// The message says the fix: every command shows it (issue 43).
fn too_big() -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "it is larger than {} MiB, the most permc reads: split the rules into smaller files, or remove the entries no command needs",
            MAX_FILE_BYTES >> 20
        ),
    )
}

/// What a file that is not regular is, for the error.
fn what(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "it is a FIFO (named pipe), which";
        }
        if t.is_char_device() || t.is_block_device() {
            return "it is a device, which";
        }
        if t.is_socket() {
            return "it is a socket, which";
        }
    }
    if t.is_dir() {
        return "it is a directory, which";
    }
    "it"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_reads_and_others_are_refused() {
        let dir = std::env::temp_dir().join(format!("permc-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let f = dir.join("p.json");
        std::fs::write(&f, b"{}").expect("write");
        assert_eq!(read_regular(&f).expect("reads"), b"{}");
        let e = read_regular(&dir).expect_err("a directory");
        assert!(e.to_string().contains("directory"), "{e}");
        #[cfg(unix)]
        {
            let e = read_regular(Path::new("/dev/zero")).expect_err("a device");
            assert!(e.to_string().contains("device"), "{e}");
            let link = dir.join("zero.json");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
            assert!(read_regular(&link).is_err());
            let fifo = dir.join("fifo.json");
            let _ = std::fs::remove_file(&fifo);
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Blocked forever before: a FIFO without a writer.
                let e = read_regular(&fifo).expect_err("a FIFO");
                assert!(e.to_string().contains("FIFO"), "{e}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
