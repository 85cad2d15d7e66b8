//! Effects (SPEC §6.1): the external-effect and privileged tables, the
//! built-in denies (§5.2), and what the ceilings read to find a tool's
//! canonical form (options, aliases, prefixes: §4.3 round 3).

use super::types::{Grammar, Mode};

/// The external-effect table (SPEC §6.1): a segment whose real words start
/// with one of these, token by token, has an effect outside the machine.
pub const EXTERNAL_EFFECT: &[&[&str]] = &[
    &["git", "push"],
    &["git", "merge"],
    &["git", "remote", "add"],
    &["git", "remote", "set-url"],
    &["git", "send-pack"],
    &["git", "subtree", "push"],
    &["git", "p4", "submit"],
    &["git", "svn", "dcommit"],
    // [round 3] It merges what others pushed; `git fetch` stays readable.
    &["git", "pull"],
    &["git", "http-push"],
    &["git", "send-email"],
    // It uploads patches to a mail server's folder, as send-email mails them.
    &["git", "imap-send"],
    // They change where pushes go.
    &["git", "remote", "rename"],
    &["git", "remote", "remove"],
    &["git", "remote", "rm"],
    &["git", "remote", "set-head"],
    &["git", "remote", "set-branches"],
    &["git", "lfs", "push"],
    // A Gerrit upload (`git-review`): a push for review.
    &["git", "review"],
    &["gh", "pr", "create"],
    &["gh", "pr", "merge"],
    &["gh", "release", "create"],
    &["gh", "workflow", "run"],
    &["gh", "repo", "create"],
    &["gh", "repo", "delete"],
    &["gh", "repo", "edit"],
    &["gh", "repo", "rename"],
    &["gh", "repo", "archive"],
    &["gh", "repo", "fork"],
    &["gh", "repo", "sync"],
    &["gh", "issue", "create"],
    &["gh", "issue", "close"],
    &["gh", "issue", "comment"],
    &["gh", "issue", "edit"],
    &["gh", "issue", "delete"],
    &["gh", "pr", "comment"],
    &["gh", "pr", "review"],
    &["gh", "pr", "close"],
    &["gh", "pr", "edit"],
    &["gh", "pr", "ready"],
    &["gh", "secret", "set"],
    &["gh", "secret", "delete"],
    &["gh", "variable", "set"],
    &["gh", "variable", "delete"],
    &["gh", "release", "upload"],
    &["gh", "release", "delete"],
    &["gh", "release", "edit"],
    &["gh", "run", "rerun"],
    &["gh", "run", "cancel"],
    &["gh", "gist", "create"],
    &["gh", "label", "create"],
    &["gh", "label", "edit"],
    &["gh", "label", "delete"],
    &["glab", "mr", "create"],
    &["glab", "mr", "merge"],
    &["glab", "release", "create"],
    &["glab", "ci", "run"],
    &["glab", "repo", "create"],
    &["glab", "repo", "delete"],
    &["glab", "repo", "fork"],
    &["glab", "repo", "archive"],
    &["glab", "issue", "create"],
    &["glab", "issue", "close"],
    &["glab", "issue", "note"],
    &["glab", "issue", "update"],
    &["glab", "issue", "delete"],
    &["glab", "mr", "note"],
    &["glab", "mr", "close"],
    &["glab", "mr", "update"],
    &["glab", "mr", "approve"],
    &["glab", "release", "upload"],
    &["glab", "release", "delete"],
    &["glab", "ci", "retry"],
    &["glab", "ci", "cancel"],
    &["glab", "variable", "set"],
    &["glab", "variable", "update"],
    &["glab", "variable", "delete"],
    &["glab", "label", "create"],
    &["kubectl", "apply"],
    &["kubectl", "create"],
    &["kubectl", "delete"],
    &["kubectl", "patch"],
    &["kubectl", "replace"],
    &["kubectl", "rollout"],
    &["kubectl", "scale"],
    &["kubectl", "set"],
    &["kubectl", "label"],
    &["kubectl", "annotate"],
    &["kubectl", "edit"],
    &["kubectl", "drain"],
    &["kubectl", "cordon"],
    &["kubectl", "uncordon"],
    &["kubectl", "taint"],
    &["kubectl", "cp"],
    &["kubectl", "expose"],
    &["kubectl", "autoscale"],
    // They act in the cluster.
    &["kubectl", "exec"],
    &["kubectl", "run"],
    &["kubectl", "debug"],
    &["kubectl", "attach"],
    &["kubectl", "port-forward"],
    &["helm", "install"],
    &["helm", "upgrade"],
    &["helm", "uninstall"],
    &["helm", "rollback"],
    &["helm", "push"],
    &["terraform", "apply"],
    &["terraform", "destroy"],
    &["terraform", "import"],
    &["terraform", "taint"],
    &["terraform", "untaint"],
    &["terraform", "state", "rm"],
    &["terraform", "state", "mv"],
    &["terraform", "state", "push"],
    &["docker", "push"],
    &["docker", "image", "push"],
    // A token that is an option: the option anywhere after the words
    // before it.
    &["docker", "buildx", "build", "--push"],
    &["docker", "buildx", "bake", "--push"],
    // It pushes the manifest list it makes (unless `--dry-run`).
    &["docker", "buildx", "imagetools", "create"],
    &["docker", "build", "--push"],
    &["docker", "compose", "push"],
    &["docker", "manifest", "push"],
    // A switch of where later commands go (as `git remote set-url`), a
    // swarm's deploys (as `kubectl apply`), a signature pushed.
    &["docker", "context", "use"],
    &["docker", "stack", "deploy"],
    &["docker", "stack", "rm"],
    &["docker", "service", "create"],
    &["docker", "service", "update"],
    &["docker", "service", "rm"],
    &["docker", "service", "scale"],
    &["docker", "service", "rollback"],
    &["docker", "trust", "sign"],
    &["podman", "push"],
    &["podman", "image", "push"],
    &["podman", "manifest", "push"],
    &["podman", "compose", "push"],
    &["npm", "publish"],
    &["npm", "unpublish"],
    &["npm", "deprecate"],
    &["npm", "dist-tag", "add"],
    &["npm", "owner"],
    &["npm", "access"],
    &["pnpm", "publish"],
    &["yarn", "publish"],
    &["yarn", "owner"],
    &["yarn", "tag", "add"],
    &["yarn", "npm", "publish"],
    &["cargo", "publish"],
    &["cargo", "yank"],
    &["cargo", "owner"],
    &["twine", "upload"],
    // [round 4] Publishing commands of other package managers (SPEC §4.5
    // item 3).
    &["lerna", "publish"],
    &["lerna", "version"],
    &["dart", "pub", "publish"],
    &["dart", "pub", "uploader"],
    &["flutter", "pub", "publish"],
    &["flutter", "pub", "uploader"],
    &["nuget", "push"],
    &["nuget", "delete"],
    &["gem", "push"],
    &["gem", "yank"],
    &["gem", "owner"],
    // Hosting CLIs.
    &["netlify", "deploy"],
    &["fly", "deploy"],
    &["flyctl", "deploy"],
    &["firebase", "deploy"],
    &["wrangler", "deploy"],
    &["wrangler", "publish"],
    // Registries beyond npm's, crates.io and RubyGems: a package, an
    // extension or an image leaves the machine.
    &["bun", "publish"],
    &["uv", "publish"],
    &["poetry", "publish"],
    &["pdm", "publish"],
    &["hatch", "publish"],
    &["flit", "publish"],
    &["deno", "publish"],
    &["jsr", "publish"],
    &["dotnet", "nuget", "push"],
    &["dotnet", "nuget", "delete"],
    &["vsce", "publish"],
    &["ovsx", "publish"],
    &["skopeo", "copy"],
    &["crane", "push"],
    &["crane", "copy"],
    &["oras", "push"],
    // Infrastructure as code and serverless deploys, as `terraform apply`.
    &["tofu", "apply"],
    &["tofu", "destroy"],
    &["terragrunt", "apply"],
    &["terragrunt", "destroy"],
    &["pulumi", "up"],
    &["pulumi", "destroy"],
    &["cdk", "deploy"],
    &["cdk", "destroy"],
    &["sam", "deploy"],
    &["serverless", "deploy"],
    &["sls", "deploy"],
    &["railway", "up"],
    // Other version-control systems' pushes and commits to a server, and
    // code-review uploads: a push under another name.
    &["hg", "push"],
    &["sl", "push"],
    &["sl", "pr", "submit"],
    &["svn", "commit"],
    &["svn", "import"],
    &["svn", "lock"],
    &["svn", "unlock"],
    &["jj", "git", "push"],
    &["bzr", "push"],
    &["brz", "push"],
    &["fossil", "push"],
    &["fossil", "sync"],
    // With autosync on (fossil's default), a commit is pushed at once.
    &["fossil", "commit"],
    &["fossil", "ci"],
    &["darcs", "push"],
    &["darcs", "send"],
    &["repo", "upload"],
    &["arc", "diff"],
    &["arc", "land"],
    // hub's own commands (every other one is git's: `READS_AS`).
    &["hub", "pull-request"],
    &["hub", "create"],
    &["hub", "delete"],
    &["hub", "fork"],
    &["hub", "release", "create"],
    &["hub", "release", "edit"],
    &["hub", "release", "delete"],
    &["hub", "issue", "create"],
    &["hub", "issue", "update"],
    &["hub", "gist", "create"],
    // Images and signatures pushed to a registry (`ko build` pushes
    // unless told otherwise: fail closed).
    &["nerdctl", "push"],
    &["buildah", "push"],
    &["buildah", "manifest", "push"],
    &["docker-compose", "push"],
    &["podman-compose", "push"],
    &["cosign", "sign"],
    &["cosign", "attest"],
    &["cosign", "copy"],
    &["cosign", "attach"],
    &["cosign", "upload"],
    &["ko", "build"],
    &["ko", "publish"],
    &["ko", "apply"],
    &["ko", "create"],
    &["ko", "resolve"],
    &["ko", "run"],
    // A remote client: every command runs on another machine's service.
    &["podman-remote"],
    // Cluster and fleet deploys, as `kubectl apply`.
    &["skaffold", "run"],
    &["skaffold", "deploy"],
    &["skaffold", "dev"],
    &["skaffold", "apply"],
    &["skaffold", "delete"],
    &["tilt", "up"],
    &["tilt", "down"],
    &["tilt", "ci"],
    &["argocd", "app", "sync"],
    &["argocd", "app", "create"],
    &["argocd", "app", "delete"],
    &["argocd", "app", "set"],
    &["argocd", "app", "patch"],
    &["argocd", "app", "rollback"],
    &["flux", "reconcile"],
    &["flux", "create"],
    &["flux", "delete"],
    &["flux", "suspend"],
    &["flux", "resume"],
    &["flux", "bootstrap"],
    &["nomad", "run"],
    &["nomad", "stop"],
    &["nomad", "job", "run"],
    &["nomad", "job", "stop"],
    &["nomad", "job", "dispatch"],
    &["nomad", "job", "revert"],
    &["packer", "build"],
    // Commands run on the inventory's machines, as `ssh HOST`.
    &["ansible-playbook"],
    &["ansible"],
    // A key installed on another machine (it connects, as `ssh HOST`).
    &["ssh-copy-id"],
    // Raw connections and transfers to another machine, as a redirection
    // to `/dev/tcp/…` (SPEC §6.1). In the running container, a run of a
    // socket client whose every address is loopback (§4.5 item 3, the
    // rows of shell/catalogue/net.toml) is none.
    &["nc"],
    &["ncat"],
    &["netcat"],
    &["socat"],
    &["telnet"],
    &["ftp"],
    &["lftp"],
    &["tftp"],
    // Mail sent, as `git send-email`.
    &["mail"],
    &["mailx"],
    &["sendmail"],
    &["msmtp"],
];

