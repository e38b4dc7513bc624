//! The chapter's five-skill table, reproduced exactly from the shared corpus.

use skillpg_core::{Levels, analyze};

fn levels_of(repo: &str, skill: &str) -> Levels {
    let dir = skillpg_fs::corpus_dir().join(repo).join(skill);
    assert!(
        dir.exists(),
        "the shared corpus is absent: {} not found (tests need ../shared/corpus beside the repository)",
        dir.display()
    );
    let ingested = skillpg_fs::read_path(&dir).expect("readable corpus folder");
    assert_eq!(ingested.skills.len(), 1);
    analyze(&ingested.skills[0]).levels()
}

#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn reproduces_the_chapter_table() {
    let cases = [
        (
            "vercel-labs__next-skills",
            "next-best-practices",
            (40, 966, 19_374, 19),
        ),
        (
            "vercel-labs__next-skills",
            "next-cache-components",
            (28, 2_334, 0, 0),
        ),
        (
            "vercel-labs__agent-skills",
            "composition-patterns",
            (59, 533, 10_667, 13),
        ),
        (
            "vercel-labs__agent-skills",
            "react-best-practices",
            (68, 1_670, 53_670, 75),
        ),
        (
            "vercel-labs__agent-skills",
            "react-native-skills",
            (58, 950, 37_957, 41),
        ),
    ];
    let mut total = Levels::default();
    for (repo, skill, (l1, l2, l3, files)) in cases {
        let got = levels_of(repo, skill);
        assert_eq!(
            (got.level1, got.level2, got.level3, got.files),
            (l1, l2, l3, files),
            "{skill}"
        );
        total = total + got;
    }
    assert_eq!(
        (total.level1, total.level2, total.level3),
        (253, 6_453, 121_668)
    );
}
