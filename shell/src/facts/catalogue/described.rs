//! Programs described completely (SPEC §4.5 items 1 and 2): the rows of
//! `shell/catalogue/described.toml`, turned into [`DESCRIBED`] by
//! `shell/build.rs`, read by the continuations (a word a row cannot place
//! means an allow entry does not cover the segment).

/// One program's options at one version, as GNU getopt_long reads them.
#[derive(Debug, Clone, Copy)]
pub struct Described {
    /// The command's words (`["sort"]`).
    pub command: &'static [&'static str],
    /// The version described (docs/commands.md, messages).
    pub version: &'static str,
    /// Short options without a value, a letter each.
    pub short_flags: &'static str,
    /// Short options that take a value (the rest of the word, or the next).
    pub short_valued: &'static str,
    /// Short options that write or run (each takes a value).
    pub short_writes: &'static str,
    /// Long options without a value.
    pub long_flags: &'static [&'static str],
    /// Long options that take a value (`--lines 5`, `--lines=5`).
    pub long_valued: &'static [&'static str],
    /// Long options whose value is given only with `=`.
    pub long_optional: &'static [&'static str],
    /// Long options that write or run (each takes a value).
    pub long_writes: &'static [&'static str],
}

impl Described {
    /// The defaults a row's missing fields take.
    pub const EMPTY: Described = Described {
        command: &[],
        version: "",
        short_flags: "",
        short_valued: "",
        short_writes: "",
        long_flags: &[],
        long_valued: &[],
        long_optional: &[],
        long_writes: &[],
    };

    /// Does the row hold an option that writes or runs (a word that may
    /// be any option may be it)?
    pub fn writes(&self) -> bool {
        !self.short_writes.is_empty() || !self.long_writes.is_empty()
    }
}

include!(concat!(env!("OUT_DIR"), "/catalogue/described.rs"));
