//! The router against independent oracles: WordPiece against Hugging Face's `tokenizers`
//! (the shipped tokenizer.json) on a parity corpus, and the CPU forward pass against a numpy
//! float64 implementation, at max |Δ| ≤ 1e-4 and cosine ≥ 0.9999 per embedding.

#![allow(
    clippy::print_stdout,
    reason = "the test prints the figures it measured, for the closing notes"
)]

use itertools::Itertools;
mod common;

use skillpg_embedder::Embedder;
use skillpg_embedder::cpu::{CpuEmbedder, Model};
use skillpg_embedder::weights::Weights;
use skillpg_embedder::wordpiece::WordPiece;

fn embedder() -> CpuEmbedder {
    let (packed, _) = common::model_dirs();
    let weights =
        Weights::from_spgm(&std::fs::read(packed.join("minilm-f32.spgm")).expect("weights"))
            .expect("spgm");
    let vocab = std::fs::read_to_string(packed.join("vocab.txt")).expect("vocab");
    CpuEmbedder {
        tokenizer: WordPiece::from_vocab_txt(&vocab).expect("vocab"),
        model: Model::from_weights(&weights).expect("model"),
    }
}

fn parity_corpus() -> Vec<String> {
    [
        "Check this migration before I run it against production.",
        "Will this CREATE INDEX lock writes?",
        "Is 'seamless and powerful' allowed in the app store listing?",
        "Café, naïve, Ångström, résumé, São Paulo, Zürich",
        "日本語のテキストと中文字符 mixed with English",
        "Привет, как дела? Ελληνικά. العربية. עברית",
        "pneumonoultramicroscopicsilicovolcanoconiosis supercalifragilisticexpialidocious",
        &"a".repeat(120),
        "emoji 😀 👩‍👩‍👧 and symbols ©®™ ±§¶",
        "punctuation!!! (parens) [brackets] {braces} \"quotes\" 'single' — dashes – …",
        "tabs\tand\nnewlines\r\nand  spaces\u{00A0}nbsp\u{200B}zero-width",
        "URLs https://example.com/path?q=1&x=2 and e-mail a.b@c.de",
        "MixedCASE CamelCase snake_case kebab-case 3.14159 1,000,000",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
#[ignore = "slow tier, needs all-MiniLM-L6-v2 from scripts/fetch-model: scripts/test runs it"]
fn wordpiece_matches_huggingface_tokenizers() {
    let (packed, src) = common::model_dirs();
    let wp = WordPiece::from_vocab_txt(
        &std::fs::read_to_string(packed.join("vocab.txt")).expect("vocab"),
    )
    .expect("vocab");
    let texts = parity_corpus();
    let theirs: Vec<Vec<u32>> =
        serde_json::from_value(common::oracle("tokenize", &src, &texts)).expect("ids");
    for (text, ids) in texts.iter().zip_eq(theirs) {
        assert_eq!(wp.encode(text), ids, "on {text:?}");
    }
}

#[test]
#[ignore = "slow tier, needs all-MiniLM-L6-v2 from scripts/fetch-model: scripts/test runs it"]
fn cpu_forward_matches_numpy_float64() {
    let (_, src) = common::model_dirs();
    let mut texts = parity_corpus();
    texts.truncate(8);
    let ours = embedder().embed(&texts);
    let theirs: Vec<Vec<f64>> =
        serde_json::from_value(common::oracle("embed", &src, &texts)).expect("embeddings");
    let mut worst = 0.0f64;
    for ((text, a), b) in texts.iter().zip_eq(&ours).zip_eq(&theirs) {
        let max_abs = a
            .iter()
            .zip_eq(b)
            .map(|(x, y)| (*x as f64 - y).abs())
            .fold(0.0, f64::max);
        let cos: f64 = a.iter().zip_eq(b).map(|(x, y)| *x as f64 * y).sum();
        assert!(
            max_abs <= 1e-4 && cos >= 0.9999,
            "{text:?}: max |Δ| {max_abs:e}, cosine {cos}"
        );
        worst = worst.max(max_abs);
    }
    println!(
        "CPU reference vs numpy float64: worst max |Δ| {worst:e} over {} texts",
        texts.len()
    );
}

#[test]
#[ignore = "slow tier, needs all-MiniLM-L6-v2 from scripts/fetch-model: scripts/test runs it"]
fn f16_weights_stay_close_to_f32() {
    let (packed, _) = common::model_dirs();
    let f16 = Weights::from_spgm(&std::fs::read(packed.join("minilm-f16.spgm")).expect("f16"))
        .expect("spgm");
    let e16 = CpuEmbedder {
        model: Model::from_weights(&f16).expect("model"),
        ..embedder()
    };
    let texts = vec!["Is this ALTER TABLE safe to deploy at peak traffic?".to_owned()];
    let (a, b) = (&embedder().embed(&texts)[0], &e16.embed(&texts)[0]);
    let cos: f32 = a.iter().zip_eq(b).map(|(x, y)| x * y).sum();
    assert!(cos >= 0.999, "f16 weights: cosine {cos}");
}

/// The fast CPU path against the reference: every embedding of the parity corpus and of the
/// sample routing set (descriptions and requests, batched as the page batches them) within
/// 1e-4, every cosine score within 1e-4, every routing decision the same.
#[test]
#[ignore = "slow tier, needs all-MiniLM-L6-v2 from scripts/fetch-model: scripts/test runs it"]
fn fast_forward_matches_the_reference() {
    let reference = embedder();
    let fast = skillpg_embedder::fast::FastEmbedder::new(
        reference.tokenizer.clone(),
        reference.model.clone(),
    );
    let mut texts = parity_corpus();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/samples/routing");
    let requests: Vec<skillpg_routing::requests::Labelled> =
        skillpg_routing::requests::parse_requests(
            &std::fs::read_to_string(root.join("requests.json")).expect("sample requests"),
            None,
        )
        .expect("requests");
    texts.extend(requests.iter().map(|r| r.query.clone()));
    let ours = fast.embed(&texts);
    let want = reference.embed(&texts);
    let mut worst = 0.0f32;
    for ((text, a), b) in texts.iter().zip_eq(&ours).zip_eq(&want) {
        for (x, y) in a.iter().zip_eq(b) {
            worst = worst.max((x - y).abs());
        }
        assert!(
            a.iter().zip_eq(b).all(|(x, y)| (x - y).abs() <= 1e-4),
            "embedding of {text:?} differs"
        );
    }
    // Scores and decisions of requests against the parity texts standing in for skills.
    let skills = &want[..6];
    let fast_skills = &ours[..6];
    let t = skillpg_routing::decide::Thresholds {
        tau: 0.2,
        delta: 0.0,
    };
    for (r, (a, b)) in ours[14..].iter().zip_eq(&want[14..]).enumerate() {
        let sa: Vec<f32> = fast_skills
            .iter()
            .map(|s| skillpg_routing::decide::cosine(a, s))
            .collect();
        let sb: Vec<f32> = skills
            .iter()
            .map(|s| skillpg_routing::decide::cosine(b, s))
            .collect();
        assert!(
            sa.iter().zip_eq(&sb).all(|(x, y)| (x - y).abs() <= 1e-4),
            "request {r}: scores differ"
        );
        assert_eq!(
            skillpg_routing::decide::decide(&sa, t),
            skillpg_routing::decide::decide(&sb, t),
            "request {r}"
        );
    }
    println!(
        "fast path vs reference on {} texts: worst |Δ| {worst:.2e}",
        texts.len()
    );
}

/// The smaller weight files against f32: the sample set's requests routed over the sample
/// skills and over every description of the corpus (152 skills), with the int8 and the f16
/// files. Every score is within 0.01, and a decision differs only where f32's own scores sit
/// within 0.01 of a boundary (τ, or a tie between the two best skills).
#[test]
#[ignore = "slow tier, needs all-MiniLM-L6-v2 from scripts/fetch-model: scripts/test runs it"]
fn int8_and_f16_weights_route_like_f32() {
    let (packed, _) = common::model_dirs();
    let vocab = std::fs::read_to_string(packed.join("vocab.txt")).expect("vocab");
    let load = |file: &str| {
        let bytes = std::fs::read(packed.join(file))
            .unwrap_or_else(|e| panic!("{file}: {e} (run scripts/fetch-model)"));
        skillpg_embedder::fast::FastEmbedder::new(
            WordPiece::from_vocab_txt(&vocab).expect("vocab"),
            Model::from_weights(&Weights::from_spgm(&bytes).expect("spgm")).expect("model"),
        )
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let requests: Vec<String> = skillpg_routing::requests::parse_requests(
        &std::fs::read_to_string(root.join("web/samples/routing/requests.json")).expect("requests"),
        None,
    )
    .expect("requests")
    .into_iter()
    .map(|r| r.query)
    .collect();
    let skill_texts = |dir: &std::path::Path| -> Vec<String> {
        skillpg_fs::read_path(dir)
            .expect("skills")
            .skills
            .iter()
            .map(|b| {
                let a = skillpg_core::analyze(b);
                format!(
                    "{}: {}",
                    a.display_name(),
                    a.description().unwrap_or("").trim()
                )
            })
            .collect()
    };
    let corpus = skillpg_fs::corpus_dir();
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found",
        corpus.display()
    );
    let sets = [
        (
            "sample skills",
            skill_texts(&root.join("web/samples/routing")),
        ),
        ("corpus descriptions", skill_texts(&corpus)),
    ];
    let f32_model = load("minilm-f32.spgm");
    let t = skillpg_routing::decide::Thresholds {
        tau: 0.2,
        delta: 0.0,
    };
    let reference: Vec<Vec<Vec<f32>>> = sets
        .iter()
        .map(|(_, skills)| {
            let mut texts = skills.clone();
            texts.extend(requests.iter().cloned());
            f32_model.embed(&texts)
        })
        .collect();
    for file in ["minilm-i8.spgm", "minilm-f16.spgm"] {
        let small = load(file);
        for ((what, skills), a) in sets.iter().zip_eq(&reference) {
            let mut texts = skills.clone();
            texts.extend(requests.iter().cloned());
            let b = small.embed(&texts);
            let n = skills.len();
            let (mut worst, mut decisions, mut at_boundary) = (0.0f32, 0, 0);
            for (ra, rb) in a[n..].iter().zip_eq(&b[n..]) {
                let sa: Vec<f32> = a[..n]
                    .iter()
                    .map(|s| skillpg_routing::decide::cosine(ra, s))
                    .collect();
                let sb: Vec<f32> = b[..n]
                    .iter()
                    .map(|s| skillpg_routing::decide::cosine(rb, s))
                    .collect();
                for (x, y) in sa.iter().zip_eq(&sb) {
                    worst = worst.max((x - y).abs());
                }
                decisions += 1;
                let (da, db) = (
                    skillpg_routing::decide::decide(&sa, t),
                    skillpg_routing::decide::decide(&sb, t),
                );
                if da != db {
                    // A decision may flip only where f32 itself sits within the score tolerance
                    // of a boundary: its best score within 0.01 of τ, or its two best within 0.01.
                    let mut sorted = sa.clone();
                    sorted.sort_by(|x, y| y.total_cmp(x));
                    let near = (sorted[0] - t.tau).abs() <= 0.01
                        || sorted.len() > 1 && sorted[0] - sorted[1] <= 0.01;
                    assert!(
                        near,
                        "{file}, {what}: decision {da:?} vs {db:?} away from any boundary (f32 best {:.4})",
                        sorted[0]
                    );
                    at_boundary += 1;
                }
            }
            println!(
                "{file} vs f32 on {what} ({n} skills, {decisions} requests): {} decisions identical, {at_boundary} flipped at a boundary (f32 within 0.01 of τ or of a tie); worst |score difference| {worst:.4}",
                decisions - at_boundary
            );
            assert!(worst <= 0.01, "{file}, {what}: scores differ by {worst}");
        }
    }
}

/// The integer kernel (int8 weights, activations quantized to i16 per block) against the plain
/// reference run on the same int8 weights in f32: the sample set's embeddings within 1e-3,
/// every score within 1e-3, every decision the same.
#[test]
#[ignore = "slow tier, needs all-MiniLM-L6-v2 from scripts/fetch-model: scripts/test runs it"]
fn integer_path_matches_the_reference_on_int8_weights() {
    let (packed, _) = common::model_dirs();
    let vocab = std::fs::read_to_string(packed.join("vocab.txt")).expect("vocab");
    let wp = WordPiece::from_vocab_txt(&vocab).expect("vocab");
    let model = Model::from_weights(
        &Weights::from_spgm(&std::fs::read(packed.join("minilm-i8.spgm")).expect("i8"))
            .expect("spgm"),
    )
    .expect("model");
    let reference = CpuEmbedder {
        tokenizer: wp.clone(),
        model: model.clone(),
    };
    let fast = skillpg_embedder::fast::FastEmbedder::with_kernel(
        wp,
        model,
        skillpg_embedder::fast::Kernel::Integer,
    );
    assert!(
        fast.runs_on_integers(),
        "the int8 file's layers take the integer kernel"
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/samples/routing");
    let mut texts: Vec<String> = std::fs::read_dir(&root)
        .expect("samples")
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("SKILL.md")).ok())
        .map(|md| {
            md.lines()
                .filter(|l| l.starts_with("name: ") || l.starts_with("description: "))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    texts.sort();
    let n = texts.len();
    let requests = skillpg_routing::requests::parse_requests(
        &std::fs::read_to_string(root.join("requests.json")).expect("requests"),
        None,
    )
    .expect("requests");
    texts.extend(requests.iter().map(|r| r.query.clone()));
    let (a, b) = (fast.embed(&texts), reference.embed(&texts));
    let mut worst = 0.0f32;
    for (x, y) in a.iter().zip_eq(&b) {
        worst = x
            .iter()
            .zip_eq(y)
            .fold(worst, |w, (p, q)| w.max((p - q).abs()));
    }
    let t = skillpg_routing::decide::Thresholds {
        tau: 0.2,
        delta: 0.0,
    };
    let mut worst_score = 0.0f32;
    for (ra, rb) in a[n..].iter().zip_eq(&b[n..]) {
        let sa: Vec<f32> = a[..n]
            .iter()
            .map(|s| skillpg_routing::decide::cosine(ra, s))
            .collect();
        let sb: Vec<f32> = b[..n]
            .iter()
            .map(|s| skillpg_routing::decide::cosine(rb, s))
            .collect();
        worst_score = sa
            .iter()
            .zip_eq(&sb)
            .fold(worst_score, |w, (x, y)| w.max((x - y).abs()));
        assert_eq!(
            skillpg_routing::decide::decide(&sa, t),
            skillpg_routing::decide::decide(&sb, t)
        );
    }
    println!(
        "integer path vs reference on int8 weights, {} texts: worst |embedding difference| {worst:.2e}, worst |score difference| {worst_score:.2e}",
        texts.len()
    );
    assert!(
        worst <= 1e-3 && worst_score <= 1e-3,
        "embeddings differ by {worst}, scores by {worst_score}"
    );
}
