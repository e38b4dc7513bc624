//! The tokenizer on long runs of one character class, each of which o200k_base's pre-tokenizer
//! makes one piece (or pieces of three digits): the input that made tiktoken's quadratic merge
//! freeze the page (a 743-character share link inflating to a long run took 56 s). Every class
//! from 64 KiB to 8 MiB, and tiktoken-rs, the named peer, beside ours at the sizes it finishes.
//! BENCHMARKS.md has the table; `cargo bench -p skillpg-tokens --bench long_runs`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// One character of each class the pattern tells apart.
const CLASSES: [(&str, &str); 9] = [
    ("lowercase", "x"),
    ("uppercase", "X"),
    ("digits", "7"),
    ("spaces", " "),
    ("newlines", "\n"),
    ("punctuation", "="),
    ("cjk", "日"),
    ("mark", "\u{301}"),
    ("emoji", "😀"),
];

fn run_of(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len())
}

fn long_runs(c: &mut Criterion) {
    skillpg_tokens::warm_up();
    let mut group = c.benchmark_group("count_run");
    group.sample_size(10);
    for (name, unit) in CLASSES {
        for size in [64 << 10, 1 << 20, 8 << 20] {
            let text = run_of(unit, size);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, size), &text, |b, text| {
                b.iter(|| skillpg_tokens::count(text))
            });
        }
    }
    group.finish();

    let peer = tiktoken_rs::o200k_base().expect("tiktoken-rs's o200k_base");
    let mut group = c.benchmark_group("peer_tiktoken_rs_vs_ours");
    group.sample_size(10);
    for size in [16 << 10, 64 << 10] {
        let text = run_of("x", size);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("tiktoken-rs", size), &text, |b, text| {
            b.iter(|| peer.encode_ordinary(text).len())
        });
        group.bench_with_input(BenchmarkId::new("skillpg", size), &text, |b, text| {
            b.iter(|| skillpg_tokens::encode(text).len())
        });
    }
    group.finish();
}

criterion_group!(benches, long_runs);
criterion_main!(benches);
