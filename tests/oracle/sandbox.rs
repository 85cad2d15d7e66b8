//! The sandbox every command of the oracle runs in, and only there:
//! bubblewrap with the whole file system read-only (`--ro-bind / /`), a
//! fresh copy of the fixture project read-write at `/srv/project`, its
//! bare origin read-only at `/srv/origin.git`, the canaries read-only at
//! `/srv/canary`, tmpfs HOME and /tmp, no network (`--unshare-all`) but
//! the local stubs of the endpoints rows declare (stubs/: a git daemon
//! and an HTTP server on loopback, started in the sandbox first), no
//! capabilities, a new session, stdin from /dev/null, killed with its
//! parent and after a time limit; strace outside it records every exec,
//! write and connect (trace.rs).
//!
//! [`Sandbox::new`] refuses to start unless a probe shows a write outside
//! the fixture failing and traced.

use super::state::{self, State};
use super::trace::{self, Effect};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where the project is, inside the sandbox, when it runs on a runner;
/// and its path on the host in every request.
pub const PROJECT: &str = "/srv/project";
/// Where the project is in the running container (SPEC §6.2: the
/// container's roots are `/work` and `/tmp`). Bound over the host's
/// `/work` inside the sandbox's own mount namespace only.
pub const CONTAINER_PROJECT: &str = "/work";
/// HOME inside the sandbox (a tmpfs).
pub const HOME: &str = "/home/oracle";
/// The time limit of one command, in seconds.
/// (`tail --follow` runs until it: a longer one costs the suite, not
/// the judgement, which reads what the command did by then.)
const LIMIT: &str = "10";

/// The fixture built once, copied fresh for every command.
pub struct Sandbox {
    root: PathBuf,
    template: PathBuf,
    /// The template's state: every copy starts from it.
    pub before: State,
    next: AtomicUsize,
}

/// What one command did.
pub struct Run {
    pub trace: trace::Trace,
    pub after: State,
    pub status: String,
    pub output: String,
    pub canary: String,
}

/// Why the sandbox cannot run here, in one line.
pub fn missing_tools() -> Option<String> {
    let missing: Vec<&str> = ["bwrap", "strace", "git", "timeout", "python3"]
        .into_iter()
        .filter(|t| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {t}")])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "the oracle needs {}: run `apt-get install -y bubblewrap strace` (tests/all.sh does)",
            missing.join(", ")
        )
    })
}

impl Sandbox {
    /// Builds the fixture (tests/oracle/fixture.sh) and runs the probe.
    pub fn new() -> Result<Sandbox, String> {
        if let Some(why) = missing_tools() {
            return Err(why);
        }
        static SANDBOXES: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "permc-oracle-{}-{}",
            std::process::id(),
            SANDBOXES.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/fixture.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg(root.join("work"))
            .arg(root.join("canary"))
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "fixture.sh failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let template = root.join("work/project");
        let mut sb = Sandbox {
            before: State::default(),
            root,
            template,
            next: AtomicUsize::new(0),
        };
        sb.before = sb.state_of(&sb.template.clone())?;
        sb.probe()?;
        Ok(sb)
    }

