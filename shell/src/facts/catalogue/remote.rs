//! Remote clients (SPEC §4.5 item 3): the hosted services' command-line
//! clients, whose every subcommand path is an external effect (§6.1)
//! unless its row lists it as a read. The rows are data:
//! `shell/catalogue/remote.toml`, turned into [`CLIENTS`] and [`GOALS`]
//! by `shell/build.rs`.

/// A hosted service's client, or one subcommand tree of a program that is
/// one (`git svn`, npm's registry commands, `mix hex.*`).
#[derive(Debug, Clone, Copy)]
pub struct RemoteClient {
    /// The names the program is run by (`fly`, `flyctl`).
    pub names: &'static [&'static str],
    /// The service, for people (docs/commands.md, messages).
    pub service: &'static str,
    /// The version the row describes (SPEC §4.5 item 1).
    pub version: &'static str,
    /// The words after the program's options that lead into the tree
    /// (`svn` for `git svn`); none: the whole program.
    pub tree: &'static [&'static str],
    /// When not empty, the tree is only these first words (npm's registry
    /// commands); another first word is not this client's.
    pub only: &'static [&'static str],
    /// First words beginning with one of these are the client's too
    /// (`hex.` for mix's tasks).
    pub prefixes: &'static [&'static str],
    /// The program's own commands and aliases that are not the client's:
    /// a first word that is a prefix of an [`only`](Self::only) word is
    /// the client's unless it is one of these (npm reads a unique prefix).
    pub commands: &'static [&'static str],
    /// npm's spelling of a command: camelCase read as kebab-case
    /// (`distTag` is `dist-tag`) and unique prefixes.
    pub npm_spelling: bool,
    /// The program without any subcommand reads (prints its help).
    pub bare_read: bool,
    /// The reads, each a whole subcommand path: `pr view *` (`*`: operands
    /// may follow), `providers` (nothing may follow), and after the path
    /// `!OPTION` for an option that makes that read external (`auth
    /// status * !--show-token`).
    pub reads: &'static [&'static str],
    /// The program's global options and those every read takes (SPEC
    /// §4.5 item 3: a row describes its global options) that take the
    /// next word as their value.
    pub valued: &'static [&'static str],
    /// Those that take no value.
    pub flags: &'static [&'static str],
    /// Each read's own options: a read's path (`pr view`) then its
    /// options, `--json=` for one that takes a value, `--comments` for a
    /// flag. A run of a read's path with an option word neither these nor
    /// the row's lists place is no described read: external (the closed
    /// world, §4.5 item 2), the message naming the word.
    pub read_options: &'static [&'static [&'static str]],
    /// Options that make any read external: another endpoint
    /// (`--server`), a program started (`--web`), a file of settings.
    pub external: &'static [&'static str],
    /// The program reads a unique prefix of a long option (`--endpoint`
    /// for `--endpoint-url`).
    pub abbreviations: bool,
    /// What the effect is called (like a table entry, §6.1).
    pub named: &'static [&'static str],
}

impl RemoteClient {
    /// The defaults a row's missing fields take.
    pub const EMPTY: RemoteClient = RemoteClient {
        names: &[],
        service: "",
        version: "",
        tree: &[],
        only: &[],
        prefixes: &[],
        commands: &[],
        npm_spelling: false,
        bare_read: false,
        reads: &[],
        valued: &[],
        flags: &[],
        read_options: &[],
        external: &[],
        abbreviations: false,
        named: &[],
    };
}

/// A build tool whose goals or tasks, anywhere among its operands, may
/// publish (`mvn clean deploy`, `gradle publish`): SPEC §4.5 item 3.
#[derive(Debug, Clone, Copy)]
pub struct PublishingGoals {
    /// The names the program is run by.
    pub names: &'static [&'static str],
    /// An operand holding one of these (any case) publishes
    /// (`deploy`, `org.apache.maven.plugins:maven-deploy-plugin:deploy`).
    pub containing: &'static [&'static str],
    /// An operand whose first camel-case part is a prefix of one of these
    /// publishes: the program reads abbreviated task names (`gradle pub`,
    /// `gradle pTML`).
    pub abbreviating: &'static [&'static str],
    /// The program's options that take the next word as their value.
    pub valued: &'static [&'static str],
    /// Tasks that publish to the machine's own repository alone, as `mvn
    /// install` does (`publishLocal`; `*S`: any task ending in `S`): an
    /// operand that is one of them, whole, past sbt's cross-build `+` and
    /// a project path (`core/publishLocal`, `:lib:publishToMavenLocal`),
    /// does not publish.
    pub local: &'static [&'static str],
    /// What the effect is called (like a table entry, §6.1).
    pub named: &'static [&'static str],
}

