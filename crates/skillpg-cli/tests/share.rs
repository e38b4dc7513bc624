//! `skillpg share` makes the page's link, byte for byte: the CLI's output is held to the link
//! the page's own state code (`skillpg_app::state`, natively) makes after "Clear all" and
//! loading the same folders, on the page's samples, a multi-skill case and the corpus; and an
//! oversized state is refused with the page's message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use skillpg_app::state::{self, PageState, SkillInput, View};

const BASE: &str = "https://owner.github.io/skill-playground/";

fn skillpg(args: &[&str], paths: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skillpg"))
        .args(args)
        .args(paths)
        .output()
        .expect("skillpg runs")
}

/// The link the page shows once a person has cleared its skills and loaded `paths` (each
/// folder as its loader reads it), on `view`.
fn page_link(paths: &[PathBuf], view: View) -> String {
    // The page's first state, then "Clear all".
    let mut page = PageState {
        selected_file: "SKILL.md".into(),
        profile: "spec".into(),
        ..PageState::default()
    };
    page.skills.clear();
    page.selected = 0;
    for p in paths {
        let ingested = skillpg_fs::read_path(p).expect("readable");
        for k in SkillInput::from_ingested(ingested) {
            page.put_skill(k);
        }
    }
    format!("{BASE}#{}", state::share_fragment_with_view(&page, view))
}

fn cli_link(paths: &[PathBuf], view: &str) -> String {
    let out = skillpg(&["share", "--base", BASE, "--view", view], paths);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut lines = text.lines();
    let link = lines.next().expect("the link").to_owned();
    let badge = lines.next().expect("the badge");
    assert!(
        badge.starts_with("[![Open in Skill Playground]("),
        "{badge}"
    );
    assert!(badge.ends_with(&format!("]({link})")), "{badge}");
    link
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

#[test]
fn share_makes_the_pages_link_for_the_samples() {
    let samples = root().join("web/samples");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&samples)
        .expect("web/samples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    for d in &dirs {
        let one = std::slice::from_ref(d);
        assert_eq!(
            cli_link(one, "check"),
            page_link(one, View::Check),
            "{}",
            d.display()
        );
    }
    // All of them at once, opening on the levels.
    assert_eq!(cli_link(&dirs, "levels"), page_link(&dirs, View::Levels));
    // The link opens in the page as those skills.
    let link = cli_link(&dirs, "cost");
    let fragment = link.split_once('#').expect("a fragment").1;
    let opened = state::decode_fragment(fragment)
        .expect("a state")
        .expect("valid");
    assert_eq!(View::from_fragment(fragment), Some(View::Cost));
    assert!(!opened.skills.is_empty());
}

#[test]
fn share_makes_the_pages_link_for_several_skills_with_binary_files() {
    let scratch = std::env::temp_dir().join(format!("skillpg-share-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    for (dir, name) in [("a", "alpha"), ("b", "beta"), ("a2/alpha", "alpha")] {
        let d = scratch.join(dir);
        std::fs::create_dir_all(d.join("assets")).expect("mkdir");
        std::fs::write(
            d.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\n\n# {name}\n"
            ),
        )
        .expect("write");
        std::fs::write(d.join("assets/logo.bin"), [0u8, 159, 146, 150, 255]).expect("write");
    }
    // Two folders, then a third whose skill has the first's folder name: it replaces it, as
    // the page's loader does.
    let paths = [scratch.join("a"), scratch.join("b"), scratch.join("a2")];
    assert_eq!(cli_link(&paths, "check"), page_link(&paths, View::Check));
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn share_refuses_a_state_too_large_for_a_link_with_the_pages_message() {
    let scratch = std::env::temp_dir().join(format!("skillpg-share-big-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let d = scratch.join("big");
    std::fs::create_dir_all(&d).expect("mkdir");
    std::fs::write(
        d.join("SKILL.md"),
        "---\nname: big\ndescription: Big. Use when asked.\n---\n",
    )
    .expect("write");
    // Incompressible bytes: a link of well over 60,000 characters.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let noise: Vec<u8> = (0..80_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(d.join("noise.bin"), noise).expect("write");
    let out = skillpg(&["share", "--base", BASE], &[d]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("characters as a link, over the 60,000 that chat apps and mail keep"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
#[ignore = "slow tier, needs the shared corpus: scripts/test runs it"]
fn share_makes_the_pages_link_for_every_corpus_folder() {
    let corpus = skillpg_fs::corpus_dir();
    let mut n = 0;
    for repo in std::fs::read_dir(&corpus).expect("the shared corpus (../shared/corpus)") {
        let repo = repo.expect("entry").path();
        if !repo.is_dir() {
            continue;
        }
        let mut skills: Vec<PathBuf> = std::fs::read_dir(&repo)
            .expect("a repository folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("SKILL.md").is_file())
            .collect();
        skills.sort();
        for s in &skills {
            let one = std::slice::from_ref(s);
            let page = page_link(one, View::Check);
            if skillpg_share::too_long(page.len()).is_some() {
                // The CLI refuses what the page refuses.
                let out = skillpg(&["share", "--base", BASE], one);
                assert_eq!(out.status.code(), Some(2), "{}", s.display());
            } else {
                assert_eq!(cli_link(one, "check"), page, "{}", s.display());
            }
            n += 1;
        }
    }
    assert!(n >= 100, "the corpus's skills were shared ({n})");
}
