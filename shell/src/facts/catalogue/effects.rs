//! Effects (SPEC §6.1): the external-effect and privileged tables, the
//! built-in denies (§5.2), and what the ceilings read to find a tool's
//! canonical form (options, aliases, prefixes: §4.3 round 3).

use super::types::{Grammar, Mode};

/// How a tool's words say it reaches outside the machine (SPEC §6.1
/// round 3), read by [`external_by_words`](crate::facts::external_by_words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByWords {
    /// `gh api` with a method other than GET, fields or a body.
    GhApi,
    /// A container client with a remote daemon (`-H`, `--host`,
    /// `--context`, `-c`) among its leading options.
    RemoteDaemon,
    /// `ssh HOST …` connects (`ssh -V`, `ssh -G` do not).
    SshHost,
    /// A copy with a remote operand (`HOST:PATH`, `scheme://…`); `any`:
    /// every operand is remote (`sftp HOST`).
    RemoteOperand {
        /// Any operand at all reaches a remote.
        any: bool,
    },
    /// GNU tar with a remote archive (`-f host:a.tar`: rsh, SPEC §4.5
    /// item 3), read by its described row.
    RemoteArchive,
    /// A cloud CLI's verb that is not a read (`describe`, `get`, `list`,
    /// `ls`, `show`, `help`, `version`, `whoami` are).
    CloudVerb,
    /// These words right after the program (`python -m twine upload`),
    /// named as `named` says.
    Words {
        /// The words after the program.
        words: &'static [&'static str],
        /// What the effect is called (like a table entry).
        named: &'static [&'static str],
    },
}

/// What a container client's remote daemon and registry output are
/// called, by client ([`DAEMON_NAMES`]): docker's names for any other.
pub(crate) fn remote_daemon_names(
    client: &str,
) -> (&'static [&'static str], &'static [&'static str]) {
    DAEMON_NAMES
        .iter()
        .find(|r| r.0 == client)
        .map_or((REMOTE_DAEMON, REGISTRY_PUSH), |r| (r.1, r.2))
}

/// The privileged verb a message names when a privileged run has no verb
/// of its own to show (SPEC §5 step 7b): the first of [`PRIVILEGED`].
pub const PRIVILEGED_SHOWN: &str = PRIVILEGED[0];

include!(concat!(env!("OUT_DIR"), "/catalogue/effects.rs"));
