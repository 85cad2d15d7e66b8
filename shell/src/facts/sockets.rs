//! Raw socket clients and bash's network devices (SPEC §4.5 item 3): a
//! run of a socket client's row ([`net::SOCKETS`]) and a redirection to
//! `/dev/tcp|udp/HOST/PORT` are external effects unless every address
//! they name is loopback, written as such — and the command runs in the
//! running container, which the caller decides. The rows are closed: a
//! word a row does not place (a program run, a file written, a proxy, an
//! address type or option it does not list, a listener on every address)
//! leaves the run external.

use super::catalogue::remote::net::{
    CONNINFO_ELSEWHERE, CONNINFO_HOSTS, DATABASES, DATABASE_VARIABLES,
    DATABASE_VARIABLES_ELSEWHERE, LISTENERS, SOCKETS,
};
use super::catalogue::remote::{DatabaseClient, Listener, SocketClient};
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

/// A listener's row (net.toml `listeners`) and the word of the run that
/// names an address that is not loopback or that permc cannot know
/// (`--inspect=0.0.0.0:9229`, `--ip=$HOST`): the run listens where others
/// reach it (SPEC §4.5 item 3). `None` for a run no row names, and for one
/// that listens on loopback, or on the program's default, only.
pub(crate) fn listener(
    words: &[Cow<'_, str>],
    known: &[Known],
) -> Option<(&'static Listener, usize)> {
    let verb = super::basename(words.first()?);
    let row = LISTENERS.iter().find(|r| r.names.contains(&verb))?;
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Exact);
    if !row.subcommands.is_empty() {
        // An unknown first operand may be one of them.
        let i = (1..words.len()).find(|&i| !words[i].starts_with('-'))?;
        if k(i) == Known::Exact && !row.subcommands.contains(&&*words[i]) {
            return None;
        }
    }
    let mut i = 1;
    while let Some(w) = words.get(i) {
        if w == "--" && k(i) == Known::Exact {
            return None;
        }
        let (name, attached) = w
            .split_once('=')
            .map_or((&**w, None), |(n, v)| (n, Some(v)));
        let next = words.get(i + 1).filter(|_| attached.is_none());
        let value = if row.attached.contains(&name) {
            attached.map(|v| (v, i))
        } else if row.optional.contains(&name) {
            attached
                .map(|v| (v, i))
                .or_else(|| next.filter(|n| !n.starts_with('-')).map(|n| (&**n, i + 1)))
        } else if row.valued.contains(&name) {
            attached
                .map(|v| (v, i))
                .or_else(|| next.map(|n| (&**n, i + 1)))
        } else {
            // A word permc cannot know that begins as an option may be
            // one of them.
            if k(i) != Known::Exact && w.starts_with('-') {
                return Some((row, i));
            }
            None
        };
        if let Some((v, at)) = value {
            if k(i) != Known::Exact || k(at) != Known::Exact || !loopback_listen(v) {
                return Some((row, at));
            }
            i = at;
        }
        i += 1;
    }
    None
}

/// A listening address that is loopback: a port alone (the program's
/// default host, loopback for every listener row), or a loopback host
/// with an optional port (`127.0.0.1:9229`, `[::1]:5678`, `::1`).
fn loopback_listen(v: &str) -> bool {
    port(v) || loopback_host(v) || loopback_with_port(v)
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

/// The database clients' names, by shape (one probe for most verbs).
pub(super) const DATABASE_SHAPES: super::Shapes = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < DATABASES.len() {
        let mut j = 0;
        while j < DATABASES[i].names.len() {
            super::mark_shape(&mut t, DATABASES[i].names[j]);
            j += 1;
        }
        i += 1;
    }
    t
};

/// The database client row of `verb` (SPEC §6.1, §4.5 item 3).
pub(crate) fn database_row(verb: &str) -> Option<&'static DatabaseClient> {
    if !super::has_shape(&DATABASE_SHAPES, verb) {
        return None;
    }
    DATABASES.iter().find(|r| r.names.contains(&verb))
}

