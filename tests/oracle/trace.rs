//! strace's output read back as the effects a command had: the programs
//! it started, the files it created, wrote, renamed or removed, and the
//! addresses it connected or sent to.
//!
//! strace runs outside the sandbox (`strace -f -y --decode-pids=pidns
//! bwrap …`), so the command cannot touch the tracer or its log. The
//! trace holds bwrap's own set-up too: only the process that execs the
//! command line (the *marker* exec) and its descendants, found by the
//! clone calls' return values in strace's PID namespace, are read.

use std::collections::{HashMap, HashSet};

/// One effect of the traced command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// A program started, or tried: the process, its parent, argv, and
    /// why the exec failed (`ENOENT`, `EACCES`: the program is not
    /// installed or not executable), `None` when it started. An attempt
    /// is judged as a start (SPEC §4.5 item 5: a program the command
    /// *tried* to run is one it runs where that program is installed).
    Exec {
        pid: u32,
        parent: Option<u32>,
        argv: Vec<String>,
        failed: Option<String>,
    },
    /// A file created, opened for writing, renamed, linked or removed
    /// (the path as the sandbox sees it, resolved against the dirfd
    /// strace decoded), and whether the call succeeded.
    Write {
        pid: u32,
        call: String,
        path: String,
        ok: bool,
    },
    /// A file opened only for reading (the path as the sandbox sees it),
    /// and whether the open succeeded: a described row's `text` word
    /// must never be one (SPEC §4.5 item 5).
    Read { pid: u32, path: String, ok: bool },
    /// A connect or sendto to an address (`127.0.0.1:9418`, `[::1]:53`,
    /// `unix:/path`, else strace's text for it), and whether it succeeded.
    Connect { pid: u32, address: String, ok: bool },
}

/// The syscalls the tracer records (`-e trace=`).
pub const TRACED: &str =
    "execve,execveat,open,openat,openat2,creat,truncate,rename,renameat,renameat2,\
unlink,unlinkat,rmdir,mkdir,mkdirat,link,linkat,symlink,symlinkat,mknod,mknodat,\
connect,sendto,sendmsg,clone,clone3,fork,vfork";

/// One call of the trace: pid, name, arguments (strace's text, split at
/// the top level) and the return text.
struct Call {
    pid: u32,
    name: String,
    args: Vec<String>,
    ret: String,
}

/// What a trace shows: the effects in order, and each traced process's
/// parent.
#[derive(Debug, Default)]
pub struct Trace {
    pub effects: Vec<Effect>,
    pub parent: HashMap<u32, u32>,
}

/// The effects of the process that exec'd `marker` (the argv bwrap runs)
/// and of its descendants, in order. `None` when the marker exec is not
/// in the trace: the command did not start.
pub fn effects(trace: &str, marker: &[String], root: &str) -> Option<Trace> {
    let mut pending: HashMap<u32, String> = HashMap::new();
    let mut tracked: HashSet<u32> = HashSet::new();
    let mut parent: HashMap<u32, u32> = HashMap::new();
    // Each process's cwd, as `-y` last showed it (`AT_FDCWD</srv/project>`),
    // for the calls without a dirfd (`rename`, `mkdir`, `unlink`).
    let mut cwd: HashMap<u32, String> = HashMap::new();
    let mut started = false;
    let mut out = Vec::new();
    // Per process, its last effect when it was an exec: a PATH search
    // (execvp, dash) tries each directory with the same argv, one attempt.
    let mut last_exec: HashMap<u32, usize> = HashMap::new();
    // The calls of a process not known yet: strace may print a new
    // process's (or thread's) first calls before its parent's clone
    // returns, so they wait for that return (a process that never
    // descends from the marker's waits for ever).
    let mut waiting: HashMap<u32, Vec<Call>> = HashMap::new();
    let mut work: Vec<Call> = Vec::new();
    for line in trace.lines() {
        let Some(call) = join(line, &mut pending).and_then(|l| parse(&l)) else {
            continue;
        };
        if !started {
            if call.name == "execve" && ret_ok(&call.ret) {
                let argv = call.args.get(1).map(|a| strings(a)).unwrap_or_default();
                if argv == marker {
                    started = true;
                    tracked.insert(call.pid);
                }
            }
            continue;
        }
        work.push(call);
        while let Some(call) = work.pop() {
            if !tracked.contains(&call.pid) {
                waiting.entry(call.pid).or_default().push(call);
                continue;
            }
            if let Some(c) = call.args.iter().find(|a| a.starts_with("AT_FDCWD<")) {
                cwd.insert(call.pid, c.clone());
            }
            if let Some(child) = child_pid(&call) {
                tracked.insert(child);
                parent.insert(child, call.pid);
                if let Some(c) = cwd.get(&call.pid).cloned() {
                    cwd.insert(child, c);
                }
                // Its calls so far, in their order, before the next line.
                work.extend(waiting.remove(&child).unwrap_or_default().into_iter().rev());
                continue;
            }
            let start = format!("AT_FDCWD<{root}>");
            let here = cwd.get(&call.pid).map_or(start.as_str(), String::as_str);
            let Some(e) = effect(&call, parent.get(&call.pid).copied(), here) else {
                continue;
            };
            let retry = match (&e, last_exec.get(&call.pid).and_then(|&i| out.get(i))) {
                (
                    Effect::Exec { argv, .. },
                    Some(Effect::Exec {
                        argv: a, failed, ..
                    }),
                ) => failed.is_some() && a == argv,
                _ => false,
            };
            if retry {
                let i = last_exec[&call.pid];
                out[i] = e;
                continue;
            }
            // A read between two tries of a PATH search is none of its
            // tries' business: only another effect ends the search.
            match e {
                Effect::Exec { .. } => {
                    last_exec.insert(call.pid, out.len());
                }
                Effect::Read { .. } => {}
                _ => {
                    last_exec.remove(&call.pid);
                }
            }
            out.push(e);
        }
    }
    started.then_some(Trace {
        effects: out,
        parent,
    })
}