/// [round 4] What leaves something that runs later on the person's
/// machine (SPEC §6.1): external-effect unless the command runs in the
/// running container (§6.2's first case). Read like [`EXTERNAL_EFFECT`]
/// (options anywhere, [`SUBCOMMAND_ALIASES`], [`PREFIX_TOOLS`]); a short
/// option token is also found in a cluster (`screen -dmS x`, `tmux new
/// -ds x`), up to a letter [`OPTION_GRAMMAR`] says takes a value. The
/// wrappers that detach what they run (`setsid -f`, `nohup … &`) say so
/// in their rows (`Wrapper::detach`).
pub const LATER_ON_HOST: &[&[&str]] = &[
    // Jobs installed for cron and atd (`crontab -l` and `at -l` only read:
    // [`LATER_READS`]).
    &["crontab"],
    &["at"],
    &["batch"],
    // A transient unit systemd runs, on its own, after the command.
    &["systemd-run"],
    // Units enabled, started or (re)loaded: they run past the command and
    // at every boot or login (`--user` is an option: found anywhere).
    &["systemctl", "enable"],
    &["systemctl", "reenable"],
    &["systemctl", "preset"],
    &["systemctl", "preset-all"],
    &["systemctl", "link"],
    &["systemctl", "edit"],
    &["systemctl", "add-wants"],
    &["systemctl", "add-requires"],
    &["systemctl", "set-default"],
    &["systemctl", "unmask"],
    &["systemctl", "set-environment"],
    &["systemctl", "import-environment"],
    &["systemctl", "daemon-reload"],
    &["systemctl", "daemon-reexec"],
    // (`restart` and its kin act on a unit already set up, as `stop`
    // does: the person's own configuration.)
    &["systemctl", "start"],
    &["systemctl", "isolate"],
    // A user's services kept running after they log out.
    &["loginctl", "enable-linger"],
    // launchd's jobs (macOS): loaded, bootstrapped, submitted, enabled or
    // started.
    &["launchctl", "load"],
    &["launchctl", "bootstrap"],
    &["launchctl", "submit"],
    &["launchctl", "enable"],
    &["launchctl", "kickstart"],
    &["launchctl", "start"],
    // A repository registered for git's scheduled maintenance (cron,
    // launchd or systemd timers run `git for-each-repo` later).
    &["git", "maintenance", "register"],
    &["git", "maintenance", "start"],
    // A tmux server runs what these give it after the client exits: a
    // detached session, a window or pane in a running one, keys typed
    // into one, a shell command, a hook or a key binding run later
    // (tmux 3.3a: commands by alias or unique prefix).
    &["tmux", "new-session", "-d"],
    &["tmux", "new-window"],
    &["tmux", "split-window"],
    &["tmux", "respawn-pane"],
    &["tmux", "respawn-window"],
    &["tmux", "send-keys"],
    &["tmux", "run-shell"],
    &["tmux", "if-shell"],
    &["tmux", "pipe-pane"],
    &["tmux", "set-hook"],
    &["tmux", "bind-key"],
    // A detached screen session (`-d -m`, `-D -m`), or a command sent to
    // a running one (`-X`).
    &["screen", "-d", "-m"],
    &["screen", "-D", "-m"],
    &["screen", "-X"],
    // A job removed from the shell's table, so that it outlives the
    // shell (`cmd & disown`).
    &["disown"],
];