impl PublishingGoals {
    /// The defaults a row's missing fields take.
    pub const EMPTY: PublishingGoals = PublishingGoals {
        names: &[],
        containing: &[],
        abbreviating: &[],
        valued: &[],
        local: &[],
        named: &[],
    };
}

include!(concat!(env!("OUT_DIR"), "/catalogue/remote.rs"));

/// An HTTP client (SPEC §4.5 item 3: `curl`, `wget`): its reads are the
/// downloads; a request that sends something is an external effect. The
/// rows are `shell/catalogue/http.toml`.
#[derive(Debug, Clone, Copy)]
pub struct HttpClient {
    /// The names the program is run by.
    pub names: &'static [&'static str],
    /// The version the row describes.
    pub version: &'static str,
    /// Options that send something whatever their value (an upload, a
    /// body, credentials, a file of options, another route).
    pub writes: &'static [&'static str],
    /// Of [`writes`](Self::writes), the uploads and bodies: what a request
    /// to the running container's own loopback may send (SPEC §4.5 item
    /// 3); the rest (credentials, routes) never may.
    pub body: &'static [&'static str],
    /// Options whose value is the request's method.
    pub methods: &'static [&'static str],
    /// The methods that read.
    pub read_methods: &'static [&'static str],
    /// Options whose value, beginning with `@`, is a file sent.
    pub at_file: &'static [&'static str],
    /// Options whose value, without `=`, is a file sent.
    pub file_unless_eq: &'static [&'static str],
    /// Options whose value is a URL.
    pub url_options: &'static [&'static str],
    /// The schemes that read.
    pub schemes: &'static [&'static str],
    /// What the effect is called (like a table entry, §6.1).
    pub named: &'static [&'static str],
}

impl HttpClient {
    /// The defaults a row's missing fields take.
    pub const EMPTY: HttpClient = HttpClient {
        names: &[],
        version: "",
        writes: &[],
        body: &[],
        methods: &[],
        read_methods: &[],
        at_file: &[],
        file_unless_eq: &[],
        url_options: &[],
        schemes: &[],
        named: &[],
    };
}

/// The HTTP clients' rows.
pub mod http {
    use super::HttpClient;
    include!(concat!(env!("OUT_DIR"), "/catalogue/http.rs"));
}

/// A raw socket client (SPEC §4.5 item 3): external unless every address
/// it names is loopback, written as such, and the command runs in the
/// running container. The rows are `shell/catalogue/net.toml`; a row is
/// closed: a word it does not place leaves the run external.
#[derive(Debug, Clone, Copy)]
pub struct SocketClient {
    /// The names the program is run by.
    pub names: &'static [&'static str],
    /// The version the row describes.
    pub version: &'static str,
    /// The operands are two ADDRESS words (`TYPE:PARAMS,OPTION…`); else
    /// `[HOST [PORT…]]`.
    pub addresses: bool,
    /// Options that take no value (short ones cluster).
    pub flags: &'static [&'static str],
    /// Options that take a value (attached or the next word).
    pub valued: &'static [&'static str],
    /// Of [`valued`](Self::valued), those whose value is the local
    /// address: it must be loopback.
    pub source: &'static [&'static str],
    /// Of [`flags`](Self::flags), those that make the program listen.
    pub listen: &'static [&'static str],
    /// When not empty, one of these options must be given.
    pub needs: &'static [&'static str],
    /// Address types that are the process's own streams.
    pub local: &'static [&'static str],
    /// Address types `TYPE:HOST:PORT` that connect.
    pub connect: &'static [&'static str],
    /// Address types `TYPE:PORT` that listen.
    pub listeners: &'static [&'static str],
    /// Address options that change nothing of where the address goes.
    pub address_options: &'static [&'static str],
    /// Of [`address_options`](Self::address_options), those whose value
    /// is the local address: it must be loopback.
    pub bind: &'static [&'static str],
}