    /// A write outside the fixture must fail and be traced, a write
    /// inside it succeed, and the sandbox have no network; else nothing
    /// runs.
    fn probe(&self) -> Result<(), String> {
        let outside = "/etc/permc-oracle-probe";
        let run = self.run(
            "echo probe > /etc/permc-oracle-probe; echo probe > probe-inside; cat /proc/net/tcp; exec cat /proc/net/dev",
            PROJECT,
        )?;
        let traced = run
            .trace
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Write { path, ok: false, .. } if path == outside));
        let inside = run.after.files.contains_key("probe-inside");
        let no_net = !run.output.contains("eth") && !run.output.contains("ens");
        // The stubs listen on 127.0.0.1:9418 and :8080 (hex in /proc/net/tcp).
        let stubs = run.output.contains("0100007F:24CA") && run.output.contains("0100007F:1F90");
        if Path::new(outside).exists() || !traced || !inside || !no_net || !stubs {
            return Err(format!(
                "the sandbox probe failed (outside write traced and failing: {traced}, inside write: {inside}, no network: {no_net}, stubs listening: {stubs}): refusing to run commands\n{}",
                run.output
            ));
        }
        Ok(())
    }

    /// The state of a copy of the project: its files, and its index read
    /// by `git ls-files --stage` in a read-only sandbox (git reads a
    /// config the command may have changed: never outside one).
    fn state_of(&self, copy: &Path) -> Result<State, String> {
        let mut cmd = Command::new("bwrap");
        cmd.args(["--ro-bind", "/", "/", "--tmpfs", "/srv", "--ro-bind"])
            .arg(copy)
            .arg(PROJECT);
        jail(&mut cmd, PROJECT);
        cmd.args(["git", "-c", "core.fsmonitor=false", "ls-files", "--stage"]);
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        state::snapshot(copy, &String::from_utf8_lossy(&out.stdout))
    }

    /// Runs a command line in a fresh copy of the fixture at `root`
    /// ([`PROJECT`], or [`CONTAINER_PROJECT`] as the container sees it),
    /// traced.
    pub fn run(&self, line: &str, root: &str) -> Result<Run, String> {
        self.run_for(line, root, LIMIT)
    }

    /// [`Sandbox::run`] with another time limit, in seconds (a batch of
    /// commands, each with its own limit).
    pub fn run_for(&self, line: &str, root: &str, limit: &str) -> Result<Run, String> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let dir = self.root.join(format!("run-{n}"));
        std::fs::create_dir_all(dir.join("log")).map_err(|e| e.to_string())?;
        let copy = dir.join("project");
        let cp = Command::new("cp")
            .arg("-a")
            .arg(&self.template)
            .arg(&copy)
            .status()
            .map_err(|e| e.to_string())?;
        if !cp.success() {
            return Err("cp -a of the fixture failed".into());
        }
        let marker: Vec<String> = ["/bin/bash", "--noprofile", "--norc", "-c", line]
            .map(String::from)
            .to_vec();
        let tracefile = dir.join("trace");
        let mut cmd = Command::new("timeout");
        cmd.args(["-k", "2", limit, "strace", "-f", "-qq", "-y", "-s", "65536"])
            // Only the traced calls stop the command (seccomp-bpf): a
            // third of the time of a short command.
            .args([
                "--decode-pids=pidns",
                "--seccomp-bpf",
                "-e",
                &format!("trace={}", trace::TRACED),
            ])
            .arg("-o")
            .arg(&tracefile)
            .args(["bwrap", "--ro-bind", "/", "/", "--tmpfs", "/srv", "--bind"])
            .arg(&copy)
            .arg(root)
            .arg("--ro-bind")
            .arg(self.root.join("work/origin.git"))
            .arg("/srv/origin.git")
            .arg("--ro-bind")
            .arg(self.root.join("canary"))
            .arg("/srv/canary")
            .arg("--bind")
            .arg(dir.join("log"))
            .arg("/srv/canary-log")
            .arg("--ro-bind")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/stubs"))
            .arg("/srv/stubs");
        jail(&mut cmd, root);
        // The stubs start first (stubs/start.sh), then exec the marker.
        cmd.args(["/bin/bash", "/srv/stubs/start.sh"]).args(&marker);
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        let text = std::fs::read_to_string(&tracefile).map_err(|e| e.to_string())?;
        let traced = trace::effects(&text, &marker, root)
            .ok_or_else(|| format!("`{line}` did not start in the sandbox: {out:?}"))?;
        let after = self.state_of(&copy)?;
        let canary = std::fs::read_to_string(dir.join("log/log")).unwrap_or_default();
        let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
        output.push_str(&String::from_utf8_lossy(&out.stderr));
        let _ = std::fs::remove_dir_all(&dir);
        Ok(Run {
            trace: traced,
            after,
            status: out.status.to_string(),
            output,
            canary,
        })
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The options every sandbox shares after its binds, and the
/// environment the command sees (PAGER, EDITOR… are canaries).
fn jail(cmd: &mut Command, root: &str) {
    cmd.args(["--tmpfs", "/tmp", "--tmpfs", "/home", "--dir", HOME])
        .args(["--dev", "/dev", "--proc", "/proc", "--unshare-all"])
        .args(["--die-with-parent", "--new-session", "--cap-drop", "ALL"])
        .args(["--chdir", root, "--"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", HOME)
        .env("LANG", "C.UTF-8")
        .env("PAGER", "/srv/canary/pager")
        .env("EDITOR", "/srv/canary/editor")
        .env("VISUAL", "/srv/canary/editor")
        .env("GIT_EDITOR", "/srv/canary/git-editor")
        .env("GIT_SEQUENCE_EDITOR", "/srv/canary/sequence-editor")
        .env("BROWSER", "/srv/canary/browser")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("npm_config_update_notifier", "false")
        .env("npm_config_offline", "true")
        // Python's bytecode caches (and pytest's rewritten plugins' `.pyc`)
        // are the interpreter's, written beside the installed modules on a
        // first import: no row's word, and where pip put them differs by
        // machine (a fresh CI run wrote `site-packages/…/__pycache__`).
        .env("PYTHONDONTWRITEBYTECODE", "1");
    let home = std::env::var("HOME").unwrap_or_default();
    let rustup = std::env::var("RUSTUP_HOME").unwrap_or(format!("{home}/.rustup"));
    cmd.env("RUSTUP_HOME", rustup)
        .env("CARGO_HOME", cargo_home());
    if let Ok(t) = std::env::var("RUSTUP_TOOLCHAIN") {
        cmd.env("RUSTUP_TOOLCHAIN", t);
    }
}

/// The toolchain's CARGO_HOME (read-only in the sandbox).
pub fn cargo_home() -> String {
    std::env::var("CARGO_HOME").unwrap_or(format!(
        "{}/.cargo",
        std::env::var("HOME").unwrap_or_default()
    ))
}