/// A whole line: an `<unfinished ...>` call is kept until its `<...
/// resumed>` line completes it.
fn join(line: &str, pending: &mut HashMap<u32, String>) -> Option<String> {
    let (pid, rest) = line.split_once(' ')?;
    let pid: u32 = pid.trim().parse().ok()?;
    let rest = rest.trim_start();
    if let Some(head) = rest.strip_suffix("<unfinished ...>") {
        pending.insert(pid, head.trim_end().to_string());
        return None;
    }
    if rest.starts_with("<...") {
        let tail = rest.split_once("resumed>")?.1;
        let head = pending.remove(&pid)?;
        return Some(format!("{pid} {head}{tail}"));
    }
    if rest.starts_with("+++") || rest.starts_with("---") {
        return None;
    }
    Some(format!("{pid} {rest}"))
}

fn parse(line: &str) -> Option<Call> {
    let (pid, rest) = line.split_once(' ')?;
    let open = rest.find('(')?;
    let name = rest[..open].to_string();
    let (args, end) = split_args(&rest[open + 1..])?;
    let ret = rest[open + 1 + end..]
        .trim_start_matches(')')
        .trim()
        .trim_start_matches('=')
        .trim()
        .to_string();
    Some(Call {
        pid: pid.parse().ok()?,
        name,
        args,
        ret,
    })
}

