//! Comparing a path's component with a protected name (SPEC §6.4): after
//! Unicode's NFKC_Casefold, with trailing dots and blanks and a `:` stream
//! suffix removed, and a Windows 8.3 short name (`GIT~1`, `PERMIS~1.JSO`)
//! read as the name it may stand for.
//!
//! **NFKC_Casefold by a small table**, not the Unicode data (permc-shell
//! depends on no crate): ASCII folds its case; the default-ignorable code
//! points are dropped; the fullwidth forms (`ｇｉｔ`), the mathematical
//! alphanumerics (`𝐠𝐢𝐭`), the circled letters (`ⓖ`), the dot leaders and
//! small full stops (`․git`), the Latin ligatures (`ﬁ`), `ſ` and the Kelvin
//! sign map to the ASCII they fold to; any other letter folds as
//! `char::to_lowercase` does. A character of the blocks that hold the
//! other compatibility forms (spacing modifiers, super- and subscripts,
//! letterlike and number forms, enclosed and squared forms, half- and
//! fullwidth forms) that the table does not map may fold to any ASCII:
//! it stands for any run of one or more characters (fail closed:
//! `ᵍit` is `.git`'s neighbour, so it counts).

use crate::facts::catalogue::paths::{
    HOME_DIRS, HOME_FILES, PROTECTED_DIRS, PROTECTED_FILES, PROTECTED_SUFFIXES,
};

/// One character of a folded name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ch {
    /// This character.
    Lit(char),
    /// A compatibility character the table does not map: any run of one
    /// or more characters.
    Any,
}

/// Default-ignorable code points (Unicode's `Default_Ignorable_Code_Point`):
/// NFKC_Casefold removes them.
fn ignorable(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5
        | 0x180B..=0x180F | 0x200B..=0x200F | 0x202A..=0x202E
        | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0
        | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

/// The blocks holding compatibility characters that fold to ASCII, which
/// the table does not map one by one.
fn compatibility_block(c: char) -> bool {
    matches!(c as u32,
        0x00A0..=0x00BF | 0x0132..=0x0133 | 0x013F..=0x0140 | 0x01C4..=0x01CC
        | 0x01F1..=0x01F3 | 0x02B0..=0x02FF | 0x1D2C..=0x1D6A | 0x1D78
        | 0x1D9B..=0x1DBF | 0x2000..=0x24FF | 0x2C7C..=0x2C7D | 0x3000
        | 0x3200..=0x33FF | 0xA69C..=0xA69D | 0xA770 | 0xA7F8..=0xA7F9
        | 0xAB5C..=0xAB5F | 0xFB00..=0xFB4F | 0xFE10..=0xFE6F | 0xFF00..=0xFFEF
        | 0x1D400..=0x1D7FF | 0x1F100..=0x1F1FF)
}

/// The ASCII text a character folds to, from the table.
fn mapped(c: char) -> Option<&'static str> {
    const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
    const DIGITS: &str = "0123456789";
    let u = c as u32;
    let letter = |k: u32| Some(&LOWER[(k % 26) as usize..][..1]);
    let digit = |k: u32| Some(&DIGITS[(k % 10) as usize..][..1]);
    match u {
        // Fullwidth ASCII: U+FF01..U+FF5E is `!`..`~`.
        0xFF01..=0xFF5E => {
            let a = u - 0xFF01 + 0x21;
            ascii_text(a)
        }
        // Mathematical alphanumerics: 13 styles of A-Z a-z, then digits.
        0x1D400..=0x1D6A3 => letter(u - 0x1D400),
        0x1D7CE..=0x1D7FF => digit(u - 0x1D7CE),
        // Circled letters Ⓐ-Ⓩ ⓐ-ⓩ, parenthesized ⒜-⒵ (as `(a)`: any).
        0x24B6..=0x24E9 => letter(u - 0x24B6),
        0x2024 | 0xFE52 => Some("."),
        0x2025 => Some(".."),
        0x2026 => Some("..."),
        0xFB00 => Some("ff"),
        0xFB01 => Some("fi"),
        0xFB02 => Some("fl"),
        0xFB03 => Some("ffi"),
        0xFB04 => Some("ffl"),
        0xFB05 | 0xFB06 => Some("st"),
        0x017F => Some("s"),
        0x212A => Some("k"),
        0x0130 => Some("i"),
        0x2000..=0x200A | 0x3000 | 0x00A0 | 0x202F | 0x205F => Some(" "),
        _ => None,
    }
}

