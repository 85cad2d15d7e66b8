//! The artifact: a compiled policy as a binary file (SPEC §9).
//!
//! ```text
//! offset  size  field
//!      0     8  magic  b"PERMC\x00AR"
//!      8     4  format version (u32, little endian)
//!     12     4  flags: bit 0 permissions.json given, bit 1 autonomy.json given
//!     16     8  XXH64 of permissions.json's bytes (0 when not given)
//!     24     8  XXH64 of autonomy.json's bytes (0 when not given)
//!     32     8  body length
//!     40     8  XXH64 of the body
//!     48     …  body
//! ```
//!
//! The body is the policy's flat tables in a fixed order: integers little
//! endian, every array and string prefixed by its length (u64). Version 4
//! added the project's command rows (permc.toml's `[[command]]`) last:
//! a count, then per row its name, its effects (a bit each: external,
//! privileged, code), what it runs (0 nothing, 1 argv, 2 shell), its
//! options with a value and its code options (each a count of strings). Loading
//! copies arrays (no table is rebuilt, no hash map is filled), so a 100k-rule
//! artifact loads in milliseconds. The encoding is hand-written: the tables
//! are a handful of `Vec<u32>`, and a serialization framework would add a
//! dependency and per-element overhead for nothing.
//!
//! Loading is total: a wrong magic, another version, a short file, a body
//! whose checksum does not match, or tables that do not hold together are
//! each an [`ArtifactError`] — never a policy. Staleness (the sources
//! changed since) is checked by the caller with [`SourceHashes`].

use crate::dag::Stage;
use crate::hash::xxh64;
use crate::matcher::{FlatMap, Matcher};
use crate::{AutonomyTable, CompiledPolicy, EntryTable, StrTable};
use permc_core::facts::project::{CommandRow, Description, Effects, Kind, ProjectRows, Runs};
use std::fmt;

/// The magic number.
pub const MAGIC: [u8; 8] = *b"PERMC\x00AR";
/// The format version this build reads and writes (7: the slot tables of
/// tokens and agents hashed by [`crate::hash::word_hash`], not FNV-1a).
pub const VERSION: u32 = 7;
const HEADER: usize = 48;

/// The hashes of the rule files an artifact was compiled from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SourceHashes {
    /// XXH64 of permissions.json, when one was given.
    pub permissions: Option<u64>,
    /// XXH64 of autonomy.json, when one was given.
    pub autonomy: Option<u64>,
}

impl SourceHashes {
    /// The hashes of these file contents.
    pub fn of(permissions: Option<&[u8]>, autonomy: Option<&[u8]>) -> SourceHashes {
        SourceHashes {
            permissions: permissions.map(xxh64),
            autonomy: autonomy.map(xxh64),
        }
    }
}

/// A loaded artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// The policy.
    pub policy: CompiledPolicy,
    /// The hashes of its sources.
    pub sources: SourceHashes,
}

/// Why an artifact cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArtifactError {
    /// Not a permc artifact at all.
    BadMagic,
    /// Written by another format version.
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Shorter than its header says.
    Truncated,
    /// The body's checksum does not match.
    Checksum,
    /// The body checks out but cannot be read as tables: what is wrong.
    Corrupt(&'static str),
    /// The tables read but do not hold together.
    Tables(crate::TableError),
    /// 4 GiB or more: every count and offset inside is a `u32`, so no
    /// artifact this compiler writes is that large.
    TooLarge {
        /// The artifact's size in bytes.
        bytes: usize,
    },
}

impl fmt::Display for ArtifactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArtifactError::BadMagic => write!(f, "not a permc artifact (wrong magic number)"),
            ArtifactError::Version { found } => write!(
                f,
                "the artifact has format version {found}; this permc reads version {VERSION}: compile it again"
            ),
            ArtifactError::Truncated => write!(f, "the artifact is truncated"),
            ArtifactError::Checksum => write!(f, "the artifact is corrupt (its checksum does not match)"),
            ArtifactError::Corrupt(why) => write!(f, "the artifact is corrupt ({why})"),
            ArtifactError::Tables(why) => write!(f, "the artifact is corrupt ({why})"),
            ArtifactError::TooLarge { bytes } => write!(
                f,
                "the artifact is {bytes} bytes, over the format's 4 GiB limit: it is not one this permc wrote; compile the rule files again"
            ),
        }
    }
}

impl std::error::Error for ArtifactError {}

struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.buf.extend_from_slice(&(n as u64).to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.buf.extend_from_slice(b);
    }
    fn u32s(&mut self, v: &[u32]) {
        self.len(v.len());
        self.buf.reserve(v.len() * 4);
        for x in v {
            self.buf.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn u64s(&mut self, v: &[u64]) {
        self.len(v.len());
        self.buf.reserve(v.len() * 8);
        for x in v {
            self.buf.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn strs(&mut self, t: &StrTable) {
        self.bytes(t.text.as_bytes());
        self.u32s(&t.off);
    }
    fn map(&mut self, m: &FlatMap) {
        self.u64s(&m.keys);
        self.u32s(&m.vals);
    }
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

type R<T> = Result<T, ArtifactError>;

fn corrupt(why: &'static str) -> ArtifactError {
    ArtifactError::Corrupt(why)
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> R<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .ok_or_else(|| corrupt("a length overflows"))?;
        let s = self
            .b
            .get(self.pos..end)
            .ok_or_else(|| corrupt("a table runs past the end"))?;
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> R<u32> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn len(&mut self, width: usize) -> R<usize> {
        let s = self.take(8)?;
        let n = u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]);
        let n = usize::try_from(n).map_err(|_| corrupt("a length overflows"))?;
        // Cheap guard before multiplying: a length can never exceed what is left.
        if n.saturating_mul(width) > self.b.len() - self.pos.min(self.b.len()) {
            return Err(corrupt("a table runs past the end"));
        }
        Ok(n)
    }
    fn bytes(&mut self) -> R<&'a [u8]> {
        let n = self.len(1)?;
        self.take(n)
    }
    fn string(&mut self) -> R<String> {
        let b = self.bytes()?;
        String::from_utf8(b.to_vec()).map_err(|_| corrupt("a string is not UTF-8"))
    }
    fn u32s(&mut self) -> R<Vec<u32>> {
        let n = self.len(4)?;
        let s = self.take(n * 4)?;
        Ok(s.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
    fn u64s(&mut self) -> R<Vec<u64>> {
        let n = self.len(8)?;
        let s = self.take(n * 8)?;
        Ok(s.chunks_exact(8)
            .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
            .collect())
    }
    fn strs(&mut self) -> R<StrTable> {
        let text = self.string()?;
        let off = self.u32s()?;
        let t = StrTable { text, off };
        if !t.valid() {
            return Err(corrupt("a string table"));
        }
        Ok(t)
    }
    fn map(&mut self) -> R<FlatMap> {
        Ok(FlatMap {
            keys: self.u64s()?,
            vals: self.u32s()?,
        })
    }
}

/// The largest artifact: under 4 GiB, like the rule files it is compiled
/// from (`permc_grammar::rules::MAX_FILE_BYTES`), so every count inside
/// fits its `u32`.
pub const MAX_BYTES: usize = u32::MAX as usize;

/// An artifact of [`MAX_BYTES`] or more is refused before it is read.
fn size_ok(bytes: usize) -> Result<(), ArtifactError> {
    if bytes >= MAX_BYTES {
        return Err(ArtifactError::TooLarge { bytes });
    }
    Ok(())
}

/// Writes a policy and its source hashes as an artifact.
pub fn encode(policy: &CompiledPolicy, sources: &SourceHashes) -> Vec<u8> {
    let mut w = Writer { buf: Vec::new() };
    w.bytes(policy.permissions_file.as_bytes());
    w.bytes(policy.permissions_loc.as_bytes());
    for l in &policy.lists {
        w.strs(&l.text);
        w.u32s(&l.line);
        w.u32s(&l.col);
    }
    let m = &policy.matcher;
    w.u8(u8::from(m.deterministic));
    w.u32(m.start);
    w.u32s(&m.accept);
    w.u32s(&m.bt_root);
    w.bytes(&m.tok_bytes);
    w.u32s(&m.tok_off);
    w.u32s(&m.tok_slots);
    w.map(&m.edges);
    w.map(&m.bt_edges);
    w.u32s(&m.bt_target);
    w.u32s(&m.target_off);
    w.u32s(&m.targets);
    w.u32s(&policy.typed);
    let a = &policy.autonomy;
    w.bytes(a.file.as_bytes());
    w.strs(&a.agents);
    w.u32s(&a.agent_slots);
    w.u32s(&a.rule_agent);
    w.bytes(&a.rule_key);
    w.bytes(&a.rule_mode);
    w.u32s(&a.rule_line);
    w.u32s(&a.rule_col);
    w.u32s(&a.resolved);
    w.len(policy.programs.len());
    for p in &policy.programs {
        let codes: Vec<u8> = p.iter().map(|&s| s as u8).collect();
        w.bytes(&codes);
    }
    project_rows(&mut w, &policy.project);
    let body = w.buf;

    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let flags =
        u32::from(sources.permissions.is_some()) | (u32::from(sources.autonomy.is_some()) << 1);
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&sources.permissions.unwrap_or(0).to_le_bytes());
    out.extend_from_slice(&sources.autonomy.unwrap_or(0).to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&xxh64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Reads an artifact: header, checksum, tables, then every cross-table
/// check. Any failure is an error, never a policy.
pub fn decode(bytes: &[u8]) -> Result<Artifact, ArtifactError> {
    size_ok(bytes.len())?;
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(ArtifactError::BadMagic);
    }
    if bytes.len() < HEADER {
        return Err(ArtifactError::Truncated);
    }
    // Every fixed offset below is inside the 48-byte header checked above.
    let version = le_u32(bytes, 8);
    if version != VERSION {
        return Err(ArtifactError::Version { found: version });
    }
    let flags = le_u32(bytes, 12);
    if flags > 3 {
        return Err(corrupt("unknown header flags"));
    }
    let sources = SourceHashes {
        permissions: (flags & 1 != 0).then(|| le_u64(bytes, 16)),
        autonomy: (flags & 2 != 0).then(|| le_u64(bytes, 24)),
    };
    let body_len = le_u64(bytes, 32);
    let sum = le_u64(bytes, 40);
    let body = &bytes[HEADER..];
    match (body.len() as u64).cmp(&body_len) {
        std::cmp::Ordering::Less => return Err(ArtifactError::Truncated),
        std::cmp::Ordering::Greater => return Err(corrupt("bytes after the body")),
        std::cmp::Ordering::Equal => {}
    }
    if xxh64(body) != sum {
        return Err(ArtifactError::Checksum);
    }
    let policy = decode_body(body)?;
    policy.validate().map_err(ArtifactError::Tables)?;
    Ok(Artifact { policy, sources })
}

fn decode_body(body: &[u8]) -> R<CompiledPolicy> {
    let mut r = Reader { b: body, pos: 0 };
    let permissions_file = r.string()?;
    let permissions_loc = r.string()?;
    let entry_table = |r: &mut Reader<'_>| -> R<EntryTable> {
        Ok(EntryTable {
            text: r.strs()?,
            line: r.u32s()?,
            col: r.u32s()?,
        })
    };
    let lists = [
        entry_table(&mut r)?,
        entry_table(&mut r)?,
        entry_table(&mut r)?,
    ];
    let deterministic = match r.u8()? {
        0 => false,
        1 => true,
        _ => return Err(corrupt("matcher kind")),
    };
    let matcher = Matcher {
        deterministic,
        start: r.u32()?,
        accept: r.u32s()?,
        bt_root: r.u32s()?,
        tok_bytes: r.bytes()?.to_vec(),
        tok_off: r.u32s()?,
        tok_slots: r.u32s()?,
        edges: r.map()?,
        bt_edges: r.map()?,
        bt_target: r.u32s()?,
        target_off: r.u32s()?,
        targets: r.u32s()?,
        reach: std::sync::OnceLock::new(),
        labels: std::sync::OnceLock::new(),
    };
    let typed = r.u32s()?;
    let autonomy = AutonomyTable {
        file: r.string()?,
        agents: r.strs()?,
        agent_slots: r.u32s()?,
        rule_agent: r.u32s()?,
        rule_key: r.bytes()?.to_vec(),
        rule_mode: r.bytes()?.to_vec(),
        rule_line: r.u32s()?,
        rule_col: r.u32s()?,
        resolved: r.u32s()?,
    };
    let n = r.len(1)?;
    let mut programs = Vec::with_capacity(n);
    for _ in 0..n {
        let codes = r.bytes()?;
        let p: Option<Vec<Stage>> = codes.iter().map(|&c| Stage::from_code(c)).collect();
        programs.push(p.ok_or_else(|| corrupt("an unknown stage"))?);
    }
    let project = read_project_rows(&mut r)?;
    if r.pos != body.len() {
        return Err(corrupt("bytes after the last table"));
    }
    Ok(CompiledPolicy {
        permissions_file,
        permissions_loc,
        lists,
        matcher,
        typed,
        autonomy,
        programs,
        project,
    })
}

/// The project's command rows, as the body's last table.
fn project_rows(w: &mut Writer, rows: &ProjectRows) {
    w.len(rows.rows().len());
    for r in rows.rows() {
        w.bytes(r.name.as_bytes());
        let e = r.effects;
        w.u8(u8::from(e.external) | (u8::from(e.privileged) << 1) | (u8::from(e.code) << 2));
        w.u8(match r.runs {
            None => 0,
            Some(Runs::Argv) => 1,
            Some(Runs::Shell) => 2,
        });
        for list in [&r.options_with_value, &r.code_options] {
            w.len(list.len());
            for o in list {
                w.bytes(o.as_bytes());
            }
        }
        description(w, &r.description);
    }
    // permc.toml's `protected` paths (SPEC §6.4), after the rows.
    w.len(rows.protected().len());
    for p in rows.protected() {
        w.bytes(p.as_bytes());
    }
}

/// A project row's description (SPEC §4.5 item 6): `complete`, the
/// version, the operands' kinds, then each kind's option entries.
fn description(w: &mut Writer, d: &Description) {
    w.u8(u8::from(d.complete));
    w.bytes(d.version.as_bytes());
    w.len(d.operands.len());
    for o in &d.operands {
        w.bytes(o.as_bytes());
    }
    w.len(d.options.len());
    for (kind, list) in &d.options {
        w.u8(*kind as u8);
        w.len(list.len());
        for e in list {
            w.bytes(e.as_bytes());
        }
    }
}

/// [`description`] read back.
fn read_description(r: &mut Reader<'_>) -> R<Description> {
    let complete = match r.u8()? {
        0 => false,
        1 => true,
        _ => return Err(corrupt("a project row's `complete`")),
    };
    let version = r.string()?;
    let mut operands = Vec::new();
    for _ in 0..r.len(1)? {
        operands.push(r.string()?);
    }
    let mut options = Vec::new();
    for _ in 0..r.len(2)? {
        let kind = Kind::NAMES
            .get(usize::from(r.u8()?))
            .map(|(k, _)| *k)
            .ok_or_else(|| corrupt("a project row's option kind"))?;
        let mut list = Vec::new();
        for _ in 0..r.len(1)? {
            list.push(r.string()?);
        }
        options.push((kind, list));
    }
    Ok(Description {
        complete,
        version,
        operands,
        options,
    })
}

/// [`project_rows`] read back; any value it cannot write is corrupt.
fn read_project_rows(r: &mut Reader<'_>) -> R<ProjectRows> {
    let n = r.len(1)?;
    let mut rows = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.string()?;
        let bits = r.u8()?;
        if bits > 7 {
            return Err(corrupt("a project row's effects"));
        }
        let runs = match r.u8()? {
            0 => None,
            1 => Some(Runs::Argv),
            2 => Some(Runs::Shell),
            _ => return Err(corrupt("a project row's runs")),
        };
        let mut lists = [Vec::new(), Vec::new()];
        for list in &mut lists {
            let k = r.len(1)?;
            for _ in 0..k {
                list.push(r.string()?);
            }
        }
        let [options_with_value, code_options] = lists;
        let description = read_description(r)?;
        rows.push(CommandRow {
            name,
            effects: Effects {
                external: bits & 1 != 0,
                privileged: bits & 2 != 0,
                code: bits & 4 != 0,
            },
            runs,
            options_with_value,
            code_options,
            description,
        });
    }
    let mut protected = Vec::new();
    for _ in 0..r.len(1)? {
        protected.push(r.string()?);
    }
    let project = ProjectRows::new(rows).with_protected(protected);
    if project.rows().len() != n {
        return Err(corrupt("two project rows of one name"));
    }
    Ok(project)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_artifact_of_4_gib_or_more_is_refused_with_its_size() {
        let e = super::size_ok(super::MAX_BYTES).expect_err("refused");
        assert!(
            e.to_string().contains("over the format's 4 GiB limit"),
            "{e}"
        );
        assert!(super::size_ok(super::MAX_BYTES - 1).is_ok());
    }

    use super::*;
    use permc_grammar::rules::{load_autonomy, load_permissions};

    fn sample() -> (CompiledPolicy, SourceHashes) {
        let p = br#"{"allow": ["Terminal(pnpm test:*)", "GitCommit()"], "deny": ["Terminal(curl)"], "ask": ["Terminal()"]}"#;
        let a = br#"{"dev-api": {"*": "auto_approve", "terminal": "require_approval"}}"#;
        let perms = load_permissions("permissions.json", p)
            .value
            .expect("loads");
        let auto = load_autonomy("autonomy.json", a).value.expect("loads");
        (
            crate::compile(&perms, &auto),
            SourceHashes::of(Some(p), Some(a)),
        )
    }

    /// Every agent is found, a few by comparing names and more through
    /// the slot table, before and after the artifact, and no other name.
    #[test]
    fn agents_found_by_name_and_by_slot() {
        let names = [
            "a",
            "ops",
            "dev-api",
            "dev-web",
            "deploy-bot",
            "x2",
            "an-agent-of-17",
            "q",
        ];
        let modes = ["auto_approve", "require_approval", "deny"];
        for n in 1..=names.len() {
            let text: Vec<String> = (0..n)
                .map(|i| format!("\"{}\": {{\"terminal\": \"{}\"}}", names[i], modes[i % 3]))
                .collect();
            let a = format!("{{{}}}", text.join(", "));
            let auto = load_autonomy("autonomy.json", a.as_bytes())
                .value
                .expect("loads");
            let perms = load_permissions("permissions.json", b"{}")
                .value
                .expect("loads");
            let p = crate::compile(&perms, &auto);
            let back = decode(&encode(&p, &SourceHashes::default()))
                .expect("decodes")
                .policy;
            for q in [&p, &back] {
                for (i, name) in names.iter().enumerate() {
                    let got = q
                        .resolve_autonomy(Some(name), permc_grammar::ActionType::Terminal)
                        .map(|r| r.mode.name());
                    assert_eq!(got, (i < n).then_some(modes[i % 3]), "{n} agents, {name}");
                }
                for other in ["", "dev", "dev-apx", "deploy-bo", "an-agent-of-18"] {
                    let got = q.resolve_autonomy(Some(other), permc_grammar::ActionType::Terminal);
                    assert!(got.is_none(), "{n} agents, {other}");
                }
            }
        }
    }

    #[test]
    fn round_trip() {
        let (p, s) = sample();
        let bytes = encode(&p, &s);
        let back = decode(&bytes).expect("decodes");
        assert_eq!(back.policy, p);
        assert_eq!(back.sources, s);
        assert_eq!(
            encode(&back.policy, &back.sources),
            bytes,
            "encoding is deterministic"
        );
    }

    #[test]
    fn project_rows_round_trip() {
        let (p, s) = sample();
        let rows = ProjectRows::new(vec![CommandRow {
            name: "./deploy.sh".into(),
            effects: Effects {
                external: true,
                privileged: false,
                code: true,
            },
            runs: Some(Runs::Argv),
            options_with_value: vec!["-e".into()],
            code_options: vec!["--hook".into()],
            description: Description {
                complete: true,
                version: "deploy 1".into(),
                operands: vec!["text".into()],
                options: vec![(Kind::PathWrite, vec!["-o --out".into()])],
            },
        }]);
        let p = p.with_project(rows.clone());
        let bytes = encode(&p, &s);
        let back = decode(&bytes).expect("decodes");
        assert_eq!(back.policy.project(), &rows);
        assert_eq!(back.policy, p);
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn every_damage_is_an_error() {
        let (p, s) = sample();
        let bytes = encode(&p, &s);
        assert_eq!(decode(b"nope"), Err(ArtifactError::BadMagic));
        assert_eq!(decode(&bytes[..20]), Err(ArtifactError::Truncated));
        assert_eq!(
            decode(&bytes[..bytes.len() - 1]),
            Err(ArtifactError::Truncated)
        );
        let mut v = bytes.clone();
        v[8] = 9;
        assert_eq!(decode(&v), Err(ArtifactError::Version { found: 9 }));
        // Every truncation and every single-byte flip is refused.
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            let mut v = bytes.clone();
            v[i] ^= 0x41;
            let flipped_hash = (16..32).contains(&i);
            assert!(decode(&v).is_err() || flipped_hash, "flip at {i}");
        }
    }

    #[test]
    fn checksum_valid_but_inconsistent_tables_are_refused() {
        let (mut p, s) = sample();
        p.typed[0] = 99;
        assert_eq!(
            decode(&encode(&p, &s)),
            Err(ArtifactError::Tables(crate::TableError::Typed))
        );
        let (mut p, s) = sample();
        p.programs[0].clear();
        assert_eq!(
            decode(&encode(&p, &s)),
            Err(ArtifactError::Tables(crate::TableError::Programs))
        );
        let (mut p, s) = sample();
        p.matcher.tok_slots.iter_mut().for_each(|v| *v = 1);
        assert!(matches!(
            decode(&encode(&p, &s)),
            Err(ArtifactError::Tables(crate::TableError::Matcher(_)))
        ));
    }
}
