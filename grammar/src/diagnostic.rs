//! Diagnostics: what the readers (and the analyzer) report, with spans.

use crate::json::Span;
use std::fmt;

/// How serious a diagnostic is (SPEC §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Explains.
    Info,
    /// A rule that does not do what it seems to.
    Warning,
    /// The file is unusable.
    Error,
}

impl Severity {
    /// `error`, `warning`, `info` (SPEC §11): one word in the human output,
    /// JSON and the summary line. SARIF's `level` can only say `note` for
    /// `info` (its schema's word), and GitHub's annotations `notice`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// Every check permc reports (SPEC §11's table, in its order, then the
/// findings about the files themselves and about permc.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CheckId {
    /// `invalid-json`.
    InvalidJson,
    /// `invalid-shape`.
    InvalidShape,
    /// `invalid-pattern`.
    InvalidPattern,
    /// `unknown-label`.
    UnknownLabel,
    /// `unknown-key`.
    UnknownKey,
    /// `duplicate-key`.
    DuplicateKey,
    /// `dead-pattern`.
    DeadPattern,
    /// `shadowed-by-deny`.
    ShadowedByDeny,
    /// `shadowed-by-ask`.
    ShadowedByAsk,
    /// `redundant-rule`.
    RedundantRule,
    /// `unanchored-mutating-verb`.
    UnanchoredMutatingVerb,
    /// `neutralized-by-ceiling`.
    NeutralizedByCeiling,
    /// `broad-always-expansion`.
    BroadAlwaysExpansion,
    /// `shell-entry`: an allow entry that names a shell with no script
    /// operand (SPEC §11 round 4).
    ShellEntry,
    /// `undescribed-program`: an allow entry whose program the catalogue
    /// does not describe (SPEC §11 round 4).
    UndescribedProgram,
    /// `literal-star`.
    LiteralStar,
    /// `literal-variable`.
    LiteralVariable,
    /// `autonomy-redundant`.
    AutonomyRedundant,
    /// `unreadable-file`: a file that cannot be read.
    UnreadableFile,
    /// `not-a-rule-file`: neither rule file's shape.
    NotARuleFile,
    /// `stale-suppression`: a permc.toml suppression that matches nothing.
    StaleSuppression,
    /// `invalid-command`: a permc.toml `[[command]]` row permc cannot use.
    InvalidCommand,
    /// `duplicate-command`: two permc.toml `[[command]]` rows of one name.
    DuplicateCommand,
    /// `internal-error`: a check that failed (a bug in permc).
    InternalError,
    /// `artifact`: a compiled artifact that cannot be loaded (`permc serve`).
    Artifact,
}

impl CheckId {
    /// Every check id.
    pub const ALL: [CheckId; 25] = [
        CheckId::InvalidJson,
        CheckId::InvalidShape,
        CheckId::InvalidPattern,
        CheckId::UnknownLabel,
        CheckId::UnknownKey,
        CheckId::DuplicateKey,
        CheckId::DeadPattern,
        CheckId::ShadowedByDeny,
        CheckId::ShadowedByAsk,
        CheckId::RedundantRule,
        CheckId::UnanchoredMutatingVerb,
        CheckId::NeutralizedByCeiling,
        CheckId::BroadAlwaysExpansion,
        CheckId::ShellEntry,
        CheckId::UndescribedProgram,
        CheckId::LiteralStar,
        CheckId::LiteralVariable,
        CheckId::AutonomyRedundant,
        CheckId::UnreadableFile,
        CheckId::NotARuleFile,
        CheckId::StaleSuppression,
        CheckId::InvalidCommand,
        CheckId::DuplicateCommand,
        CheckId::InternalError,
        CheckId::Artifact,
    ];

