//! The lab's keyword-stuffing signal on the held-in-tree webhooks case (`tests/fixtures/
//! webhooks`): an honest rewrite in the skill's own words and a bare list of the train queries'
//! words get different words, whatever the split's luck. (The model's verdicts on the same two
//! drafts are held in `crates/skillpg-cli/tests/lab_verdicts.rs`, slow tier.)

use skillpg_routing::eval::{self, Split};

const SKILL_MD: &str = include_str!("fixtures/webhooks/webhooks/SKILL.md");
const EVALS: &str = include_str!("fixtures/webhooks/evals.txt");
const HONEST: &str = include_str!("fixtures/webhooks/honest.txt");
const KEYWORDS: &str = include_str!("fixtures/webhooks/keywords.txt");

#[test]
fn a_keyword_list_reads_as_stuffing_and_an_honest_rewrite_does_not() {
    let items = skillpg_routing::evalset::parse_eval_input(EVALS)
        .expect("the eval set")
        .items;
    let body = SKILL_MD.split("\n---\n").nth(1).expect("a body");
    let current = "Handles webhook endpoints.";
    for seed in 1..=10 {
        let splits = eval::split(&items, eval::DEFAULT_HOLDOUT, seed);
        let train: Vec<&str> = items
            .iter()
            .zip(&splits)
            .filter(|(_, s)| **s == Split::Train)
            .map(|(q, _)| q.query.as_str())
            .collect();
        let stuffed = skillpg_routing::explain::stuffing(current, KEYWORDS.trim(), &train, body)
            .unwrap_or_else(|| panic!("seed {seed}: the keyword list is stuffing"));
        assert!(stuffed.from_queries.len() >= skillpg_routing::explain::STUFFING_MIN_WORDS);
        let words = stuffed.words();
        assert!(words.contains("keyword stuffing"), "{words}");
        assert!(
            skillpg_routing::explain::stuffing(current, HONEST.trim(), &train, body).is_none(),
            "seed {seed}: the honest rewrite uses the skill's own words"
        );
    }
}
