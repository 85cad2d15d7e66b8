//! `PERMC_ORACLE_BLESS=1`: a row the real program verified gets its
//! `verified = "<hash>"`, `verified-version` (the program's own version
//! line) and `verified-on` (the date) written into
//! the file of `shell/catalogue/described/` that holds it, the rest of
//! the file as it was
//! (SPEC §4.5 item 4: the hash is `Described::hash`, so editing the row
//! clears it).

use permc_shell::facts::described::Described;
use std::path::Path;

/// The three fields bless writes, in the order it writes them.
const FIELDS: [&str; 3] = ["verified", "verified-version", "verified-on"];

/// Marks `row` verified in the row file of `dir` that holds it.
pub fn bless(dir: &Path, row: &Described, version: &str, date: &str) -> Result<(), String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut errors = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        match blessed(&text, row, version, date) {
            Ok(new) => {
                return std::fs::write(&file, new).map_err(|e| format!("{}: {e}", file.display()))
            }
            Err(e) => errors.push(format!("{}: {e}", file.display())),
        }
    }
    Err(errors.join("; "))
}

/// The row file's text with `row` marked verified: its old verification
/// lines dropped, the new ones after its `version` line.
pub fn blessed(text: &str, row: &Described, version: &str, date: &str) -> Result<String, String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut in_row = false;
    let mut found = 0;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            in_row = false;
        }
        if t == "[[described]]" {
            in_row = is_row(&lines[i + 1..], row);
        }
        let key = t.split('=').next().unwrap_or("").trim();
        if in_row && FIELDS.contains(&key) {
            continue;
        }
        out.push_str(line);
        if in_row && key == "version" {
            found += 1;
            let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
            out.push_str(&format!("verified = {}\n", quote(row.hash)));
            out.push_str(&format!("verified-version = {}\n", quote(version)));
            out.push_str(&format!("verified-on = {}\n", quote(date)));
        }
    }
    match found {
        1 => Ok(out),
        0 => Err(format!(
            "no row for {:?} with a `version` line",
            row.program
        )),
        n => Err(format!("{n} rows for {:?}", row.program)),
    }
}

/// Is the `[[described]]` table whose lines follow the row of
/// `row.program`? Read from its `program = […]` line.
fn is_row(after: &[&str], row: &Described) -> bool {
    after
        .iter()
        .take_while(|l| !l.trim().starts_with('['))
        .find(|l| l.trim_start().starts_with("program"))
        .and_then(|l| l.parse::<toml::Table>().ok())
        .and_then(|t| {
            t.get("program")
                .and_then(|p| p.as_array())
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>() == row.program)
        })
        .unwrap_or(false)
}

/// Today's date, `YYYY-MM-DD` (UTC), from the clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's days-to-civil.
    let z = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blesses_one_row_and_keeps_the_rest() {
        let text = "# rows\n\n[[described]]\nprogram = [\"a\"]\nversion = \"A 1\"\nverified = \"old\"\nflags = [\"-x\"]\n\n[[described]]\nprogram = [\"b\"]\nversion = \"B 2\"\n";
        let row = Described {
            program: &["a"],
            hash: "0123",
            ..Described::EMPTY
        };
        let out = blessed(text, &row, "a (A) 1", "2026-12-06").unwrap();
        assert_eq!(
            out,
            "# rows\n\n[[described]]\nprogram = [\"a\"]\nversion = \"A 1\"\nverified = \"0123\"\nverified-version = \"a (A) 1\"\nverified-on = \"2026-12-06\"\nflags = [\"-x\"]\n\n[[described]]\nprogram = [\"b\"]\nversion = \"B 2\"\n"
        );
        let c = Described {
            program: &["c"],
            ..Described::EMPTY
        };
        assert!(blessed(text, &c, "", "").is_err());
    }
}
