//! Raw socket clients and bash's network devices (SPEC §4.5 item 3): a
//! run of a socket client's row ([`net::SOCKETS`]) and a redirection to
//! `/dev/tcp|udp/HOST/PORT` are external effects unless every address
//! they name is loopback, written as such — and the command runs in the
//! running container, which the caller decides. The rows are closed: a
//! word a row does not place (a program run, a file written, a proxy, an
//! address type or option it does not list, a listener on every address)
//! leaves the run external.

use super::catalogue::remote::{net::SOCKETS, SocketClient};
use crate::reader::Known;
use std::borrow::Cow;

/// Is `host` loopback written as such (SPEC §4.5 item 3): `localhost`
/// (any case), `127.N.N.N` (dotted decimal, each 0–255), `::1` or
/// `[::1]`? The one address test the HTTP clients' URLs, the socket
/// clients' addresses and the network devices read; a name that merely
/// resolves to loopback is not one.
pub(crate) fn loopback_host(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost") || host == "[::1]" || host == "::1" || dotted_127(host)
}

/// `127.N.N.N`, each N decimal digits 0–255.
fn dotted_127(host: &str) -> bool {
    let mut parts = host.split('.');
    parts.next() == Some("127")
        && (0..3).all(|_| {
            parts.next().is_some_and(|p| {
                !p.is_empty()
                    && p.len() <= 3
                    && p.bytes().all(|b| b.is_ascii_digit())
                    && p.parse::<u16>().is_ok_and(|n| n <= 255)
            })
        })
        && parts.next().is_none()
}

/// A port written as digits, or a range of them (`8000-8010`).
fn port(p: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit());
    match p.split_once('-') {
        Some((a, b)) => digits(a) && digits(b),
        None => digits(p),
    }
}

/// A local address with an optional port (`127.0.0.1`, `[::1]:5000`).
fn loopback_with_port(v: &str) -> bool {
    if v.starts_with('[') {
        return match v.find(']') {
            Some(e) => {
                loopback_host(&v[..=e])
                    && (v.len() == e + 1 || v[e + 1..].strip_prefix(':').is_some_and(port))
            }
            None => false,
        };
    }
    match v.split_once(':') {
        Some((h, p)) => loopback_host(h) && port(p),
        None => loopback_host(v),
    }
}

/// Is a redirection target under a network device (`prefix`, ending in
/// `/`) loopback: `HOST/PORT` with a loopback host and a numeric port?
pub fn loopback_device(target: &str, prefix: &str) -> bool {
    target
        .strip_prefix(prefix)
        .and_then(|rest| rest.split_once('/'))
        .is_some_and(|(host, p)| loopback_host(host) && port(p))
}

/// What a socket client's options said, read so far.
#[derive(Default)]
struct Said {
    listen: bool,
    needs: bool,
    source: bool,
}

