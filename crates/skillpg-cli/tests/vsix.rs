//! The VS Code extension (`editors/vscode`) packs into a `.vsix` whose manifest starts the
//! server: `scripts/build-vsix` runs vsce, and the archive is read back. Running VS Code itself
//! is not required.
//!
//! Slow tier: it needs Node.js and the extension's npm packages (`scripts/test` installs them
//! in its setup, so the build here fetches nothing).

use std::io::Read;
use std::path::Path;
use std::process::Command;

fn entry(archive: &mut zip::ZipArchive<std::fs::File>, name: &str) -> String {
    let mut text = String::new();
    archive
        .by_name(name)
        .unwrap_or_else(|e| panic!("{name} in the .vsix: {e}"))
        .read_to_string(&mut text)
        .expect("UTF-8");
    text
}

#[test]
#[ignore = "slow tier, needs Node.js and editors/vscode's npm packages: scripts/test runs it"]
fn the_extension_packs_and_starts_skillpg_lsp() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("scripts/build-vsix"))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let file = std::fs::File::open(root.join("target/skillpg.vsix")).expect("the .vsix");
    let mut vsix = zip::ZipArchive::new(file).expect("a zip");

    let manifest = entry(&mut vsix, "extension.vsixmanifest");
    assert!(manifest.contains("Id=\"skillpg\""), "{manifest}");
    let package: serde_json::Value =
        serde_json::from_str(&entry(&mut vsix, "extension/package.json")).expect("JSON");
    assert_eq!(package["main"], "./dist/extension.js");
    assert_eq!(
        package["contributes"]["configuration"]["properties"]["skillpg.server.path"]["default"],
        "skillpg"
    );
    // It starts in a workspace holding a skill (or skillpg.toml), never on any Markdown file.
    let events = package["activationEvents"].to_string();
    assert!(events.contains("workspaceContains:**/SKILL.md"), "{events}");
    assert!(!events.contains("onLanguage:markdown"), "{events}");
    // It names no made-up repository.
    assert!(!package.to_string().contains("example.invalid"));
    let main = entry(&mut vsix, "extension/dist/extension.js");
    assert!(
        main.contains(r#"args:["lsp"]"#),
        "the extension starts `skillpg lsp`"
    );
    // One bundled file (the language client inside it): no node_modules, no sources, and no
    // watcher of every file (the server registers its own).
    assert!(main.contains("vscode-languageclient") || main.contains("LanguageClient"));
    assert!(!main.contains("createFileSystemWatcher(\"**/*\")"));
    let names: Vec<String> = vsix.file_names().map(str::to_owned).collect();
    assert!(
        names.iter().all(|n| !n.contains("node_modules")),
        "{names:?}"
    );
    assert_eq!(
        names.iter().filter(|n| n.ends_with(".js")).count(),
        1,
        "{names:?}"
    );
}
