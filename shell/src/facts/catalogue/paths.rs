//! Paths the facts name: the rule files (SPEC §6.4) and the device files
//! that are never outside the scope (§6.2).

/// Where a [`DirWrite`] writes.
#[derive(Debug, Clone, Copy)]
pub enum Into {
    /// Its last operand, or the value of one of these options (`cp -t`).
    LastOperand(&'static [&'static str]),
    /// The value of one of these options, else the current directory.
    OptionOrCwd(&'static [&'static str]),
    /// The worktree's root (the names come from a diff or git's data).
    Root,
    /// Each of its operands (`rm -r`: everything below each goes).
    EveryOperand,
}

/// **[round 4]** A program (or git subcommand) that writes into a
/// directory recursively, or under names that come from data permc does
/// not read (SPEC §6.4): it names a protected path when that directory
/// lexically holds one — the project root or above it, or a protected
/// directory or below it.
#[derive(Debug, Clone, Copy)]
pub struct DirWrite {
    /// The program.
    pub program: &'static str,
    /// Its subcommand (git's, past its global options; another program's,
    /// the word after it: `7z x`), `""` for none.
    pub sub: &'static str,
    /// Options that make it such a write (a one-letter one also in a
    /// cluster, a long one also as a unique prefix); empty: always.
    pub when: &'static [&'static str],
    /// Options (exact) with which it writes nothing.
    pub unless: &'static [&'static str],
    /// Where it writes.
    pub into: Into,
    /// Options that let it write `..` or absolute names: anywhere,
    /// outside the scope and protected.
    pub anywhere: &'static [&'static str],
    /// It copies a source's contents into the directory only when a source
    /// ends in `/`, `/.` or `/..`, or is a glob or has an unknown part
    /// (`cp -r x/. .`, `rsync -a x/ ./`); else into a folder named as the
    /// source, which the source's own name says.
    pub contents: bool,
    /// Its first word may be a cluster of options without a `-` (`tar xf`).
    pub bare_cluster: bool,
}

impl DirWrite {
    /// A row of no program that writes always, each operand: what a row
    /// file's row leaves out.
    pub(crate) const EMPTY: Self = Self {
        program: "",
        sub: "",
        when: &[],
        unless: &[],
        into: Into::EveryOperand,
        anywhere: &[],
        contents: false,
        bare_cluster: false,
    };
}

impl PrefixWrite {
    /// A row of no program: what a row file's row leaves out.
    pub(crate) const EMPTY: Self = Self {
        program: "",
        operand: None,
        prefix: &[],
        default: "",
        suffix: &[],
        format: &[],
        valued: "",
        valued_long: &[],
    };
}

/// **[round 4]** A program that writes names made from a prefix
/// (SPEC §6.4): `split IN PREFIX` writes `PREFIXaa`, `PREFIXab`…,
/// `csplit -f PREFIX` `PREFIX00`…. The name is none of its words, so the
/// protected paths read `PREFIX*SUFFIX` as a glob in the prefix's folder.
#[derive(Debug, Clone, Copy)]
pub struct PrefixWrite {
    /// The program.
    pub program: &'static str,
    /// The operand (from 0) that is the prefix; every later one is read
    /// too (only tightens).
    pub operand: Option<usize>,
    /// Options whose value is the prefix.
    pub prefix: &'static [&'static str],
    /// The prefix without one.
    pub default: &'static str,
    /// Options whose value follows the made part (`--additional-suffix`).
    pub suffix: &'static [&'static str],
    /// Options whose value is a printf format of the made part
    /// (`-b %03d.txt`): each conversion is any text.
    pub format: &'static [&'static str],
    /// The one-letter options that take a value (to tell the operands).
    pub valued: &'static str,
    /// The long options that take a value (a unique prefix too).
    pub valued_long: &'static [&'static str],
}

include!(concat!(env!("OUT_DIR"), "/catalogue/paths.rs"));