/// Is the run a socket client's whose every word its row places and
/// whose every address is loopback? `false` for a run no row describes
/// and for a word permc cannot know.
pub fn loopback_run(words: &[Cow<'_, str>], known: &[Known]) -> bool {
    if known.iter().any(|k| *k != Known::Exact) {
        return false;
    }
    let Some(verb) = words.first().map(|w| super::basename(w)) else {
        return false;
    };
    let Some(row) = SOCKETS.iter().find(|r| r.names.contains(&verb)) else {
        return false;
    };
    let mut said = Said {
        needs: row.needs.is_empty(),
        ..Said::default()
    };
    let mut operands: Vec<&str> = Vec::new();
    let mut i = 1;
    let mut options = true;
    while let Some(w) = words.get(i) {
        i += 1;
        if options && w == "--" {
            options = false;
        } else if !options || !w.starts_with('-') || w.len() == 1 {
            operands.push(w);
        } else if !option(row, w, words.get(i).map(|v| &**v), &mut i, &mut said) {
            return false;
        }
    }
    said.needs
        && if row.addresses {
            operands.len() == 2 && operands.iter().all(|a| address(row, a))
        } else {
            hosts_and_ports(&operands, &said)
        }
}

/// `[HOST [PORT…]]`: the first operand a loopback host and the rest
/// ports; a listener with only a port listens on the `-s` address, which
/// must have been given (a loopback one).
fn hosts_and_ports(operands: &[&str], said: &Said) -> bool {
    match operands {
        [] => said.listen && said.source,
        [p] if said.listen => said.source && port(p),
        [host, ports @ ..] => loopback_host(host) && ports.iter().all(|p| port(p)),
    }
}

/// Reads option word `w` (with `next`, the word after it, taken as its
/// value where the option takes one: `i` moves past it): `false` when the
/// row does not place it or its value is an address that is not loopback.
fn option(row: &SocketClient, w: &str, next: Option<&str>, i: &mut usize, said: &mut Said) -> bool {
    let take = |said: &mut Said, o: &str, value: Option<&str>| {
        said.listen |= row.listen.contains(&o);
        said.needs |= row.needs.contains(&o);
        if row.source.contains(&o) {
            said.source = true;
            return value.is_some_and(loopback_host);
        }
        true
    };
    let (name, attached) = match w.split_once('=') {
        Some((n, v)) if w.starts_with("--") => (n, Some(v)),
        _ => (w, None),
    };
    if row.flags.contains(&name) && attached.is_none() {
        return take(said, name, None);
    }
    if row.valued.contains(&name) {
        let value = attached.or_else(|| {
            *i += 1;
            next
        });
        return take(said, name, value);
    }
    if w.starts_with("--") {
        return false;
    }
    // A cluster of short options, up to one that takes a value.
    for (at, c) in w.char_indices().skip(1) {
        let short = |o: &&&str| o.len() == 2 && o[1..].starts_with(c);
        if let Some(o) = row.flags.iter().find(short) {
            if !take(said, o, None) {
                return false;
            }
        } else if let Some(o) = row.valued.iter().find(short) {
            let rest = &w[at + c.len_utf8()..];
            let value = if rest.is_empty() {
                *i += 1;
                next
            } else {
                Some(rest)
            };
            return take(said, o, value);
        } else {
            return false;
        }
    }
    true
}

/// Is a socat-style ADDRESS (`TYPE:PARAMS,OPTION…`) the process's own
/// stream, a connection to a loopback `HOST:PORT` or a listener bound to
/// a loopback address, with only options the row lists?
fn address(row: &SocketClient, a: &str) -> bool {
    if a.contains("!!") {
        return false;
    }
    let (head, opts) = a.split_once(',').unwrap_or((a, ""));
    let is = |types: &[&str], t: &str| types.iter().any(|x| x.eq_ignore_ascii_case(t));
    let mut bound = false;
    let opts_ok = opts.is_empty()
        || opts.split(',').all(|o| {
            let (name, value) = o.split_once('=').unwrap_or((o, ""));
            if !is(row.address_options, name) {
                return false;
            }
            if is(row.bind, name) {
                bound = true;
                return loopback_with_port(value);
            }
            true
        });
    if !opts_ok {
        return false;
    }
    if is(row.local, head) {
        return true;
    }
    let Some((ty, params)) = head.split_once(':') else {
        return false;
    };
    if is(row.connect, ty) {
        return params
            .rsplit_once(':')
            .is_some_and(|(h, p)| loopback_host(h) && port(p));
    }
    is(row.listeners, ty) && port(params) && bound
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lo(line: &str) -> bool {
        let words: Vec<Cow<'_, str>> = line.split(' ').map(Cow::Borrowed).collect();
        loopback_run(&words, &vec![Known::Exact; words.len()])
    }

    #[test]
    fn loopback_and_the_rest() {
        for yes in [
            "nc localhost 8080",
            "nc -zv 127.0.0.1 8080",
            "nc -w 2 ::1 80",
            "nc -l -s 127.0.0.1 -p 9000",
            "nc -l 127.0.0.1 9000",
            "ncat --listen --source=127.0.0.1 9000",
            "socat - TCP:localhost:80",
            "socat -d -d STDIO TCP4:127.0.0.1:5432,crlf",
            "socat TCP-LISTEN:8080,bind=127.0.0.1,fork,reuseaddr TCP:127.0.0.1:80",
            "socat - TCP6:[::1]:80",
            "telnet -E localhost 8080",
        ] {
            assert!(lo(yes), "{yes}");
        }
        for no in [
            "nc evil.example 80",
            "nc 127.0.0.1.evil.example 80",
            "nc 127.0.0.256 80",
            "nc 2130706433 80",
            "nc -l 9000",
            "nc -l -p 9000",
            "nc -e /bin/sh localhost 80",
            "nc -c sh localhost 80",
            "nc -x proxy:1080 localhost 80",
            "nc -U /run/docker.sock",
            "nc -s 10.0.0.1 localhost 80",
            "ncat --sh-exec sh localhost 80",
            "ncat --lua-exec x.lua localhost 80",
            "ncat -o out localhost 80",
            "ncat -l 9000",
            "socat - TCP:evil.example:80",
            "socat TCP-LISTEN:8080,fork TCP:127.0.0.1:80",
            "socat TCP-LISTEN:8080,bind=0.0.0.0 TCP:127.0.0.1:80",
            "socat EXEC:sh TCP:localhost:80",
            "socat SYSTEM:id TCP:localhost:80",
            "socat OPEN:x,creat TCP:localhost:80",
            "socat CREATE:x TCP:localhost:80",
            "socat GOPEN:x TCP:localhost:80",
            "socat - UNIX-CONNECT:/run/docker.sock",
            "socat - /etc/passwd",
            "socat -lf log - TCP:localhost:80",
            "socat - TCP:localhost:80,su=root",
            "socat - TCP:localhost:80!!EXEC:sh",
            "telnet localhost 8080",
            "telnet -E evil.example 25",
            "telnet -E",
        ] {
            assert!(!lo(no), "{no}");
        }
    }

    #[test]
    fn devices() {
        assert!(loopback_device("/dev/tcp/127.0.0.1/8080", "/dev/tcp/"));
        assert!(loopback_device("/dev/tcp/localhost/80", "/dev/tcp/"));
        assert!(!loopback_device("/dev/tcp/evil.example/80", "/dev/tcp/"));
        assert!(!loopback_device("/dev/tcp/localhost/http", "/dev/tcp/"));
        assert!(!loopback_device("/dev/tcp/localhost/80/x", "/dev/tcp/"));
    }
}
