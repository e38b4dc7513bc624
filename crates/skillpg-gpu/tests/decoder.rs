//! The decoder router's WGSL kernels against their CPU twins in `skillpg_decoder::model`, each
//! alone on random inputs (every storage type the page reads, matrices split in chunks as a
//! device with small bindings splits them), then the whole forward pass against
//! `Decoder::forward` on the synthetic tiny models that `skillpg-decoder/tests/oracle/make_tiny.py`
//! writes (both families, six storage types; `Decoder::forward` is itself held to candle), through
//! the key/value cache in parts and cut back to a prefix, and the chapter's protocol on the tiny
//! chat model: the same answers on both backends. Last, a real model, SmolLM2-135M-Instruct:
//! the GPU's logits are the CPU path's. On the native wgpu adapter (Mesa's lavapipe on
//! the test machine).

#![allow(clippy::print_stdout, reason = "the tests report what they compared")]

use itertools::Itertools;
use std::path::Path;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::chat::{ChatRouter, DEFAULT_MAX_ANSWER_TOKENS};
use skillpg_decoder::forward::{CpuForward, Forward, now};
use skillpg_decoder::gguf::Gguf;
use skillpg_decoder::model::{
    Arithmetic, Config, Decoder, Family, Logits, MatrixView, RopeLayout, attend, rms_norm_into,
};
use skillpg_decoder::quant::{GgmlType, dequantize_into};
use skillpg_gpu::Gpu;
use skillpg_gpu::decoder::{DecoderKernels, GpuDecoder, ProductInput, Storage, pack};
use skillpg_routing::prompt::{prompt_prefix, prompt_request, system_prompt};

fn kernels() -> DecoderKernels {
    let gpu = pollster::block_on(Gpu::new())
        .unwrap_or_else(|e| panic!("{e}: the GPU tests need a wgpu adapter (on this machine, Mesa's lavapipe: apt-get install mesa-vulkan-drivers)"));
    DecoderKernels::new(gpu)
}

mod common;
#[path = "../../skillpg-decoder/tests/oracle/tiny.rs"]
mod tiny;
use common::{max_abs as worst, random};

/// A matrix's bytes in `ty`: random bits, with every block's f16 scales set to small sane values
/// (random bits would make some of them infinite).
fn random_matrix(ty: GgmlType, rows: usize, cols: usize, seed: u64) -> Vec<u8> {
    let (per, block_bytes) = ty.block();
    let count = rows * cols / per;
    let noise = random(count * block_bytes, seed);
    let mut bytes: Vec<u8> = noise.iter().map(|v| ((v + 1.0) * 127.5) as u8).collect();
    match ty {
        GgmlType::F32 => {
            return random(rows * cols, seed)
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
        }
        GgmlType::F16 => {
            return random(rows * cols, seed)
                .iter()
                .flat_map(|v| half::f16::from_f32(*v).to_le_bytes())
                .collect();
        }
        GgmlType::Bf16 => {
            return random(rows * cols, seed)
                .iter()
                .flat_map(|v| half::bf16::from_f32(*v).to_le_bytes())
                .collect();
        }
        _ => {}
    }
    let scales: &[usize] = match ty {
        GgmlType::Q8_0 | GgmlType::Q4_0 | GgmlType::Q5_0 => &[0],
        GgmlType::Q4_1 | GgmlType::Q5_1 | GgmlType::Q4K => &[0, 2],
        GgmlType::Q6K => &[208],
        other => panic!("no scale layout for {other:?}"),
    };
    for (i, block) in bytes.chunks_exact_mut(block_bytes).enumerate() {
        for (j, &at) in scales.iter().enumerate() {
            let v = 0.002 + 0.001 * ((i + j) % 7) as f32;
            block[at..at + 2].copy_from_slice(&half::f16::from_f32(v).to_le_bytes());
        }
    }
    bytes
}