/// Privileged verbs (SPEC §5 step 7b, with the [hardening] additions).
pub const PRIVILEGED: &[&str] = &[
    "sudo", "doas", "su", "pkexec", "run0", // [round 3]
    "sudoedit", "sudo-rs", "ksu", "please", "dzdo", "pbrun", "gosu", "su-exec", "calife", "super",
    "capsh", "setpriv",
];

/// The devices through which bash opens a network connection, with the
/// external-effect entry each stands for (SPEC §6.1, round 3).
pub(crate) const NETWORK_DEVICES: [(&str, &[&str]); 2] = [
    ("/dev/tcp/", &["> /dev/tcp/…"]),
    ("/dev/udp/", &["> /dev/udp/…"]),
];

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
/// called, by client: docker's names for any other.
pub(crate) fn remote_daemon_names(
    client: &str,
) -> (&'static [&'static str], &'static [&'static str]) {
    if client == "podman" {
        (PODMAN_REMOTE, PODMAN_REGISTRY_PUSH)
    } else {
        (REMOTE_DAEMON, REGISTRY_PUSH)
    }
}

/// Options that take the next word as their value, and options that take
/// none, per tool (SPEC §6.1 round 3: options anywhere the program takes
/// them). Any other option word without `=` is read both ways (fail
/// closed: `git subtree -P x push` is a push whether or not `-P` takes
/// `x`).
pub(crate) const OPTION_GRAMMAR: &[(&str, &[&str], &[&str])] = &[
    (
        "git",
        &GIT_GRAMMAR_VALUED,
        &[
            "-p",
            "--paginate",
            "--no-pager",
            "--bare",
            "-v",
            "--verbose",
            "-q",
            "--quiet",
            "-f",
            "--force",
            "-n",
            "--dry-run",
            "-u",
            "--set-upstream",
            "--all",
            "--tags",
            "--mirror",
            "--no-verify",
            "--rebase",
            "--ff-only",
            "--no-ff",
            "--squash",
        ],
    ),
    (
        "gh",
        &[
            "-R",
            "--repo",
            "-t",
            "--title",
            "-b",
            "--body",
            "-B",
            "--base",
            "-H",
            "--head",
            "-F",
            "--body-file",
            "-l",
            "--label",
            "-a",
            "--assignee",
            "-m",
            "--milestone",
            "-r",
            "--reviewer",
            "-e",
            "--env",
            "-o",
            "--org",
        ],
        &[
            "-w", "--web", "-d", "--draft", "-f", "--fill", "--yes", "-y", "--squash", "--merge",
            "--rebase", "--admin", "--auto",
        ],
    ),
    (
        "helm",
        &[
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "-f",
            "--values",
            "--set",
            "--set-string",
            "--version",
            "--timeout",
            "--repo",
        ],
        &[
            "--debug",
            "--wait",
            "--atomic",
            "--dry-run",
            "--install",
            "-i",
            "--create-namespace",
            "--force",
        ],
    ),
    (
        "kubectl",
        &[
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "-f",
            "--filename",
            "-l",
            "--selector",
            "-o",
            "--output",
            "-c",
            "--container",
            "--replicas",
            "--image",
            "--type",
            "--port",
        ],
        &[
            "-A",
            "--all-namespaces",
            "-R",
            "--recursive",
            "--dry-run",
            "-i",
            "--stdin",
            "-t",
            "--tty",
            "--overwrite",
            "--force",
        ],
    ),
    (
        "docker",
        &[
            "--config",
            "-l",
            "--log-level",
            "-t",
            "--tag",
            "-f",
            "--file",
            "--platform",
            "--build-arg",
            "--target",
            "-o",
            "--output",
            "--builder",
            "-p",
            "--project-name",
        ],
        &[
            "-D",
            "--debug",
            "--tls",
            "--tlsverify",
            "-q",
            "--quiet",
            "--push",
            "--load",
            "--no-cache",
            "--pull",
            "-a",
            "--all-tags",
        ],
    ),
    (
        "npm",
        &[
            "-w",
            "--workspace",
            "--registry",
            "--tag",
            "--otp",
            "--access",
            "-C",
            "--prefix",
            "--userconfig",
        ],
        &[
            "-g",
            "--global",
            "--dry-run",
            "-ws",
            "--workspaces",
            "-f",
            "--force",
            "--provenance",
            "--ignore-scripts",
        ],
    ),
    (
        // tmux 3.3a: its own options (`-L`, `-S`, `-f`, `-c`, `-T`), then
        // the commands' (new-session's, send-keys'…): the letters that
        // take a value end a cluster (`new -ds name`).
        "tmux",
        &[
            "-c", "-e", "-f", "-F", "-L", "-n", "-s", "-S", "-t", "-T", "-x", "-y", "-N", "-l",
            "-p",
        ],
        &[
            "-2", "-C", "-D", "-u", "-v", "-V", "-d", "-A", "-E", "-P", "-X", "-h", "-b", "-k",
        ],
    ),
    (
        // GNU screen 4.9's options whose value ends a cluster (`-dmS name
        // CMD`).
        "screen",
        &["-c", "-e", "-h", "-p", "-s", "-S", "-T", "-t"],
        &[
            "-a", "-A", "-d", "-D", "-m", "-q", "-r", "-R", "-x", "-U", "-O", "-i", "-L",
        ],
    ),
    (
        // systemd 252's systemctl.
        "systemctl",
        &[
            "-H",
            "--host",
            "-M",
            "--machine",
            "-t",
            "--type",
            "-p",
            "--property",
            "-P",
            "-s",
            "--signal",
            "-n",
            "--lines",
            "-o",
            "--output",
            "--root",
            "--image",
            "--state",
        ],
        &[
            "--user",
            "--system",
            "--global",
            "--runtime",
            "--now",
            "-q",
            "--quiet",
            "--no-block",
            "--no-reload",
            "--no-pager",
            "--no-ask-password",
            "-f",
            "--force",
            "-a",
            "--all",
            "-l",
            "--full",
            "--wait",
            "--dry-run",
            "-i",
        ],
    ),
];

/// The privileged verb a message names when a privileged run has no verb
/// of its own to show (SPEC §5 step 7b): the first of [`PRIVILEGED`].
pub const PRIVILEGED_SHOWN: &str = PRIVILEGED[0];

/// git's options that take the next word, for [`OPTION_GRAMMAR`]: its
/// global ones ([`super::git::GIT_VALUE_OPTIONS`]), then its subcommands'.
const GIT_GRAMMAR_VALUED: [&str;
    super::git::GIT_VALUE_OPTIONS.len() + GIT_SUBCOMMAND_VALUED.len()] =
    super::concat(&[super::git::GIT_VALUE_OPTIONS, GIT_SUBCOMMAND_VALUED]);

/// git's subcommands' options that take the next word (`commit -m`, `push
/// -o`, `branch -t`…).
const GIT_SUBCOMMAND_VALUED: &[&str] = &[
    "-m",
    "--message",
    "-t",
    "--track",
    "-o",
    "--push-option",
    "--repo",
];

include!(concat!(env!("OUT_DIR"), "/catalogue/effects.rs"));
