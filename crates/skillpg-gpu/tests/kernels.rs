//! Every WGSL kernel against the CPU reference on random inputs, at several shapes (some not
//! multiples of the workgroup size), then the whole model on the sample routing set, on the
//! native wgpu adapter (Mesa's lavapipe on the test machine; `apt-get install
//! mesa-vulkan-drivers`). Tolerances are stated per kernel.

#![allow(
    clippy::print_stdout,
    reason = "the test prints the figures it measured, for the closing notes"
)]

use itertools::Itertools;
use skillpg_embedder::cpu;
use skillpg_gpu::{Gpu, GpuModel};

fn gpu() -> Gpu {
    pollster::block_on(Gpu::new())
        .unwrap_or_else(|e| panic!("{e}: the GPU tests need a wgpu adapter (on this machine, Mesa's lavapipe: apt-get install mesa-vulkan-drivers)"))
}

mod common;
use common::{max_abs, random};

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn linear_and_gelu_match_the_cpu() {
    let g = gpu();
    println!("adapter: {:?}", g.adapter);
    for (rows, n_in, n_out, gelu) in [
        (1, 3, 5, false),
        (7, 384, 384, false),
        (13, 384, 1536, true),
        (5, 1536, 384, false),
        (65, 70, 129, true),
    ] {
        let (x, w, b) = (
            random(rows * n_in, 1),
            random(n_out * n_in, 2),
            random(n_out, 3),
        );
        let mut want = cpu::linear(&x, rows, n_in, &w, &b, n_out);
        if gelu {
            cpu::gelu(&mut want);
        }
        let mut enc = g.encoder();
        let out = g.linear(
            &mut enc,
            &g.upload(&x),
            rows,
            n_in,
            &g.upload(&w),
            &g.upload(&b),
            n_out,
            gelu,
            false,
        );
        g.submit(enc);
        let got = pollster::block_on(g.read(&out)).expect("read");
        let err = max_abs(&got, &want);
        assert!(
            err <= 2e-4,
            "linear {rows}x{n_in}->{n_out} gelu={gelu}: max |Δ| {err}"
        );
        if g.has_f16() {
            // f16 weights against the CPU on the same rounded weights.
            let w16: Vec<f32> = w
                .iter()
                .map(|&v| {
                    skillpg_embedder::weights::f16_to_f32(skillpg_embedder::weights::f32_to_f16(v))
                })
                .collect();
            let mut want16 = cpu::linear(&x, rows, n_in, &w16, &b, n_out);
            if gelu {
                cpu::gelu(&mut want16);
            }
            let mut enc = g.encoder();
            let out = g.linear(
                &mut enc,
                &g.upload(&x),
                rows,
                n_in,
                &g.upload_f16(&w),
                &g.upload(&b),
                n_out,
                gelu,
                true,
            );
            g.submit(enc);
            let err = max_abs(&pollster::block_on(g.read(&out)).expect("read"), &want16);
            assert!(
                err <= 2e-4,
                "linear_f16 {rows}x{n_in}->{n_out}: max |Δ| {err}"
            );
        }
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn layer_norm_matches_the_cpu() {
    let g = gpu();
    for (rows, width, residual) in [(1, 384, false), (9, 384, true), (70, 33, true)] {
        let (x, r, gamma, beta) = (
            random(rows * width, 4),
            random(rows * width, 5),
            random(width, 6),
            random(width, 7),
        );
        let mut want: Vec<f32> = if residual {
            x.iter().zip_eq(&r).map(|(a, b)| a + b).collect()
        } else {
            x.clone()
        };
        cpu::layer_norm(&mut want, width, &gamma, &beta, 1e-12);
        let mut gb = gamma.clone();
        gb.extend_from_slice(&beta);
        let (xb, rb) = (g.upload(&x), g.upload(&r));
        let mut enc = g.encoder();
        let out = g.layer_norm(
            &mut enc,
            &xb,
            residual.then_some(&rb),
            rows,
            width,
            &g.upload(&gb),
            1e-12,
        );
        g.submit(enc);
        let err = max_abs(&pollster::block_on(g.read(&out)).expect("read"), &want);
        assert!(err <= 1e-4, "layer_norm {rows}x{width}: max |Δ| {err}");
    }
}

/// Packed sequences: each sequence's rows attend only to each other, as `cpu::attention` on
/// that sequence alone.
#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn attention_matches_the_cpu() {
    let g = gpu();
    for (seqs, heads, head_dim) in [
        (vec![1], 1, 4),
        (vec![5], 12, 32),
        (vec![67, 3, 1, 20], 12, 32),
        (vec![256], 2, 8),
    ] {
        let width = heads * head_dim;
        let rows: usize = seqs.iter().sum();
        let (q, k, v) = (
            random(rows * width, 8),
            random(rows * width, 9),
            random(rows * width, 10),
        );
        let mut qkv = Vec::with_capacity(rows * 3 * width);
        for r in 0..rows {
            for m in [&q, &k, &v] {
                qkv.extend_from_slice(&m[r * width..(r + 1) * width]);
            }
        }
        let mut want = Vec::new();
        let mut row_spans = Vec::new();
        let mut start = 0;
        for &len in &seqs {
            let part = |m: &Vec<f32>| m[start * width..(start + len) * width].to_vec();
            want.extend(cpu::attention(
                &part(&q),
                &part(&k),
                &part(&v),
                len,
                heads,
                head_dim,
            ));
            row_spans.extend(std::iter::repeat_n((start, len), len));
            start += len;
        }
        let mut enc = g.encoder();
        let out = g.attention(
            &mut enc,
            &g.upload(&qkv),
            &g.upload_spans(&row_spans),
            rows,
            heads,
            head_dim,
        );
        g.submit(enc);
        let err = max_abs(&pollster::block_on(g.read(&out)).expect("read"), &want);
        assert!(
            err <= 1e-5,
            "attention seqs {seqs:?} heads {heads}: max |Δ| {err}"
        );
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn mean_pool_matches_the_cpu() {
    let g = gpu();
    for (seqs, width) in [(vec![1], 384), (vec![37, 2, 9], 384), (vec![3], 5)] {
        let rows: usize = seqs.iter().sum();
        let x = random(rows * width, 11);
        let mut want = Vec::new();
        let mut spans = Vec::new();
        let mut start = 0;
        for &len in &seqs {
            want.extend(cpu::mean_pool_normalize(
                &x[start * width..(start + len) * width],
                len,
                width,
            ));
            spans.push((start, len));
            start += len;
        }
        let mut enc = g.encoder();
        let out = g.mean_pool(
            &mut enc,
            &g.upload(&x),
            &g.upload_spans(&spans),
            seqs.len(),
            width,
        );
        g.submit(enc);
        let err = max_abs(&pollster::block_on(g.read(&out)).expect("read"), &want);
        assert!(err <= 1e-5, "mean_pool {seqs:?}x{width}: max |Δ| {err}");
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn the_whole_model_matches_the_cpu_reference() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/model");
    assert!(
        root.join("minilm-f32.spgm").exists(),
        "the model is absent: run `bash scripts/fetch-model` (scripts/test does)"
    );
    let weights = skillpg_embedder::weights::Weights::from_spgm(
        &std::fs::read(root.join("minilm-f32.spgm")).expect("weights"),
    )
    .expect("spgm");
    let model = cpu::Model::from_weights(&weights).expect("model");
    let wp = skillpg_embedder::wordpiece::WordPiece::from_vocab_txt(
        &std::fs::read_to_string(root.join("vocab.txt")).expect("vocab"),
    )
    .expect("vocab");
    let requests: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../web/samples/routing/requests.json"),
        )
        .expect("requests"),
    )
    .expect("json");
    let texts: Vec<String> = requests
        .as_array()
        .expect("list")
        .iter()
        .take(8)
        .map(|r| r["query"].as_str().unwrap_or("").to_owned())
        .collect();
    let gm = pollster::block_on(GpuModel::new(gpu(), &model, false)).expect("upload");
    let mut worst = (0.0f32, 1.0f32);
    // One text at a time, then all of them (and an empty one) in one packed batch.
    let mut batch: Vec<Vec<u32>> = texts.iter().map(|t| wp.encode(t)).collect();
    batch.insert(3, Vec::new());
    let before = gm.gpu.dispatch_count();
    let batched = pollster::block_on(gm.forward_batch(&batch)).expect("batch");
    let per_batch = gm.gpu.dispatch_count() - before;
    assert_eq!(
        per_batch,
        2 + 7 * 6 + 1,
        "dispatches per batch: embed, LayerNorm, 7 a layer, pooling"
    );
    assert_eq!(batched[3], vec![0.0; 384], "an empty text embeds to zeros");
    for (ids, got_batched) in batch
        .iter()
        .zip_eq(&batched)
        .filter(|(ids, _)| !ids.is_empty())
    {
        let want = model.forward(ids);
        let got = pollster::block_on(gm.forward(ids)).expect("forward");
        for got in [&got, got_batched] {
            let err = max_abs(got, &want);
            let cos: f32 = got.iter().zip_eq(&want).map(|(a, b)| a * b).sum();
            assert!(
                err <= 1e-4 && cos >= 0.9999,
                "{ids:?}: max |Δ| {err}, cosine {cos}"
            );
            worst = (worst.0.max(err), worst.1.min(cos));
        }
    }
    println!(
        "whole model, GPU vs CPU on {} requests, one by one and in one batch ({per_batch} dispatches): worst max |Δ| {:e}, worst cosine {}",
        texts.len(),
        worst.0,
        worst.1
    );
    // A batch of a size seen before (the same bucket of rows) makes nothing: its buffers and
    // bind groups were planned by the first; one compute pass, one submit, the embeddings read.
    let again: Vec<Vec<u32>> = texts.iter().rev().map(|t| wp.encode(t)).collect();
    let before = gm.gpu.counts();
    let vectors = pollster::block_on(gm.forward_batch(&again)).expect("batch again");
    let d = gm.gpu.counts() - before;
    assert_eq!(
        (d.buffers, d.bind_groups, d.submits, d.passes),
        (0, 0, 1, 1),
        "a batch after the first of its size: {d:?}"
    );
    assert_eq!(
        d.read_bytes,
        (again.len() * 384 * 4) as u64,
        "the pooled embeddings, nothing else: {d:?}"
    );
    assert!(
        max_abs(&vectors[0], &batched[batch.len() - 1]) <= 1e-5,
        "the same text, the same embedding in another batch"
    );
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn the_whole_model_with_f16_weights_matches_the_cpu_on_the_f16_file() {
    let g = gpu();
    if !g.has_f16() {
        // Not silent: say why the f16 path is not exercised on this adapter.
        println!(
            "adapter {:?} has no shader-f16: the f16 path is not exercised here",
            g.adapter
        );
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/model");
    assert!(
        root.join("minilm-f16.spgm").exists(),
        "the model is absent: run `bash scripts/fetch-model`"
    );
    // The f16 file widened to f32 is exactly the weights the f16 kernels see.
    let weights = skillpg_embedder::weights::Weights::from_spgm(
        &std::fs::read(root.join("minilm-f16.spgm")).expect("weights"),
    )
    .expect("spgm");
    let model = cpu::Model::from_weights(&weights).expect("model");
    let wp = skillpg_embedder::wordpiece::WordPiece::from_vocab_txt(
        &std::fs::read_to_string(root.join("vocab.txt")).expect("vocab"),
    )
    .expect("vocab");
    let gm = pollster::block_on(GpuModel::new(g, &model, true)).expect("upload");
    assert!(gm.f16);
    for t in [
        "Will this CREATE INDEX lock writes?",
        "Write a haiku about autumn leaves.",
    ] {
        let ids = wp.encode(t);
        let (want, got) = (
            model.forward(&ids),
            pollster::block_on(gm.forward(&ids)).expect("forward"),
        );
        let err = max_abs(&got, &want);
        let cos: f32 = got.iter().zip_eq(&want).map(|(a, b)| a * b).sum();
        assert!(
            err <= 1e-4 && cos >= 0.9999,
            "{t:?}: f16 weights, max |Δ| {err}, cosine {cos}"
        );
    }
}