    /// The check's name, as users write and read it (`invalid-json`).
    pub const fn name(self) -> &'static str {
        match self {
            CheckId::InvalidJson => "invalid-json",
            CheckId::InvalidShape => "invalid-shape",
            CheckId::InvalidPattern => "invalid-pattern",
            CheckId::UnknownLabel => "unknown-label",
            CheckId::UnknownKey => "unknown-key",
            CheckId::DuplicateKey => "duplicate-key",
            CheckId::DeadPattern => "dead-pattern",
            CheckId::ShadowedByDeny => "shadowed-by-deny",
            CheckId::ShadowedByAsk => "shadowed-by-ask",
            CheckId::RedundantRule => "redundant-rule",
            CheckId::UnanchoredMutatingVerb => "unanchored-mutating-verb",
            CheckId::NeutralizedByCeiling => "neutralized-by-ceiling",
            CheckId::BroadAlwaysExpansion => "broad-always-expansion",
            CheckId::ShellEntry => "shell-entry",
            CheckId::UndescribedProgram => "undescribed-program",
            CheckId::LiteralStar => "literal-star",
            CheckId::LiteralVariable => "literal-variable",
            CheckId::AutonomyRedundant => "autonomy-redundant",
            CheckId::UnreadableFile => "unreadable-file",
            CheckId::NotARuleFile => "not-a-rule-file",
            CheckId::StaleSuppression => "stale-suppression",
            CheckId::InvalidCommand => "invalid-command",
            CheckId::DuplicateCommand => "duplicate-command",
            CheckId::InternalError => "internal-error",
            CheckId::Artifact => "artifact",
        }
    }

    /// The check of that name.
    pub fn from_name(name: &str) -> Option<CheckId> {
        CheckId::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for CheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A secondary place a diagnostic points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// The file (as named on the command line); may be `<builtin>`.
    pub file: String,
    /// Where, in bytes; empty for built-ins.
    pub span: Span,
    /// What is there.
    pub message: String,
}

/// One finding about a rule file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The check (SPEC §11), e.g. `invalid-json`.
    pub check: CheckId,
    /// Severity.
    pub severity: Severity,
    /// The file, as named on the command line.
    pub file: String,
    /// Where, in bytes.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Other places involved.
    pub related: Vec<Related>,
}

impl Diagnostic {
    /// A diagnostic with no help and no related spans.
    pub fn new(
        check: CheckId,
        severity: Severity,
        file: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            check,
            severity,
            file: file.to_string(),
            span,
            message: message.into(),
            help: None,
            related: Vec::new(),
        }
    }

    /// Adds the help sentence.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a related place.
    pub fn with_related(
        mut self,
        file: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.related.push(Related {
            file: file.to_string(),
            span,
            message: message.into(),
        });
        self
    }
}

/// Maps byte offsets to 1-based lines and columns (columns count characters).
///
/// Columns are found from checkpoints every [`LineIndex::BLOCK`] bytes
/// (the characters before each), so a lookup costs O(log n + BLOCK) even on
/// a file of one long line — a minified 100k-rule file stays linear to
/// read, where counting from the line's start made it quadratic.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// (byte offset, characters before it), the offsets on char
    /// boundaries about [`LineIndex::BLOCK`] bytes apart, the first 0.
    blocks: Vec<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    /// Bytes between column checkpoints.
    pub const BLOCK: usize = 1024;

    /// Indexes `text`.
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut blocks = vec![(0, 0)];
        let (mut pos, mut chars) = (0, 0);
        loop {
            let mut next = pos + Self::BLOCK;
            while next < text.len() && !text.is_char_boundary(next) {
                next += 1;
            }
            let Some(block) = text.get(pos..next) else {
                break;
            };
            chars += block.chars().count();
            blocks.push((next, chars));
            pos = next;
        }
        LineIndex {
            text,
            starts,
            blocks,
        }
    }

    /// Characters before a byte offset (bytes when it is not a boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let i = self
            .blocks
            .partition_point(|&(b, _)| b <= offset)
            .saturating_sub(1);
        // `blocks[0]` is `(0, 0)` and `0 <= offset`, so the partition
        // point is at least 1 and `i` an index: the fallback is unreachable.
        let (b, c) = self.blocks.get(i).copied().unwrap_or((0, 0));
        c + self
            .text
            .get(b..offset)
            .map_or(offset.saturating_sub(b), |s| s.chars().count())
    }

    /// 1-based (line, column) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        // `starts[0]` is 0, so `line` is an index: the fallback is
        // unreachable.
        let start = self.starts.get(line).copied().unwrap_or(0);
        let col = if self.text.is_char_boundary(offset) {
            self.chars_before(offset) - self.chars_before(start)
        } else {
            offset - start
        };
        (line + 1, col + 1)
    }
}

/// A file position for people: `file:line:col`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// File name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_on_long_lines() {
        let text = format!("{}\n{}", "aé€😀".repeat(700), "xé".repeat(3000));
        let idx = LineIndex::new(&text);
        for (offset, _) in text.char_indices().step_by(7) {
            let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let want = (
                text[..offset].matches('\n').count() + 1,
                text[line_start..offset].chars().count() + 1,
            );
            assert_eq!(idx.line_col(offset), want, "{offset}");
        }
    }

    #[test]
    fn line_col() {
        let idx = LineIndex::new("ab\ncé\nx");
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(3), (2, 1));
        assert_eq!(idx.line_col(6), (2, 3));
        assert_eq!(idx.line_col(7), (3, 1));
    }
}