/// One printable ASCII character as static text.
fn ascii_text(a: u32) -> Option<&'static str> {
    const PRINTABLE: &str = " !\"#$%&'()*+,-./0123456789:;<=>?@abcdefghijklmnopqrstuvwxyz[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
    let k = a.checked_sub(0x20)? as usize;
    PRINTABLE.get(k..k + 1)
}

/// The component folded (SPEC §6.4), with its stream suffix and trailing
/// dots and blanks removed.
fn fold(component: &str) -> Vec<Ch> {
    let mut out = Vec::with_capacity(component.len());
    for c in component.chars() {
        if c.is_ascii() {
            out.push(Ch::Lit(c.to_ascii_lowercase()));
        } else if ignorable(c) {
        } else if let Some(s) = mapped(c) {
            out.extend(s.chars().map(Ch::Lit));
        } else if compatibility_block(c) {
            out.push(Ch::Any);
        } else {
            out.extend(c.to_lowercase().map(Ch::Lit));
        }
    }
    // `name:stream:$TYPE` is `name` on NTFS; trailing dots and blanks go.
    if let Some(k) = out.iter().position(|&c| c == Ch::Lit(':')) {
        if k > 0 {
            out.truncate(k);
        }
    }
    while out.len() > 1 && matches!(out.last(), Some(Ch::Lit('.' | ' '))) {
        out.pop();
    }
    out
}

/// Does the folded text match `name` (ASCII, lower case), each [`Ch::Any`]
/// standing for one or more characters? Time O(text × name).
fn matches(text: &[Ch], name: &[u8]) -> bool {
    if !text.contains(&Ch::Any) {
        return text.len() == name.len()
            && text
                .iter()
                .zip(name)
                .all(|(c, &b)| *c == Ch::Lit(b as char));
    }
    // reach[j]: the name's first j bytes are matched so far.
    let mut reach = vec![false; name.len() + 1];
    reach[0] = true;
    for c in text {
        let mut next = vec![false; name.len() + 1];
        for j in 0..name.len() {
            if !reach[j] {
                continue;
            }
            match c {
                Ch::Lit(l) if *l == name[j] as char => next[j + 1] = true,
                Ch::Lit(_) => {}
                Ch::Any => next[j + 1..].iter_mut().for_each(|r| *r = true),
            }
        }
        reach = next;
    }
    reach[name.len()]
}

/// Is the folded text an 8.3 short name `B~N` or `B~N.E` of `name` (SPEC
/// §6.4, as git's `is_ntfs_dotgit` reads `.git`)? `name` is lower case; a
/// pattern (`*.permc`) has any one to six characters as `B`, and needs an
/// extension.
fn short_name(text: &[Ch], name: &str) -> bool {
    let Some(t) = text
        .iter()
        .map(|c| match c {
            Ch::Lit(l) => Some(*l),
            Ch::Any => None,
        })
        .collect::<Option<String>>()
    else {
        return false;
    };
    let Some((b, rest)) = t.split_once('~') else {
        return false;
    };
    let (n, e) = rest.split_once('.').unwrap_or((rest, ""));
    if b.is_empty() || n.is_empty() || !n.bytes().all(|d| d.is_ascii_digit()) {
        return false;
    }
    if e.len() > 3 {
        return false;
    }
    if let Some(ext) = name.strip_prefix('*') {
        let ext = ext.trim_start_matches('.');
        return b.chars().count() <= 6 && !e.is_empty() && ext.starts_with(e);
    }
    let stem = name.trim_start_matches('.');
    let ext = stem.rsplit_once('.').map_or("", |(_, x)| x);
    let prefix = b.len() <= 6 && stem.starts_with(b);
    let hashed = b.len() == 6
        && stem.len() >= 2
        && b.starts_with(&stem[..2])
        && b[2..].bytes().all(|h| h.is_ascii_hexdigit());
    (prefix || hashed) && ext.starts_with(e)
}

