//! Criterion benchmarks of the routing model's CPU paths (numbers in BENCHMARKS.md), on the
//! int8 weights the page ships, after `bash scripts/fetch-model`:
//! - one sample request (the page's per-request cost; target in wasm ≤ 12 ms);
//! - one sample description;
//! - the sample set (6 descriptions + 28 requests) in one batch;
//! - the plain reference on one request, for the ratio.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use skillpg_embedder::cpu::Model;
use skillpg_embedder::fast::FastEmbedder;
use skillpg_embedder::weights::Weights;
use skillpg_embedder::wordpiece::WordPiece;

fn forward(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("target/model");
    let bytes = std::fs::read(dir.join("minilm-i8.spgm"))
        .expect("the model is absent: run `bash scripts/fetch-model`");
    let model = Model::from_weights(&Weights::from_spgm(&bytes).expect("spgm")).expect("model");
    let wp =
        WordPiece::from_vocab_txt(&std::fs::read_to_string(dir.join("vocab.txt")).expect("vocab"))
            .expect("vocab");
    let requests = skillpg_routing::requests::parse_requests(
        &std::fs::read_to_string(root.join("web/samples/routing/requests.json")).expect("requests"),
        None,
    )
    .expect("requests");
    let mut descriptions = Vec::new();
    for e in std::fs::read_dir(root.join("web/samples/routing"))
        .expect("samples")
        .filter_map(Result::ok)
    {
        if let Ok(md) = std::fs::read_to_string(e.path().join("SKILL.md")) {
            let field = |k: &str| {
                md.lines()
                    .find_map(|l| l.strip_prefix(k))
                    .unwrap_or("")
                    .to_owned()
            };
            descriptions.push(format!("{}: {}", field("name: "), field("description: ")));
        }
    }
    descriptions.sort();
    let request = wp.encode(&requests[0].query);
    let description = wp.encode(&descriptions[0]);
    let set: Vec<Vec<u32>> = descriptions
        .iter()
        .chain(requests.iter().map(|r| &r.query))
        .map(|t| wp.encode(t))
        .collect();
    let fast = FastEmbedder::new(wp.clone(), model.clone());
    let mut g = c.benchmark_group("routing model (int8 weights, f32 compute)");
    g.sample_size(20);
    g.bench_function(
        format!("fast: one request ({} tokens)", request.len()),
        |b| b.iter(|| black_box(fast.forward_batch(std::slice::from_ref(&request)))),
    );
    g.bench_function(
        format!("fast: one description ({} tokens)", description.len()),
        |b| b.iter(|| black_box(fast.forward_batch(std::slice::from_ref(&description)))),
    );
    g.bench_function(
        format!("fast: the sample set in one batch ({} texts)", set.len()),
        |b| b.iter(|| black_box(fast.forward_batch(&set))),
    );
    g.bench_function(
        format!("reference: one request ({} tokens)", request.len()),
        |b| b.iter(|| black_box(model.forward(&request))),
    );
    g.finish();
}

criterion_group!(benches, forward);
criterion_main!(benches);