impl SocketClient {
    /// The defaults a row's missing fields take.
    pub const EMPTY: SocketClient = SocketClient {
        names: &[],
        version: "",
        addresses: false,
        flags: &[],
        valued: &[],
        source: &[],
        listen: &[],
        needs: &[],
        local: &[],
        connect: &[],
        listeners: &[],
        address_options: &[],
        bind: &[],
    };
}

/// A database client (SPEC §6.1, §4.5 item 3): its statements change a
/// database server's state, so it is external unless every server it
/// names is loopback written as such, or a Unix socket, and the command
/// runs in the running container — as a socket client's. No host named
/// is the client's default, the local server. The rows are
/// `shell/catalogue/net.toml`.
#[derive(Debug, Clone, Copy)]
pub struct DatabaseClient {
    /// The names the program is run by.
    pub names: &'static [&'static str],
    /// The version the row describes.
    pub version: &'static str,
    /// What the effect is called (like a table entry, §6.1).
    pub named: &'static [&'static str],
    /// Options whose value is the server's host (a long one also by a
    /// prefix of two letters or more: getopt_long and MySQL's option
    /// reader take a unique prefix). A path is a Unix socket's directory.
    pub host: &'static [&'static str],
    /// Options whose value is a local socket (any value).
    pub socket: &'static [&'static str],
    /// Options that name the server another way (a file of settings, a
    /// stored login, a service): the run is external.
    pub elsewhere: &'static [&'static str],
    /// Options after which the program connects to nothing (its help
    /// and version).
    pub offline: &'static [&'static str],
    /// Its address operand may name a host without a scheme
    /// (`mongosh db.example.com/test`): an operand holding `.`, `:` or `/`
    /// is a host that is not loopback.
    pub bare_hosts: bool,
    /// Its first operand is the host (`cqlsh HOST [PORT]`, `usql URL`).
    pub host_operand: bool,
}

impl DatabaseClient {
    /// The defaults a row's missing fields take.
    pub const EMPTY: DatabaseClient = DatabaseClient {
        names: &[],
        version: "",
        named: &[],
        host: &[],
        socket: &[],
        elsewhere: &[],
        offline: &[],
        bare_hosts: false,
        host_operand: false,
    };
}

/// A server whose listening address an option gives (SPEC §4.5 item 3:
/// a listener on an address that is not loopback is external): the run is
/// external when one of the options names an address that is not
/// loopback written as such, or one permc cannot know. The rows are
/// `shell/catalogue/net.toml`; they read only these options.
#[derive(Debug, Clone, Copy)]
pub struct Listener {
    /// The names the program is run by.
    pub names: &'static [&'static str],
    /// What listens, for the message.
    pub service: &'static str,
    /// The version the row describes.
    pub version: &'static str,
    /// When not empty, the run's first operand is one of these.
    pub subcommands: &'static [&'static str],
    /// Options whose value is only given attached by `=`.
    pub attached: &'static [&'static str],
    /// Options whose value is attached by `=` or the next word unless it
    /// begins with `-`.
    pub optional: &'static [&'static str],
    /// Options whose value is attached by `=` or the next word.
    pub valued: &'static [&'static str],
    /// What the effect is called (like a table entry, §6.1).
    pub named: &'static [&'static str],
}

impl Listener {
    /// The defaults a row's missing fields take.
    pub const EMPTY: Listener = Listener {
        names: &[],
        service: "",
        version: "",
        subcommands: &[],
        attached: &[],
        optional: &[],
        valued: &[],
        named: &[],
    };
}

/// The raw socket clients' rows.
pub mod net {
    use super::{DatabaseClient, Listener, SocketClient};
    include!(concat!(env!("OUT_DIR"), "/catalogue/net.rs"));
}