const TYPES: [GgmlType; 10] = [
    GgmlType::F32,
    GgmlType::F16,
    GgmlType::Bf16,
    GgmlType::Q8_0,
    GgmlType::Q4_0,
    GgmlType::Q4_1,
    GgmlType::Q5_0,
    GgmlType::Q5_1,
    GgmlType::Q4K,
    GgmlType::Q6K,
];

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn packed_rows_are_the_files_values() {
    for ty in TYPES {
        let (rows, cols) = (5, 512);
        let bytes = random_matrix(ty, rows, cols, 7);
        let packed = pack(&MatrixView {
            ty,
            rows,
            cols,
            bytes: &bytes,
        });
        let row_bytes = bytes.len() / rows;
        let mut want = vec![0.0f32; cols];
        for r in 0..rows {
            dequantize_into(ty, &bytes[r * row_bytes..(r + 1) * row_bytes], &mut want);
            let got = packed.row(r);
            let widened = matches!(packed.storage, Storage::F16) && ty != GgmlType::F16;
            // Stored as the file stores them: the same values (Q4_0 computes d·q - 8d instead of
            // d·(q - 8), a rounding apart); widened to f16: f16's rounding.
            let tolerance = if widened {
                want.iter().fold(0.0f32, |m, v| m.max(v.abs())) * 1e-3
            } else {
                1e-6
            };
            let d = worst(&got, &want);
            assert!(
                d <= tolerance,
                "{ty:?} row {r}: worst |Δ| {d} (tolerance {tolerance})"
            );
        }
        let expected = match ty {
            GgmlType::F32 => Storage::F32,
            GgmlType::Bf16 => Storage::Bf16,
            GgmlType::Q8_0 => Storage::Q8,
            GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q4K => Storage::Q4,
            _ => Storage::F16,
        };
        assert_eq!(packed.storage, expected, "{ty:?}");
    }
    // Halves cannot pair up in an odd row: kept in f32, the same values.
    for ty in [GgmlType::F16, GgmlType::Bf16] {
        let (rows, cols) = (3, 33);
        let bytes = random_matrix(ty, rows, cols, 9);
        let packed = pack(&MatrixView {
            ty,
            rows,
            cols,
            bytes: &bytes,
        });
        assert_eq!(packed.storage, Storage::F32, "{ty:?} with odd rows");
        let mut want = vec![0.0f32; cols];
        for r in 0..rows {
            dequantize_into(ty, &bytes[r * cols * 2..(r + 1) * cols * 2], &mut want);
            assert_eq!(packed.row(r), want, "{ty:?} row {r}");
        }
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn the_product_matches_the_cpu_for_every_storage_type_and_in_chunks() {
    let k = kernels();
    println!("adapter: {:?}", k.gpu.adapter);
    for ty in TYPES {
        // matvec up to eight tokens, tiled past them (a partial tile of tokens and of outputs).
        for (n, rows, cols) in [
            (1usize, 33usize, 64usize),
            (5, 70, 256),
            (8, 9, 32),
            (9, 65, 96),
            (19, 40, 96),
            (70, 130, 64),
        ] {
            if !cols.is_multiple_of(ty.block().0) {
                continue;
            }
            let bytes = random_matrix(ty, rows, cols, 3 + n as u64);
            let packed = pack(&MatrixView {
                ty,
                rows,
                cols,
                bytes: &bytes,
            });
            let x = random(n * cols, 11);
            let bias = random(rows, 12);
            let mut want = vec![0.0f32; n * rows];
            for r in 0..rows {
                let w = packed.row(r);
                for t in 0..n {
                    want[t * rows + r] = w
                        .iter()
                        .zip_eq(&x[t * cols..(t + 1) * cols])
                        .map(|(a, b)| a * b)
                        .sum::<f32>()
                        + bias[r];
                }
            }
            let got =
                pollster::block_on(k.run_matmul(&x, n, &packed, Some(&bias))).expect("matmul");
            let d = worst(&got, &want);
            assert!(
                d <= 2e-4 * (cols as f32).sqrt(),
                "{ty:?} {n}×{cols}→{rows}: worst |Δ| {d}"
            );
        }
    }
    // A device whose bindings hold 7 rows: the head-sized split, five chunks and a short one.
    let small = kernels();
    let rows_bytes = 7 * 256 / 32 * 10 * 4;
    let small = small.with_max_binding(rows_bytes as u64);
    let (n, rows, cols) = (3, 40, 256);
    let bytes = random_matrix(GgmlType::Q8_0, rows, cols, 5);
    let packed = pack(&MatrixView {
        ty: GgmlType::Q8_0,
        rows,
        cols,
        bytes: &bytes,
    });
    let x = random(n * cols, 9);
    let whole = pollster::block_on(k.run_matmul(&x, n, &packed, None)).expect("whole");
    let split = pollster::block_on(small.run_matmul(&x, n, &packed, None)).expect("split");
    assert_eq!(
        whole, split,
        "a matrix split in chunks gives the same product"
    );
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn fused_products_norm_their_input_gate_it_and_add_into_the_residual() {
    let k = kernels();
    for ty in [GgmlType::Q4_1, GgmlType::Q8_0, GgmlType::F16] {
        for (n, rows, cols) in [(1usize, 37usize, 96usize), (3, 64, 576), (8, 5, 64)] {
            let bytes = random_matrix(ty, rows, cols, 21 + n as u64);
            let packed = pack(&MatrixView {
                ty,
                rows,
                cols,
                bytes: &bytes,
            });
            let dot = |r: usize, x: &[f32]| {
                packed
                    .row(r)
                    .iter()
                    .zip_eq(x)
                    .map(|(a, b)| a * b)
                    .sum::<f32>()
            };
            // RMSNorm inside the product: the product of the normalized rows.
            let x = random(n * cols, 22);
            let gains = random(cols, 23);
            let mut want = vec![0.0f32; n * rows];
            for t in 0..n {
                let mut normed = vec![0.0; cols];
                rms_norm_into(&x[t * cols..(t + 1) * cols], &gains, 1e-5, &mut normed);
                for r in 0..rows {
                    want[t * rows + r] = dot(r, &normed);
                }
            }
            let got = pollster::block_on(k.run_product(
                &x,
                n,
                &packed,
                None,
                ProductInput::Norm {
                    gains: &gains,
                    eps: 1e-5,
                },
                false,
            ))
            .expect("norm product");
            assert!(
                worst(&got, &want) <= 2e-4 * (cols as f32).sqrt(),
                "{ty:?} norm {n}×{cols}→{rows}: {}",
                worst(&got, &want)
            );
            // The SwiGLU gate inside the product, added into the residual stream (ones).
            let gu: Vec<f32> = random(n * 2 * cols, 24).iter().map(|v| v * 4.0).collect();
            let mut want = vec![0.0f32; n * rows];
            for t in 0..n {
                let row = &gu[t * 2 * cols..(t + 1) * 2 * cols];
                let act: Vec<f32> = (0..cols)
                    .map(|i| row[i] / (1.0 + (-row[i]).exp()) * row[cols + i])
                    .collect();
                for r in 0..rows {
                    want[t * rows + r] = 1.0 + dot(r, &act);
                }
            }
            let got =
                pollster::block_on(k.run_product(&gu, n, &packed, None, ProductInput::Silu, true))
                    .expect("silu product");
            assert!(
                worst(&got, &want) <= 2e-4 * (cols as f32).sqrt(),
                "{ty:?} silu {n}×{cols}→{rows}: {}",
                worst(&got, &want)
            );
        }
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn the_greedy_token_and_log_probabilities_are_the_cpus() {
    let k = kernels();
    // The last of equals wins, as `Iterator::max_by` takes it; past the workgroup's 256.
    for (len, ties) in [
        (5usize, vec![1usize, 3]),
        (1000, vec![17, 600, 999]),
        (49_152, vec![0, 40_000]),
    ] {
        let mut logits = random(len, len as u64);
        for &t in &ties {
            logits[t] = 9.0;
        }
        let (id, value) = pollster::block_on(k.run_argmax(&logits)).expect("argmax");
        assert_eq!(
            (id, value),
            (skillpg_decoder::forward::argmax(&logits), 9.0),
            "{len} logits"
        );
    }
    let vocab = 3000;
    let logits: Vec<f32> = random(3 * vocab, 31).iter().map(|v| v * 12.0).collect();
    let wanted = [(0u32, 5u32), (2, 2999), (1, 0), (2, 7)];
    let got = pollster::block_on(k.run_log_probs(&logits, vocab, &wanted)).expect("log_probs");
    for (&(row, id), g) in wanted.iter().zip(&got) {
        let want = skillpg_decoder::forward::log_softmax_at(
            &logits[row as usize * vocab..(row as usize + 1) * vocab],
            id,
        );
        assert!(
            (g - want).abs() <= 1e-4,
            "row {row} id {id}: {g} against {want}"
        );
    }
}

fn config(heads: usize, kv_heads: usize, head_dim: usize, rope: RopeLayout) -> Config {
    Config {
        family: Family::Qwen2,
        dim: heads * head_dim,
        layers: 1,
        heads,
        kv_heads,
        head_dim,
        ff: 8,
        vocab: 8,
        eps: 1e-6,
        rope_base: 10_000.0,
        rope,
        context: 4096,
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn norm_rope_attention_and_gate_match_their_cpu_twins() {
    let k = kernels();
    // RMSNorm: widths below, at and past the workgroup's 64.
    for (rows, width) in [(1, 8), (3, 64), (7, 576), (2, 1000)] {
        let x = random(rows * width, 1);
        let gains = random(width, 2);
        let mut want = vec![0.0; x.len()];
        for r in 0..rows {
            rms_norm_into(
                &x[r * width..(r + 1) * width],
                &gains,
                1e-5,
                &mut want[r * width..(r + 1) * width],
            );
        }
        let got = pollster::block_on(k.run_rms_norm(&x, width, &gains, 1e-5)).expect("rms_norm");
        assert!(
            worst(&got, &want) <= 1e-5,
            "rms_norm {rows}×{width}: {}",
            worst(&got, &want)
        );
    }
    // Rotary embeddings, both pairings, far into a context, through a model's own `rope`.
    let tiny = tiny_models();
    for m in &tiny {
        let model = Decoder::from_gguf(std::fs::read(&m.0).expect("model")).expect("tiny model");
        let c = model.config;
        for (n, start) in [(1, 0), (6, 3), (3, 1900)] {
            let x = random(n * c.dim, 4);
            let mut want = x.clone();
            for t in 0..n {
                model.rope(&mut want[t * c.dim..(t + 1) * c.dim], start + t);
            }
            let got = pollster::block_on(k.run_rope(
                &x,
                n,
                c.heads,
                c.head_dim,
                c.rope,
                model.inv_freq(),
                start,
            ))
            .expect("rope");
            assert!(
                worst(&got, &want) <= 1e-6,
                "rope {:?} n={n} start={start}: {}",
                c.rope,
                worst(&got, &want)
            );
        }
    }
    // Attention: plain and grouped, a fresh prompt and queries after a cached prefix.
    // Past one chunk of 512 positions, and a head of 256 (four dimensions a thread).
    for (heads, kv_heads, head_dim, n, start) in [
        (4, 4, 16, 5, 0),
        (6, 2, 32, 3, 17),
        (8, 1, 64, 1, 200),
        (2, 2, 128, 9, 4),
        (9, 3, 64, 2, 1100),
        (2, 1, 256, 3, 5),
    ] {
        let c = config(heads, kv_heads, head_dim, RopeLayout::Halves);
        let kv_dim = kv_heads * head_dim;
        let q = random(n * c.dim, 5);
        let keys = random((start + n) * kv_dim, 6);
        let values = random((start + n) * kv_dim, 7);
        let mut want = vec![0.0; q.len()];
        attend(&c, &q, &keys, &values, start, &mut want, &mut Vec::new());
        let got =
            pollster::block_on(k.run_attention(&c, &q, &keys, &values, start)).expect("attention");
        assert!(
            worst(&got, &want) <= 2e-5,
            "attention {heads}/{kv_heads}×{head_dim} n={n} start={start}: {}",
            worst(&got, &want)
        );
    }
    // The SwiGLU gate.
    let (a, b) = (
        random(1000, 8).iter().map(|v| v * 8.0).collect::<Vec<_>>(),
        random(1000, 9),
    );
    let want: Vec<f32> = a
        .iter()
        .zip_eq(&b)
        .map(|(g, u)| g / (1.0 + (-g).exp()) * u)
        .collect();
    let got = pollster::block_on(k.run_silu_mul(&a, &b)).expect("silu_mul");
    assert!(
        worst(&got, &want) <= 1e-5,
        "silu_mul: {}",
        worst(&got, &want)
    );
}

/// The tiny models `make_tiny.py` writes: `(path, storage type)`.
fn tiny_models() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tiny-decoders-gpu");
    let written = tiny::write_tiny_models(&dir);
    written
        .as_array()
        .expect("list")
        .iter()
        .map(|m| {
            (
                m["path"].as_str().expect("path").to_owned(),
                m["type"].as_str().expect("type").to_owned(),
            )
        })
        .collect()
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn the_whole_forward_matches_the_cpu_path_on_tiny_models() {
    let tiny = tiny_models();
    assert_eq!(
        tiny.len(),
        9,
        "six tiny models, the chat model, and it quantized twice (Q4_1, Q8_0)"
    );
    for (path, ty) in &tiny {
        // The GPU computes in f32: its oracle is the CPU's f32 arithmetic.
        let model = Decoder::from_gguf(std::fs::read(path).expect("model"))
            .expect("tiny model")
            .with_arithmetic(Arithmetic::F32);
        let vocab = model.config.vocab;
        let ids: Vec<u32> = (0..11).map(|i| ((i * 37 + 5) % vocab) as u32).collect();
        let mut cpu = CpuForward::new(model.clone());
        let want = now(cpu.forward(&ids, Logits::All))
            .expect("cpu")
            .expect("cpu");
        // Split in chunks of 5 rows: every matrix is several bindings.
        let k = kernels().with_max_binding(5 * 4 * model.config.dim as u64);
        let mut gpu = pollster::block_on(GpuDecoder::new(k, model))
            .map_err(|(_, e)| e)
            .expect("upload");
        let got = pollster::block_on(gpu.forward(&ids, Logits::All)).expect("gpu forward");
        let spread = want.iter().copied().fold(f32::NEG_INFINITY, f32::max)
            - want.iter().copied().fold(f32::INFINITY, f32::min);
        // Q5_0 is widened to f16 on the device: f16's rounding on top of the arithmetic's.
        let tolerance = if ty == "Q5_0" {
            2e-3 * spread
        } else {
            2e-5 * spread.max(1.0)
        };
        let d = worst(&got, &want);
        println!(
            "{path} ({ty}, stored as {}): every position's logits, worst |Δ| {d:.2e} of a spread {spread:.2} (tolerance {tolerance:.2e})",
            gpu.storage
        );
        assert!(d <= tolerance, "{path}: worst |Δ| {d}");
        assert_eq!(gpu.cached(), ids.len());

        // Through the cache in two parts, then cut back to the prefix: the same logits.
        let last = &want[(ids.len() - 1) * vocab..];
        gpu.truncate(0);
        pollster::block_on(gpu.forward(&ids[..6], Logits::None)).expect("prefix");
        let rest = pollster::block_on(gpu.forward(&ids[6..], Logits::Last)).expect("rest");
        assert!(
            worst(&rest, last) <= tolerance,
            "{path}: through the cache, {}",
            worst(&rest, last)
        );
        gpu.truncate(6);
        let again = pollster::block_on(gpu.forward(&ids[6..], Logits::Last)).expect("again");
        assert_eq!(again, rest, "{path}: a cache cut back to its prefix");

        // The greedy token and log-probabilities, computed on the device, as the CPU reads them
        // from its logits (the token wherever the top two logits are further apart than the
        // tolerance).
        gpu.truncate(6);
        let token = pollster::block_on(gpu.forward_argmax(&ids[6..])).expect("argmax");
        let mut sorted = last.to_vec();
        sorted.sort_by(|a, b| b.total_cmp(a));
        if sorted[0] - sorted[1] > 2.0 * tolerance {
            assert_eq!(
                token,
                skillpg_decoder::forward::argmax(last),
                "{path}: the greedy token"
            );
        }
        let wanted = [(2usize, 1u32), (4, 3), (4, (vocab - 1) as u32)];
        gpu.truncate(6);
        let lp = pollster::block_on(gpu.forward_log_probs(&ids[6..], &wanted)).expect("log_probs");
        for (&(row, id), got) in wanted.iter().zip(&lp) {
            let at = (6 + row) * vocab;
            let want = skillpg_decoder::forward::log_softmax_at(&want[at..at + vocab], id);
            assert!(
                (got - want).abs() <= 1e-3_f32.max(4.0 * tolerance),
                "{path}: log-probability at row {row} of {id}: {got} against {want}"
            );
        }
        assert_eq!(
            gpu.cached(),
            ids.len(),
            "every token is cached, the wanted rows' and the rest"
        );
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn a_decoded_token_makes_nothing_submits_once_and_reads_back_eight_bytes() {
    let tiny = tiny_models();
    let (path, _) = tiny
        .iter()
        .find(|(p, _)| p.ends_with("tiny-chat-qwen2.gguf"))
        .expect("the chat model");
    let model = Decoder::from_gguf(std::fs::read(path).expect("model"))
        .expect("model")
        .with_arithmetic(Arithmetic::F32);
    let vocab = model.config.vocab as u32;
    let mut gpu = pollster::block_on(GpuDecoder::new(kernels(), model))
        .map_err(|(_, e)| e)
        .expect("upload");
    let counts = |gpu: &GpuDecoder| gpu.gpu().counts();
    // A prefill of 40 tokens (tiled), then greedy steps (matvec), then constrained choice.
    let prompt: Vec<u32> = (0..40).map(|i| (i * 13 + 1) % vocab).collect();
    let before = counts(&gpu);
    let mut next = pollster::block_on(gpu.forward_argmax(&prompt)).expect("prefill");
    let d = counts(&gpu) - before;
    assert_eq!(
        (d.buffers, d.bind_groups, d.submits, d.passes, d.read_bytes),
        (0, 0, 1, 1, 8),
        "a prefill after load: {d:?}"
    );
    for step in 0..3 {
        let before = counts(&gpu);
        next = pollster::block_on(gpu.forward_argmax(&[next])).expect("decode");
        let d = counts(&gpu) - before;
        println!("decoded token {step}: {d:?}");
        assert_eq!(
            (d.buffers, d.bind_groups),
            (0, 0),
            "a decoded token creates no buffer or bind group: {d:?}"
        );
        assert_eq!(
            (d.submits, d.passes),
            (1, 1),
            "one submit, one compute pass: {d:?}"
        );
        assert_eq!(
            d.read_bytes, 8,
            "the token and its logit, not the vocabulary: {d:?}"
        );
    }
    let before = counts(&gpu);
    let lp = pollster::block_on(gpu.forward_log_probs(&[1, 2, 3], &[(0, 5), (2, 6), (2, 7)]))
        .expect("log-probabilities");
    let d = counts(&gpu) - before;
    assert_eq!(lp.len(), 3);
    assert_eq!(
        (d.buffers, d.bind_groups, d.submits, d.read_bytes),
        (0, 0, 1, 12),
        "three log-probabilities, one pass: {d:?}"
    );
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn the_chapter_protocol_answers_the_same_on_both_backends() {
    let tiny = tiny_models();
    let (path, _) = tiny
        .iter()
        .find(|(p, _)| p.ends_with("tiny-chat-qwen2.gguf"))
        .expect("the chat model");
    let bytes = std::fs::read(path).expect("model");
    let bpe = Bpe::from_gguf(&Gguf::parse(&bytes).expect("gguf")).expect("tokenizer");
    let model = Decoder::from_gguf(bytes)
        .expect("model")
        .with_arithmetic(Arithmetic::F32);
    let skills: Vec<skillpg_routing::skills::RouteSkill> = [
        (
            "sql-review",
            "Reviews SQL queries for injection and slow joins.",
        ),
        (
            "release-notes",
            "Writes release notes from merged pull requests.",
        ),
        ("pdf-forms", "Fills PDF forms."),
    ]
    .iter()
    .map(|(n, d)| skillpg_routing::skills::RouteSkill {
        name: (*n).to_owned(),
        description: (*d).to_owned(),
    })
    .collect();
    let requests = [
        "Is this query safe?",
        "Draft the notes for v2.1",
        "What's the weather like?",
    ];
    let mut cpu = CpuForward::new(model.clone());
    let mut gpu = pollster::block_on(GpuDecoder::new(kernels(), model))
        .map_err(|(_, e)| e)
        .expect("upload");
    let prefix = prompt_prefix(&system_prompt(&skills));
    let candidates: Vec<&str> = skills
        .iter()
        .map(|s| s.name.as_str())
        .chain(["NONE"])
        .collect();
    let on_cpu = now(ChatRouter::new(&mut cpu, &bpe, &prefix, &candidates, true))
        .expect("cpu")
        .expect("router");
    let on_gpu = pollster::block_on(ChatRouter::new(&mut gpu, &bpe, &prefix, &candidates, true))
        .expect("router");
    for request in requests {
        let turn = prompt_request(request);
        let a = now(on_cpu.answer(&mut cpu, &bpe, &turn, DEFAULT_MAX_ANSWER_TOKENS, None))
            .expect("cpu")
            .expect("answer");
        let b = pollster::block_on(on_gpu.answer(
            &mut gpu,
            &bpe,
            &turn,
            DEFAULT_MAX_ANSWER_TOKENS,
            None,
        ))
        .expect("answer");
        println!("{request:?}: CPU {:?}, GPU {:?}", a.verbatim, b.verbatim);
        assert_eq!(a, b, "{request:?}");
        let a = now(on_cpu.choice(&mut cpu, &bpe, &turn))
            .expect("cpu")
            .expect("choice");
        let b = pollster::block_on(on_gpu.choice(&mut gpu, &bpe, &turn)).expect("choice");
        assert_eq!(a.best, b.best, "{request:?}");
        assert!(
            worst(&a.distribution, &b.distribution) <= 1e-4,
            "{request:?}: {:?} against {:?}",
            a.distribution,
            b.distribution
        );
        // The log-probabilities themselves (the distribution saturates on a random model).
        let d = worst(&a.log_probs, &b.log_probs);
        println!("{request:?}: log-probabilities, worst |Δ| {d:.2e}");
        assert!(
            d <= 1e-3,
            "{request:?}: log-probabilities {:?} against {:?}",
            a.log_probs,
            b.log_probs
        );
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe): scripts/test runs it"]
fn smollm2_on_the_gpu_gives_the_cpu_paths_logits() {
    // A real model: 30 layers, Q4_1 and Q8_0 blocks, a 49,152-row head. Twelve tokens of a
    // ChatML prompt (lavapipe takes about half a second a token here), then one decode step
    // through the device's cache.
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/model/SmolLM2-135M-Instruct.Q4_1.gguf");
    assert!(
        file.exists(),
        "the decoder model is absent: run `bash scripts/fetch-decoder-model` (scripts/test does)"
    );
    let bytes = std::fs::read(&file).expect("model");
    let bpe = Bpe::from_gguf(&Gguf::parse(&bytes).expect("gguf")).expect("tokenizer");
    let model = Decoder::from_gguf(bytes)
        .expect("model")
        .with_arithmetic(Arithmetic::F32);
    let ids = bpe.encode("<|im_start|>user\nIs this ALTER TABLE safe?<|im_end|>");
    assert!(ids.len() >= 10, "{ids:?}");
    let mut cpu = CpuForward::new(model.clone());
    let mut gpu = pollster::block_on(GpuDecoder::new(kernels(), model))
        .map_err(|(_, e)| e)
        .expect("upload");
    assert_eq!(
        gpu.storage, "Q4/Q8",
        "SmolLM2's Q8_0 embeddings and Q4_1 layers stay blocks"
    );
    for step in [&ids[..], &[ids[0]][..]] {
        let want = now(cpu.forward(step, Logits::Last))
            .expect("cpu")
            .expect("cpu");
        let got = pollster::block_on(gpu.forward(step, Logits::Last)).expect("gpu");
        let spread = want.iter().copied().fold(f32::NEG_INFINITY, f32::max)
            - want.iter().copied().fold(f32::INFINITY, f32::min);
        let d = worst(&got, &want);
        let argmax = |v: &[f32]| {
            v.iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map(|(i, _)| i)
        };
        println!(
            "SmolLM2, {} tokens after {}: worst |Δ| {d:.2e} of a spread {spread:.1}",
            step.len(),
            gpu.cached() - step.len()
        );
        assert!(d <= 1e-4 * spread, "worst |Δ| {d} of a spread {spread}");
        assert_eq!(argmax(&got), argmax(&want), "the next token");
    }
}
