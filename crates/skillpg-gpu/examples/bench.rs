//! The routing model's benchmark, one command that prints a table:
//! `cargo run --release -p skillpg-gpu --example bench` (after `bash scripts/fetch-model`).
//!
//! It reports the adapter, model load (weights to the device), the first request, the median
//! request, and the sample set (6 skills + 24 requests embedded in one packed batch, 24 × 6
//! scores, with the dispatches a batch takes), on the GPU and
//! on the CPU reference, with the FLOPs and bytes of one request and the floor they imply on a
//! typical laptop GPU. On this project's CI machine the "GPU" is Mesa's lavapipe (a CPU), so
//! its numbers are not GPU figures; run it where a real GPU is.

#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark program"
)]

use std::time::Instant;

use skillpg_embedder::cpu::Model;
use skillpg_embedder::weights::Weights;
use skillpg_embedder::wordpiece::WordPiece;
use skillpg_gpu::{Gpu, GpuModel};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let model_dir = root.join("target/model");
    let weights = Weights::from_spgm(
        &std::fs::read(model_dir.join("minilm-f32.spgm"))
            .expect("run `bash scripts/fetch-model` first"),
    )
    .unwrap();
    let model = Model::from_weights(&weights).unwrap();
    let wp =
        WordPiece::from_vocab_txt(&std::fs::read_to_string(model_dir.join("vocab.txt")).unwrap())
            .unwrap();
    let requests: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("web/samples/routing/requests.json")).unwrap(),
    )
    .unwrap();
    let queries: Vec<String> = requests
        .as_array()
        .unwrap()
        .iter()
        .take(24)
        .map(|r| r["query"].as_str().unwrap().to_owned())
        .collect();
    let skills: Vec<String> = std::fs::read_dir(root.join("web/samples/routing"))
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("SKILL.md")).ok())
        .map(|md| {
            let name = md
                .lines()
                .find_map(|l| l.strip_prefix("name: "))
                .unwrap_or("")
                .to_owned();
            let desc = md
                .lines()
                .find_map(|l| l.strip_prefix("description: "))
                .unwrap_or("")
                .to_owned();
            format!("{name}: {desc}")
        })
        .collect();
    assert_eq!(skills.len(), 6);
    let ids: Vec<Vec<u32>> = skills
        .iter()
        .chain(&queries)
        .map(|t| wp.encode(t))
        .collect();
    let mean_len = ids.iter().map(Vec::len).sum::<usize>() as f64 / ids.len() as f64;

    let t = Instant::now();
    let gpu = pollster::block_on(Gpu::new()).expect("a wgpu adapter");
    let device_ms = t.elapsed().as_secs_f64() * 1e3;
    let adapter = gpu.adapter.clone();
    let t = Instant::now();
    let gm = pollster::block_on(GpuModel::new(gpu, &model, true)).expect("upload");
    let _ = pollster::block_on(gm.forward(&ids[0])).unwrap();
    let load_ms = t.elapsed().as_secs_f64() * 1e3;

    let mut per_request = Vec::new();
    for q in ids.iter().skip(6) {
        let t = Instant::now();
        let _ = pollster::block_on(gm.forward(q)).unwrap();
        per_request.push(t.elapsed().as_secs_f64() * 1e3);
    }
    // The whole set in one packed batch: one encoder, one read-back.
    let _ = pollster::block_on(gm.forward_batch(&ids)).unwrap();
    let mut set_runs = Vec::new();
    let mut per_batch = skillpg_gpu::Counts::default();
    for _ in 0..5 {
        let before = gm.gpu.counts();
        let t = Instant::now();
        let vecs = pollster::block_on(gm.forward_batch(&ids)).unwrap();
        let _scores = skillpg_routing::decide::score_matrix(&vecs[6..], &vecs[..6]);
        set_runs.push(t.elapsed().as_secs_f64() * 1e3);
        per_batch = gm.gpu.counts() - before;
    }
    let set_ms = median(set_runs);
    let (kernels, timing) = gm.profile(&ids).expect("profile the batch");
    let table = skillpg_gpu::profile::table(
        "Per kernel: 6 skills + 24 requests in one batch",
        &kernels,
        timing,
        skillpg_gpu::profile::known_peak(&adapter.name),
    );

    let mut cpu_req = Vec::new();
    for q in ids.iter().skip(6).take(8) {
        let t = Instant::now();
        let _ = model.forward(q);
        cpu_req.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let t = Instant::now();
    let cvecs: Vec<Vec<f32>> = ids.iter().map(|i| model.forward(i)).collect();
    let _ = skillpg_routing::decide::score_matrix(&cvecs[6..], &cvecs[..6]);
    let cpu_set_ms = t.elapsed().as_secs_f64() * 1e3;

    // The fast CPU path: one request at a time, then the whole set in one batch.
    let fast = skillpg_embedder::fast::FastEmbedder::new(wp.clone(), model.clone());
    let mut fast_req = Vec::new();
    for q in ids.iter().skip(6) {
        let t = Instant::now();
        let _ = fast.forward_batch(std::slice::from_ref(q));
        fast_req.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let t = Instant::now();
    let fvecs = fast.forward_batch(&ids);
    let _ = skillpg_routing::decide::score_matrix(&fvecs[6..], &fvecs[..6]);
    let fast_set_ms = t.elapsed().as_secs_f64() * 1e3;

    // One request of L tokens: per layer, Q, K, V and the output projection (4 · 2·L·384²), the
    // feed-forward (2 · 2·L·384·1536) and attention (2 · 2·L²·384); six layers.
    let l = mean_len;
    let flops = 6.0
        * (4.0 * 2.0 * l * 384.0 * 384.0
            + 2.0 * 2.0 * l * 384.0 * 1536.0
            + 2.0 * 2.0 * l * l * 384.0);
    let weight_bytes: f64 = 6.0 * (4.0 * 384.0 * 384.0 + 2.0 * 384.0 * 1536.0) * 4.0;
    // A typical laptop GPU: about 100 GB/s and 4 TFLOP/s f32.
    let floor_ms = (weight_bytes / 100e9).max(flops / 4e12) * 1e3;

    println!("| measure | value |");
    println!("|---|---|");
    println!(
        "| adapter | {} ({}, {:?}, shader-f16 {}; weights stored in {}) |",
        adapter.name,
        adapter.backend,
        adapter.device_type,
        adapter.shader_f16,
        if gm.f16 { "f16" } else { "f32" }
    );
    println!("| device creation | {device_ms:.1} ms |");
    println!(
        "| model load (upload {} weights) and first request | {load_ms:.1} ms |",
        if gm.f16 { "f16" } else { "f32" }
    );
    println!(
        "| one request, median of 24 (mean {mean_len:.1} tokens) | {:.2} ms (issue 30's goal on an H200: ≤ 1 ms) |",
        median(per_request)
    );
    println!(
        "| 6 skills + 24 requests embedded in one batch, 24 × 6 scores, median of 5 | {set_ms:.1} ms (issue 30's goal on an H200: ≤ 3 ms) |"
    );
    println!(
        "| a batch of a size seen before asks the device for | {} buffers, {} bind groups, {} submit, {} compute pass, {} dispatches, {} bytes read back |",
        per_batch.buffers,
        per_batch.bind_groups,
        per_batch.submits,
        per_batch.passes,
        per_batch.dispatches,
        per_batch.read_bytes
    );
    println!(
        "| CPU reference: one request, median of 8 | {:.2} ms |",
        median(cpu_req)
    );
    println!("| CPU reference: the same set | {cpu_set_ms:.1} ms |");
    println!(
        "| fast CPU path (batched, SIMD): one request, median of 24 | {:.2} ms |",
        median(fast_req)
    );
    println!("| fast CPU path: the same set in one batch | {fast_set_ms:.1} ms |");
    println!("| FLOPs of one request | {:.0} M |", flops / 1e6);
    println!(
        "| weight bytes read per request (f32; f16 halves it) | {:.1} MB |",
        weight_bytes / 1e6
    );
    println!(
        "| floor on a laptop GPU (100 GB/s, 4 TFLOP/s) | {floor_ms:.2} ms per request, memory-bound |"
    );
    println!();
    println!("{table}");
}