/// The top-level arguments of a call and the index of its closing `)`.
fn split_args(s: &str) -> Option<(Vec<String>, usize)> {
    let b = s.as_bytes();
    let (mut depth, mut i, mut start) = (0i32, 0usize, 0usize);
    let mut args = Vec::new();
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'[' | b'{' | b'(' => depth += 1,
            b']' | b'}' => depth -= 1,
            b')' if depth == 0 => {
                let a = s[start..i].trim();
                if !a.is_empty() {
                    args.push(a.to_string());
                }
                return Some((args, i));
            }
            b')' => depth -= 1,
            b',' if depth == 0 => {
                args.push(s[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn ret_ok(ret: &str) -> bool {
    !ret.starts_with('-') && !ret.starts_with('?')
}

/// A failed call's error name (`-1 ENOENT (No such file…)` → `ENOENT`).
fn errno(ret: &str) -> Option<String> {
    (!ret_ok(ret)).then(|| ret.split_whitespace().nth(1).unwrap_or(ret).to_string())
}

/// The child of a clone, fork or vfork, in strace's PID namespace.
fn child_pid(call: &Call) -> Option<u32> {
    if !matches!(call.name.as_str(), "clone" | "clone3" | "fork" | "vfork") {
        return None;
    }
    // `= 2 /* 24580 in strace's PID NS */`, or `= 24580` without one.
    let outer = call
        .ret
        .split_once("/*")
        .and_then(|(_, c)| c.split_whitespace().next());
    outer
        .or_else(|| call.ret.split_whitespace().next())
        .and_then(|p| p.parse().ok())
}

fn effect(call: &Call, parent: Option<u32>, fdcwd: &str) -> Option<Effect> {
    let ok = ret_ok(&call.ret);
    let a = |i: usize| call.args.get(i).map(String::as_str).unwrap_or("");
    let write = |dir: &str, path: &str| Effect::Write {
        pid: call.pid,
        call: call.name.clone(),
        path: resolve(dir, &unquote(path)),
        ok,
    };
    let read = |dir: &str, path: &str| Effect::Read {
        pid: call.pid,
        path: resolve(dir, &unquote(path)),
        ok,
    };
    match call.name.as_str() {
        "execve" => Some(Effect::Exec {
            pid: call.pid,
            parent,
            argv: strings(a(1)),
            failed: errno(&call.ret),
        }),
        "execveat" => Some(Effect::Exec {
            pid: call.pid,
            parent,
            argv: strings(a(2)),
            failed: errno(&call.ret),
        }),
        "open" if writes(a(1)) => Some(write(fdcwd, a(0))),
        "openat" | "openat2" if writes(a(2)) => Some(write(a(0), a(1))),
        "open" => Some(read(fdcwd, a(0))),
        "openat" | "openat2" => Some(read(a(0), a(1))),
        "creat" | "truncate" | "unlink" | "rmdir" | "mkdir" | "mknod" => Some(write(fdcwd, a(0))),
        "unlinkat" | "mkdirat" | "mknodat" => Some(write(a(0), a(1))),
        "rename" | "link" | "symlink" => Some(write(fdcwd, a(1))),
        "renameat" | "renameat2" | "linkat" => Some(write(a(2), a(3))),
        "symlinkat" => Some(write(a(1), a(2))),
        "connect" => address(a(1)).map(|address| Effect::Connect {
            pid: call.pid,
            address,
            ok,
        }),
        "sendto" => address(a(4)).map(|address| Effect::Connect {
            pid: call.pid,
            address,
            ok,
        }),
        "sendmsg" => address(a(1)).map(|address| Effect::Connect {
            pid: call.pid,
            address,
            ok,
        }),
        _ => None,
    }
}

/// An open's flags that may change a file.
fn writes(flags: &str) -> bool {
    ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"]
        .iter()
        .any(|f| flags.contains(f))
}

/// The address of a socket call, when it names one that leaves the
/// process: an IP address, or a Unix socket other than the name
/// service cache glibc asks for users and hosts.
fn address(arg: &str) -> Option<String> {
    // The text after `key` up to the next `end` (`htons(9418)` → 9418).
    let field = |key: &str, end: char| {
        arg.split_once(key)
            .and_then(|(_, r)| r.split(end).next())
            .map(str::to_string)
    };
    if arg.contains("AF_INET6") {
        if let (Some(port), Some(host)) = (
            field("sin6_port=htons(", ')'),
            field("inet_pton(AF_INET6, \"", '"'),
        ) {
            return Some(format!("[{host}]:{port}"));
        }
    } else if arg.contains("AF_INET") {
        if let (Some(port), Some(host)) =
            (field("sin_port=htons(", ')'), field("inet_addr(\"", '"'))
        {
            return Some(format!("{host}:{port}"));
        }
    }
    if arg.contains("AF_INET") || arg.contains("AF_PACKET") {
        return Some(arg.to_string());
    }
    if arg.contains("AF_UNIX") && !arg.contains("nscd") {
        let path = field("sun_path=", ',').unwrap_or_default();
        return Some(format!("unix:{}", unquote(path.trim_end_matches('}'))));
    }
    None
}

/// A dirfd's path as `-y` decodes it (`AT_FDCWD</srv/project>`,
/// `3</srv/project/src>`), joined with a path and normalized.
pub fn resolve(dir: &str, path: &str) -> String {
    let base = dir
        .split_once('<')
        .map(|(_, d)| d.trim_end_matches('>'))
        .unwrap_or("/");
    let full = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{base}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for p in full.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// strace's list of strings (`["git", "log"]`) as strings.
pub fn strings(list: &str) -> Vec<String> {
    let inner = list.trim().trim_start_matches('[').trim_end_matches(']');
    let Some((items, _)) = split_args(&format!("{inner})")) else {
        return Vec::new();
    };
    items.iter().map(|s| unquote(s)).collect()
}

/// A C string as strace prints it (`"a\"b\n"`), unescaped.
fn unquote(s: &str) -> String {
    let s = s.trim();
    let s = s.strip_suffix("...").unwrap_or(s);
    let Some(inner) = s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return s.to_string();
    };
    let mut out = Vec::new();
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = b[i];
        i += 1;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'v' => 0x0b,
            b'f' => 0x0c,
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    n += 1;
                }
                (v & 0xff) as u8
            }
            c => c,
        });
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_trace() {
        let t = r#"10 execve("/usr/bin/bwrap", ["bwrap"], 0x1 /* 3 vars */) = 0
11 openat(AT_FDCWD</>, "/newroot/x", O_WRONLY|O_CREAT, 0644) = 3
12 execve("/bin/bash", ["/bin/bash", "-c", "a \"b\""], 0x1 /* 3 vars */) = 0
12 clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>
12 <... clone resumed>) = 3 /* 13 in strace's PID NS */
13 execve("/usr/bin/sort", ["sort", "-o", "out"], 0x1 /* 3 vars */) = 0
13 openat(AT_FDCWD</srv/project/src>, "../out", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</srv/project/out>
13 openat(AT_FDCWD</srv/project>, "x", O_RDONLY) = 3</srv/project/x>
13 connect(3, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")}, 16) = -1 ENETUNREACH (Network is unreachable)
"#;
        let marker: Vec<String> = ["/bin/bash", "-c", "a \"b\""].map(String::from).to_vec();
        let e = effects(t, &marker, "/srv/project")
            .expect("the marker")
            .effects;
        assert_eq!(e.len(), 4, "{e:?}");
        assert!(
            matches!(&e[0], Effect::Exec { argv, parent: Some(12), .. } if argv == &["sort", "-o", "out"])
        );
        assert!(
            matches!(&e[1], Effect::Write { path, ok: true, .. } if path == "/srv/project/out")
        );
        assert!(matches!(&e[2], Effect::Read { path, ok: true, .. } if path == "/srv/project/x"));
        assert!(
            matches!(&e[3], Effect::Connect { address, ok: false, .. } if address == "1.2.3.4:80")
        );
        assert_eq!(
            address(r#"{sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}"#).as_deref(),
            Some("[::1]:53")
        );
        assert_eq!(
            address(r#"{sa_family=AF_UNIX, sun_path="/run/x.sock"}"#).as_deref(),
            Some("unix:/run/x.sock")
        );
    }

    #[test]
    fn a_path_search_is_one_attempt_and_a_failed_exec_is_kept() {
        let t = r#"12 execve("/bin/bash", ["/bin/bash", "-c", "x"], 0x1 /* 3 vars */) = 0
12 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 13 in strace's PID NS */
13 execve("/usr/local/sbin/less", ["less"], 0x1 /* 3 vars */) = -1 ENOENT (No such file or directory)
13 execve("/usr/bin/less", ["less"], 0x1 /* 3 vars */) = 0
12 clone(child_stack=NULL, flags=SIGCHLD) = 4 /* 14 in strace's PID NS */
14 execve("/usr/local/sbin/vi", ["vi", "f"], 0x1 /* 3 vars */) = -1 ENOENT (No such file or directory)
14 execve("/usr/bin/vi", ["vi", "f"], 0x1 /* 3 vars */) = -1 EACCES (Permission denied)
"#;
        let marker: Vec<String> = ["/bin/bash", "-c", "x"].map(String::from).to_vec();
        let e = effects(t, &marker, "/srv/project")
            .expect("the marker")
            .effects;
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(matches!(&e[0], Effect::Exec { argv, failed: None, .. } if argv == &["less"]));
        assert!(
            matches!(&e[1], Effect::Exec { argv, failed: Some(f), .. } if argv == &["vi", "f"] && f == "EACCES")
        );
    }

    /// strace may print a new process's first calls before its parent's
    /// clone returns (the parent's `<unfinished ...>`): they are the
    /// command's all the same, and so are its own children's.
    #[test]
    fn a_child_seen_before_its_clone_returns_is_kept() {
        let t = r#"12 execve("/bin/bash", ["/bin/bash", "-c", "x"], 0x1 /* 3 vars */) = 0
12 clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>
13 execve("/bin/sh", ["sh", "-c", "node t.js"], 0x1 /* 3 vars */) = 0
13 vfork( <unfinished ...>
14 execve("/usr/bin/node", ["node", "t.js"], 0x1 /* 3 vars */) = 0
14 openat(AT_FDCWD</srv/project>, "out", O_WRONLY|O_CREAT, 0666) = 3</srv/project/out>
13 <... vfork resumed>) = 3 /* 14 in strace's PID NS */
12 <... clone resumed>) = 2 /* 13 in strace's PID NS */
20 execve("/usr/bin/python3", ["python3"], 0x1 /* 3 vars */) = 0
"#;
        let marker: Vec<String> = ["/bin/bash", "-c", "x"].map(String::from).to_vec();
        let trace = effects(t, &marker, "/srv/project").expect("the marker");
        let e = &trace.effects;
        assert_eq!(e.len(), 3, "{e:?}");
        assert!(matches!(&e[0], Effect::Exec { argv, .. } if argv[0] == "sh"));
        assert!(matches!(&e[1], Effect::Exec { argv, .. } if argv[0] == "node"));
        assert!(matches!(&e[2], Effect::Write { path, pid: 14, .. } if path == "/srv/project/out"));
        assert_eq!(trace.parent.get(&14), Some(&13));
        assert_eq!(trace.parent.get(&13), Some(&12));
    }
}
