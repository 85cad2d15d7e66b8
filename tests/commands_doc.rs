//! `docs/commands.md` is generated from the catalogue (SPEC §4.3 round 3:
//! the documentation reads the same rows as the decision). This test fails
//! when the file is stale; `PERMC_BLESS=1` rewrites it.

#[test]
fn the_commands_page_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md");
    let want = permc_core::facts::catalogue_doc::markdown();
    if std::env::var_os("PERMC_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write docs/commands.md");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/commands.md is missing or stale: run `PERMC_BLESS=1 cargo test --test commands_doc`"
    );
}
