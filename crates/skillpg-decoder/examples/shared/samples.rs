//! What the decoder's CPU and GPU benchmarks share (`#[path]`-included by both): the sample
//! routing sets' `(name, description)` pairs, read as the CLI reads them (`skillpg_fs::
//! read_path` and `RouteSkill::all_in`, so the benchmarks prompt with the page's and the CLI's
//! text), the labelled
//! requests, and one arm of the chapter's protocol on any backend (the experiment's words on the
//! decoder's conversation, as `skillpg_runtime::decoder::SkillsChat` binds them).

use std::path::{Path, PathBuf};
use std::time::Instant;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::chat::{ChatRouter, DEFAULT_MAX_ANSWER_TOKENS};
use skillpg_decoder::forward::Forward;
use skillpg_routing::answer::read_answer;
use skillpg_routing::prompt::{prompt_prefix, prompt_request, system_prompt};

/// The benchmarks' arguments: the model file (SmolLM2 from `scripts/fetch-decoder-model` when
/// none is given) and how many of the sample requests to run, when given.
pub fn model_and_limit(root: &Path) -> (PathBuf, Option<usize>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args.first().map_or_else(
        || root.join("target/model/SmolLM2-135M-Instruct.Q4_1.gguf"),
        PathBuf::from,
    );
    // Given but not a number: every request.
    let limit = args.get(1).map(|s| s.parse().unwrap_or(usize::MAX));
    (file, limit)
}

/// Every skill of `web/samples/<set>`, read as the CLI and the page read it.
pub fn sample_skills(root: &Path, set: &str) -> Vec<skillpg_routing::skills::RouteSkill> {
    let input = skillpg_fs::read_path(&root.join("web/samples").join(set)).unwrap();
    skillpg_routing::skills::RouteSkill::all_in(set, &input).unwrap()
}

/// The sample set's first `limit` labelled requests, `(query, expected)`.
pub fn sample_requests(root: &Path, limit: usize) -> Vec<(String, String)> {
    let requests: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("web/samples/routing/requests.json")).unwrap(),
    )
    .unwrap();
    requests
        .as_array()
        .unwrap()
        .iter()
        .take(limit)
        .map(|r| {
            (
                r["query"].as_str().unwrap().to_owned(),
                r["expected"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// One arm of the chapter's protocol, timed.
pub struct ArmRun {
    /// Tokens of the system turn.
    pub prefix_tokens: usize,
    /// Seconds to make the router (the system turn's prefill when reused) and to run the requests.
    pub setup_s: f64,
    pub run_s: f64,
    /// Answers that were the expected skill, and answers that were NONE.
    pub right: usize,
    pub none: usize,
    /// Tokens prefilled and generated, over every request.
    pub prefill_tokens: usize,
    pub generated: usize,
}

/// Routes `requests` over `skills` with the chapter's protocol on `model`.
pub async fn chapter_arm(
    model: &mut impl Forward,
    bpe: &Bpe,
    skills: &[skillpg_routing::skills::RouteSkill],
    requests: &[(String, String)],
    reuse_prefix: bool,
) -> ArmRun {
    let t = Instant::now();
    let names = skillpg_routing::skills::names(skills);
    let prefix = prompt_prefix(&system_prompt(skills));
    let router = ChatRouter::new(model, bpe, &prefix, &[], reuse_prefix)
        .await
        .expect("router");
    let setup_s = t.elapsed().as_secs_f64();
    let mut arm = ArmRun {
        prefix_tokens: router.prefix_tokens(),
        setup_s,
        run_s: 0.0,
        right: 0,
        none: 0,
        prefill_tokens: 0,
        generated: 0,
    };
    let t = Instant::now();
    for (q, expected) in requests {
        let a = router
            .answer(
                model,
                bpe,
                &prompt_request(q),
                DEFAULT_MAX_ANSWER_TOKENS,
                None,
            )
            .await
            .expect("answer");
        let choice = read_answer(&a.verbatim, &names)
            .choice
            .map_or(skillpg_routing::NONE, |i| skills[i].name.as_str());
        arm.right += usize::from(choice == expected);
        arm.none += usize::from(choice == skillpg_routing::NONE);
        arm.prefill_tokens += a.prefill_tokens;
        arm.generated += a.generated_tokens;
    }
    arm.run_s = t.elapsed().as_secs_f64();
    arm
}