/// Is the component the protected name `name` (lower case; `*.x` a
/// pattern), as compared on the hosts that fold and normalize names?
pub fn same(component: &str, name: &str) -> bool {
    // Most components: ASCII without a `~`, `:` or trailing dot or blank.
    let plain =
        component.is_ascii() && !component.contains(['~', ':']) && !component.ends_with(['.', ' ']);
    if plain {
        return match name.strip_prefix('*') {
            Some(suffix) => {
                component.len() > suffix.len()
                    && component.is_char_boundary(component.len() - suffix.len())
                    && component[component.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
            }
            None => component.eq_ignore_ascii_case(name),
        };
    }
    let text = fold(component);
    let whole = match name.strip_prefix('*') {
        Some(suffix) => {
            // A suffix: the text's end matches it and something stands
            // before it (a leading `Any` may be both).
            (1..text.len()).any(|i| matches(&text[i..], suffix.as_bytes()))
                || (text.first() == Some(&Ch::Any) && matches(&text, suffix.as_bytes()))
        }
        None => matches(&text, name.as_bytes()),
    };
    whole || short_name(&text, name)
}

/// Is the component a protected directory (SPEC §6.4)?
pub fn protected_dir(component: &str) -> bool {
    PROTECTED_DIRS.iter().any(|d| same(component, d))
}

/// Do the path's last components name a protected file (SPEC §6.4): one
/// of [`PROTECTED_FILES`] (by its last components), or a last component
/// ending in a protected suffix?
pub fn protected_file(components: &[&str]) -> bool {
    let Some(last) = components.last() else {
        return false;
    };
    PROTECTED_SUFFIXES
        .iter()
        .any(|s| same(last, &["*", s].concat()))
        || PROTECTED_FILES.iter().any(|f| tail_is(components, f))
        || PROTECTED_DIRS.iter().any(|d| same(last, d))
}

/// Do the last components of `components` spell `name` (`a/b`)?
fn tail_is(components: &[&str], name: &str) -> bool {
    let want: Vec<&str> = name.split('/').collect();
    components.len() >= want.len()
        && components[components.len() - want.len()..]
            .iter()
            .zip(&want)
            .all(|(c, w)| same(c, &w.to_ascii_lowercase()))
}

/// Does a path's components hold a protected directory, or end in a
/// protected file?
pub fn protected_components(components: &[&str]) -> bool {
    components.iter().any(|c| protected_dir(c)) || protected_file(components)
}

/// On the host (SPEC §6.4): do the components end in one of the person's
/// files, or hold one of the person's protected directories?
pub fn home_protected(components: &[&str]) -> bool {
    HOME_FILES.iter().any(|f| tail_is(components, f))
        || HOME_DIRS.iter().any(|d| {
            let want: Vec<&str> = d.split('/').collect();
            components.windows(want.len()).any(|w| {
                w.iter()
                    .zip(&want)
                    .all(|(c, n)| same(c, &n.to_ascii_lowercase()))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_names() {
        assert!(same(".GIT", ".git"));
        assert!(same("ｐｅｒｍｉｓｓｉｏｎｓ.json", "permissions.json"));
        assert!(same("permissions.json.", "permissions.json"));
        assert!(same("permissions.json. . ", "permissions.json"));
        assert!(same(".git::$INDEX_ALLOCATION", ".git"));
        assert!(same(".g\u{200b}it", ".git"));
        assert!(same("\u{2024}git", ".git"));
        assert!(same(".\u{1d420}it", ".git"));
        assert!(same(".ⓖit", ".git"));
        assert!(same(".ᵍit", ".git"));
        assert!(same(".envrc\u{feff}", ".envrc"));
        assert!(!same(".gitignore", ".git"));
        assert!(!same("café", ".git"));
        assert!(!same("東京大学", ".git"));
        assert!(same("x.PERMC", "*.permc"));
        assert!(same("ｘ.ｐｅｒｍｃ", "*.permc"));
        assert!(!same(".permc", "*.permc"));
    }

    #[test]
    fn short_names() {
        assert!(same("GIT~1", ".git"));
        assert!(same("git~12", ".git"));
        assert!(same("gi1234~1", ".git"));
        assert!(same("PERMIS~1.JSO", "permissions.json"));
        assert!(same("PERMIS~1", "permissions.json"));
        assert!(same("X~1.PER", "*.permc"));
        assert!(same("ABCDEF~2.COD", "*.code-workspace"));
        assert!(same("HUSKY~1", ".husky"));
        assert!(!same("X~1", "*.permc"));
        assert!(!same("PERMIS~1.TXT", "permissions.json"));
        assert!(!same("GIX~1", ".git"));
        assert!(!same("gi12zz~1", ".git"));
    }

    #[test]
    fn paths() {
        assert!(protected_components(&["a", ".vscode", "tasks.json"]));
        assert!(!protected_components(&["a", "tasks.json"]));
        assert!(protected_components(&["sub", ".envrc"]));
        assert!(protected_components(&[".husky", "pre-commit"]));
        assert!(protected_components(&["x", "ws.code-workspace"]));
        assert!(protected_components(&[".config", "lefthook.yml"]));
        assert!(!protected_components(&["src", "main.rs"]));
        assert!(home_protected(&["home", "ana", ".bashrc"]));
        assert!(home_protected(&["home", "ana", ".ssh", "authorized_keys"]));
        assert!(home_protected(&["home", "ana", ".config", "git", "config"]));
        assert!(!home_protected(&["home", "ana", "notes.txt"]));
    }
}