/// Does the run print the client's help or version, connecting to
/// nothing?
pub(crate) fn database_offline(row: &DatabaseClient, words: &[Cow<'_, str>]) -> bool {
    words.iter().skip(1).any(|w| row.offline.contains(&&**w))
}

/// A server's host as a database client reads it, local: loopback written
/// as such (with a port or not), a Unix socket's directory (a path), or
/// none (the client's default, the local server); a list (`h1,h2`) when
/// every one is.
pub(crate) fn local_server(hosts: &str) -> bool {
    hosts
        .split(',')
        .all(|h| h.is_empty() || h.starts_with('/') || loopback_host(h) || loopback_with_port(h))
}

/// The hosts of a URI in word `w` (`postgresql://u@h:5432/db`: `h:5432`).
fn uri_hosts(w: &str) -> Option<&str> {
    let (_, rest) = w.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    Some(authority.rsplit_once('@').map_or(authority, |(_, h)| h))
}

/// Does word `w` name a server that is not local: a URI's host, a
/// connection string's `host=` or `hostaddr=` (a URI's query too), or a
/// libpq service (a file of settings names it)?
fn names_a_remote_server(w: &str) -> bool {
    if uri_hosts(w).is_some_and(|h| !local_server(h)) {
        return true;
    }
    if CONNINFO_ELSEWHERE.iter().any(|k| w.contains(k)) {
        return true;
    }
    CONNINFO_HOSTS.iter().any(|k| {
        w.match_indices(k).any(|(at, _)| {
            let value = &w[at + k.len()..];
            let end = value
                .find([' ', '&', ';', '\'', '"'])
                .unwrap_or(value.len());
            !local_server(&value[..end])
        })
    })
}

/// Option word `w` of a database client, if it is one of `options` (a
/// long one also by a prefix of two letters or more, a short one alone,
/// attached or last in a cluster): its value (`None`: the next word).
fn database_option<'w>(options: &[&str], w: &'w str) -> Option<Option<&'w str>> {
    if let Some(long) = w.strip_prefix("--") {
        let (name, value) = long
            .split_once('=')
            .map_or((long, None), |(n, v)| (n, Some(v)));
        let named = options.iter().any(|o| {
            o.strip_prefix("--")
                .is_some_and(|o| o == name || (name.len() >= 2 && o.starts_with(name)))
        });
        return named.then_some(value);
    }
    let cluster = w.strip_prefix('-').filter(|c| !c.is_empty())?;
    options.iter().find_map(|o| {
        let c = o
            .strip_prefix('-')
            .filter(|c| c.len() == 1 && !o.starts_with("--"))?;
        let at = cluster.find(c)?;
        let rest = &cluster[at + c.len()..];
        Some((!rest.is_empty()).then_some(rest))
    })
}

/// Does a database client's run reach only a local server (SPEC §4.5 item
/// 3, as a socket client's loopback): every host, URI and connection
/// string it names local, no option that names the server another way,
/// no word permc cannot know? `assigned`: the words before the program
/// in its segment (`PGHOST=db psql`).
pub(crate) fn database_local(
    row: &DatabaseClient,
    words: &[Cow<'_, str>],
    known: &[Known],
    assigned: &[Cow<'_, str>],
) -> bool {
    for a in assigned {
        let Some((name, value)) = a.split_once('=') else {
            continue;
        };
        if DATABASE_VARIABLES_ELSEWHERE.contains(&name)
            || (DATABASE_VARIABLES.contains(&name) && !local_server(value))
        {
            return false;
        }
    }
    if known.iter().any(|k| *k != Known::Exact) {
        return false;
    }
    let mut operands = 0;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        i += 1;
        if names_a_remote_server(w) || database_option(row.elsewhere, w).is_some() {
            return false;
        }
        if let Some(value) = database_option(row.host, w) {
            let value = value.or_else(|| {
                i += 1;
                words.get(i - 1).map(|v| &**v)
            });
            if !value.is_some_and(local_server) {
                return false;
            }
            continue;
        }
        if let Some(value) = database_option(row.socket, w) {
            if value.is_none() {
                i += 1;
            }
            continue;
        }
        if w.starts_with('-') {
            continue;
        }
        operands += 1;
        let address = w.contains(['.', ':', '/']) && !w.contains("://");
        if (row.host_operand && operands == 1 && !w.contains("://") && !local_server(w))
            || (row.bare_hosts && address && !local_server(w))
        {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lo(line: &str) -> bool {
        let words: Vec<Cow<'_, str>> = line.split(' ').map(Cow::Borrowed).collect();
        loopback_run(&words, &vec![Known::Exact; words.len()])
    }

    fn local_db(line: &str) -> bool {
        let words: Vec<Cow<'_, str>> = line.split(' ').map(Cow::Borrowed).collect();
        let row = database_row(&words[0]).expect("a database client");
        database_local(row, &words, &vec![Known::Exact; words.len()], &[])
    }

    #[test]
    fn database_servers_local_and_not() {
        for yes in [
            "psql -c x",
            "psql -h localhost -p 5433",
            "psql -h 127.0.0.1,/tmp",
            "psql --host=[::1]",
            "psql postgresql://app@localhost:5432/app",
            "psql postgresql:///app?host=/var/run/postgresql",
            "mysql -S /tmp/m.sock -uroot",
            "redis-cli -h 127.0.0.1 ping",
            "mongosh app",
            "mongosh --host localhost:27017",
            "cqlsh 127.0.0.1 9042",
        ] {
            assert!(local_db(yes), "{yes}");
        }
        for no in [
            "psql -h db",
            "psql -hdb",
            "psql -Xh db",
            "psql --ho=db",
            "psql -d postgres://db/app",
            "psql host=db",
            "psql hostaddr=10.0.0.1",
            "psql postgresql:///app?host=db",
            "psql service=prod",
            "psql -h localhost,db",
            "mysql --login-path=prod",
            "mysql --defaults-extra=./x.cnf",
            "redis-cli -u redis://db:6379",
            "mongosh db.example.com/test",
            "mongosh mongodb+srv://c.example.net",
            "cqlsh db",
            "usql pg://db/app",
            "psql -h",
        ] {
            assert!(!local_db(no), "{no}");
        }
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
