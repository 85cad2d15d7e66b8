//! tmux 3.3a (SPEC §4.5 item 2 round 4, a `line` row): its own options,
//! its commands by name, alias or unique prefix (`tmux list-commands`),
//! which of them run a shell command line given as operands, and which
//! run what permc does not read.

use crate::facts::options::{Grammar, Mode};

/// The program.
pub(crate) const TMUX: &str = "tmux";

/// tmux's own options (`getopt(…, "2c:CDdf:lL:NqS:T:uUvV")`): `-c` is a
/// command line a shell runs, `-f` a configuration file (code: the line is
/// unparsed).
pub(crate) const TMUX_OPTIONS: Grammar<'static> = Grammar {
    flags: "2CDdlNquUvV",
    valued: "cfLST",
    abbreviations: false,
    permute: false,
    ..Grammar::new(Mode::Gnu)
};

/// The option of [`TMUX_OPTIONS`] whose value is a command line, and the
/// one that names a configuration file.
pub(crate) const TMUX_LINE_OPTION: &str = "c";

pub(crate) const TMUX_CONFIG_OPTION: &str = "f";

/// Every command of tmux 3.3a with its alias (`""`: none): a command word
/// is one of them, an alias, or a unique prefix of a name.
pub(crate) const TMUX_COMMANDS: &[(&str, &str)] = &[
    ("attach-session", "attach"),
    ("bind-key", "bind"),
    ("break-pane", "breakp"),
    ("capture-pane", "capturep"),
    ("choose-buffer", ""),
    ("choose-client", ""),
    ("choose-tree", ""),
    ("clear-history", "clearhist"),
    ("clear-prompt-history", "clearphist"),
    ("clock-mode", ""),
    ("command-prompt", ""),
    ("confirm-before", "confirm"),
    ("copy-mode", ""),
    ("customize-mode", ""),
    ("delete-buffer", "deleteb"),
    ("detach-client", "detach"),
    ("display-menu", "menu"),
    ("display-message", "display"),
    ("display-popup", "popup"),
    ("display-panes", "displayp"),
    ("find-window", "findw"),
    ("has-session", "has"),
    ("if-shell", "if"),
    ("join-pane", "joinp"),
    ("kill-pane", "killp"),
    ("kill-server", ""),
    ("kill-session", ""),
    ("kill-window", "killw"),
    ("last-pane", "lastp"),
    ("last-window", "last"),
    ("link-window", "linkw"),
    ("list-buffers", "lsb"),
    ("list-clients", "lsc"),
    ("list-commands", "lscm"),
    ("list-keys", "lsk"),
    ("list-panes", "lsp"),
    ("list-sessions", "ls"),
    ("list-windows", "lsw"),
    ("load-buffer", "loadb"),
    ("lock-client", "lockc"),
    ("lock-server", "lock"),
    ("lock-session", "locks"),
    ("move-pane", "movep"),
    ("move-window", "movew"),
    ("new-session", "new"),
    ("new-window", "neww"),
    ("next-layout", "nextl"),
    ("next-window", "next"),
    ("paste-buffer", "pasteb"),
    ("pipe-pane", "pipep"),
    ("previous-layout", "prevl"),
    ("previous-window", "prev"),
    ("refresh-client", "refresh"),
    ("rename-session", "rename"),
    ("rename-window", "renamew"),
    ("resize-pane", "resizep"),
    ("resize-window", "resizew"),
    ("respawn-pane", "respawnp"),
    ("respawn-window", "respawnw"),
    ("rotate-window", "rotatew"),
    ("run-shell", "run"),
    ("save-buffer", "saveb"),
    ("select-layout", "selectl"),
    ("select-pane", "selectp"),
    ("select-window", "selectw"),
    ("send-keys", "send"),
    ("send-prefix", ""),
    ("server-access", ""),
    ("set-buffer", "setb"),
    ("set-environment", "setenv"),
    ("set-hook", ""),
    ("set-option", "set"),
    ("set-window-option", "setw"),
    ("show-buffer", "showb"),
    ("show-environment", "showenv"),
    ("show-hooks", ""),
    ("show-messages", "showmsgs"),
    ("show-options", "show"),
    ("show-prompt-history", "showphist"),
    ("show-window-options", "showw"),
    ("source-file", "source"),
    ("split-window", "splitw"),
    ("start-server", "start"),
    ("suspend-client", "suspendc"),
    ("swap-pane", "swapp"),
    ("swap-window", "swapw"),
    ("switch-client", "switchc"),
    ("unbind-key", "unbind"),
    ("unlink-window", "unlinkw"),
    ("wait-for", "wait"),
];

/// The commands whose operands are a shell command (one word: a line the
/// default shell runs; more: the command and its arguments, run as they
/// are), with their flags and valued letters (`-e NAME=VALUE` sets a
/// variable for it: one that names code makes the line unparsed). An
/// option not listed (`run-shell -C`: a tmux command) is unparsed.
pub(crate) const TMUX_LINES: &[(&str, &str, &str)] = &[
    ("new-session", "AdDEPX", "cefFnstxy"),
    ("new-window", "abdkPS", "cefFnt"),
    ("split-window", "bdfhIPvZ", "ceFlpt"),
    ("respawn-pane", "k", "cet"),
    ("respawn-window", "k", "cet"),
    ("run-shell", "b", "dt"),
    ("pipe-pane", "IOo", "t"),
    ("display-popup", "BCE", "bcdehsStTwxy"),
];

/// The letter of [`TMUX_LINES`]' options that sets a variable.
pub(crate) const TMUX_VARIABLE_OPTION: &str = "e";

/// The commands that run what permc does not read: tmux commands given
/// as operands (`bind-key`, `if-shell`, `set-hook`, the prompts and
/// menus), keys typed into a pane's shell (`send-keys`, `paste-buffer`),
/// a configuration file, options and variables that name commands
/// (`default-command`, `default-shell`, `LD_PRELOAD`), another user let
/// in.
pub(crate) const TMUX_UNREAD: &[&str] = &[
    "bind-key",
    "set-hook",
    "command-prompt",
    "confirm-before",
    "display-menu",
    "if-shell",
    "choose-buffer",
    "choose-client",
    "choose-tree",
    "send-keys",
    "paste-buffer",
    "source-file",
    "set-option",
    "set-window-option",
    "set-environment",
    "server-access",
];

/// A format that runs a shell command (`#(CMD)`), anywhere in tmux's words.
pub(crate) const TMUX_FORMAT_RUN: &str = "#(";
