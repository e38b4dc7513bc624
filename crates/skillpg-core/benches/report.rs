//! Criterion benchmarks of the engine (numbers in BENCHMARKS.md):
//! - the full report (analysis + all four profiles) of vercel-react-best-practices (75 files),
//!   target under 20 ms;
//! - the spec check of the whole 152-skill corpus in one process;
//! - o200k_base throughput of the engine's tokenizer against tiktoken-rs called directly.
//!
//! The shared corpus must be beside the repository (`../shared/corpus`).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skillpg_core::{SkillBundle, analyze, check, profile};

fn corpus_skills() -> Vec<SkillBundle> {
    let corpus = skillpg_fs::corpus_dir();
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found",
        corpus.display()
    );
    let mut repos: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    repos.sort();
    repos
        .iter()
        .flat_map(|r| skillpg_fs::read_path(r).expect("repo").skills)
        .collect()
}

fn full_report(c: &mut Criterion) {
    skillpg_tokens::warm_up();
    let dir = skillpg_fs::corpus_dir().join("vercel-labs__agent-skills/react-best-practices");
    let bundle = skillpg_fs::read_path(&dir)
        .expect("react-best-practices")
        .skills
        .remove(0);
    c.bench_function(
        "full report: react-best-practices (75 files, 4 profiles)",
        |b| {
            b.iter(|| {
                let a = analyze(black_box(&bundle));
                let n: usize = profile::ALL.iter().map(|p| check(&a, p).len()).sum();
                black_box(n)
            })
        },
    );
}

fn whole_corpus(c: &mut Criterion) {
    skillpg_tokens::warm_up();
    let skills = corpus_skills();
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.bench_function("spec check of 152 skills (analysis included)", |b| {
        b.iter(|| {
            skills
                .iter()
                .map(|s| check(&analyze(s), &profile::SPEC).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn tokenizer(c: &mut Criterion) {
    skillpg_tokens::warm_up();
    let texts: Vec<String> = corpus_skills()
        .iter()
        .flat_map(|s| {
            s.files
                .iter()
                .filter_map(|f| String::from_utf8(f.bytes.clone()).ok())
        })
        .collect();
    let n_bytes: usize = texts.iter().map(String::len).sum();
    let direct = tiktoken_rs::o200k_base().expect("o200k");
    let mut group = c.benchmark_group("o200k_base over the corpus text");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(n_bytes as u64));
    group.bench_function("skillpg-tokens count", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| skillpg_tokens::count(t))
                .sum::<usize>()
        })
    });
    group.bench_function("tiktoken-rs encode_ordinary", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| direct.encode_ordinary(t).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, full_report, whole_corpus, tokenizer);
criterion_main!(benches);
