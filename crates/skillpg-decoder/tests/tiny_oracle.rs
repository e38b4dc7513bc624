//! The decoder's forward pass against candle's (`candle-transformers`' quantized Llama and
//! Qwen2, an independent implementation) on synthetic tiny models that `oracle/make_tiny.py`
//! writes with the `gguf` Python package: both families, six shapes (grouped and plain
//! attention, tied and separate heads), six storage types (and the page test's chat model). For each: the last position's
//! logits of a prompt at once, then of the same prompt fed in two parts through the key/value
//! cache, on both sides.
//!
//! Each model is compared twice: with candle on the file as it is (on quantized weights candle
//! quantizes the activations to 8 bits for the product while ours stay f32, so the tolerance is
//! wide there and the argmax must agree), and with candle on the same weights dequantized to f32
//! (both sides then compute in f32 from the same values: the tolerance is rounding's).

#![allow(clippy::print_stdout, reason = "the test reports what it compared")]

use itertools::Itertools;
use std::path::Path;

use candle_core::quantized::gguf_file;
use candle_core::{Device, Tensor};
use skillpg_decoder::model::{Arithmetic, Decoder, Logits};

mod common;
#[path = "oracle/tiny.rs"]
mod tiny;

enum Theirs {
    Llama(candle_transformers::models::quantized_llama::ModelWeights),
    Qwen2(candle_transformers::models::quantized_qwen2::ModelWeights),
}

impl Theirs {
    fn load(bytes: &[u8], arch: &str) -> Theirs {
        let mut reader = std::io::Cursor::new(bytes);
        let content = gguf_file::Content::read(&mut reader).expect("candle reads the file");
        match arch {
            "llama" => Theirs::Llama(
                candle_transformers::models::quantized_llama::ModelWeights::from_gguf(
                    content,
                    &mut reader,
                    &Device::Cpu,
                )
                .expect("candle loads llama"),
            ),
            _ => Theirs::Qwen2(
                candle_transformers::models::quantized_qwen2::ModelWeights::from_gguf(
                    content,
                    &mut reader,
                    &Device::Cpu,
                )
                .expect("candle loads qwen2"),
            ),
        }
    }

    fn last_logits(&mut self, ids: &[u32], at: usize) -> Vec<f32> {
        let input = Tensor::new(ids, &Device::Cpu)
            .and_then(|t| t.unsqueeze(0))
            .expect("input");
        let out = match self {
            Theirs::Llama(m) => m.forward(&input, at),
            Theirs::Qwen2(m) => m.forward(&input, at),
        };
        out.and_then(|t| t.flatten_all())
            .and_then(|t| t.to_vec1())
            .expect("candle forward")
    }
}

fn argmax(v: &[f32]) -> usize {
    v.iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i)
}

fn worst(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "logit counts differ");
    a.iter()
        .zip_eq(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
#[ignore = "slow tier, needs python3 with gguf and numpy, the oracle: scripts/test runs it"]
fn tiny_models_agree_with_candle() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tiny-decoders");
    let written = tiny::write_tiny_models(&dir);
    let models = written.as_array().expect("list");
    assert_eq!(
        models.len(),
        9,
        "six tiny models, the tokenizer's one, and it quantized twice"
    );
    for m in models {
        let (path, arch, ty) = (
            m["path"].as_str().expect("path"),
            m["arch"].as_str().expect("arch"),
            m["type"].as_str().expect("type"),
        );
        let vocab = m["vocab"].as_u64().expect("vocab") as usize;
        let bytes = std::fs::read(path).expect("tiny model");
        let ours = Decoder::from_gguf(bytes.clone())
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .with_arithmetic(Arithmetic::F32);
        assert_eq!(ours.config.vocab, vocab);
        let mut theirs = Theirs::load(&bytes, arch);
        let ids: Vec<u32> = (0..11).map(|i| ((i * 37 + 5) % vocab) as u32).collect();

        // The whole prompt at once: every position's logits, the last compared with candle's.
        let mut cache = ours.cache();
        let all = ours.forward(&mut cache, &ids, Logits::All);
        assert_eq!(all.len(), ids.len() * vocab);
        assert_eq!(cache.len(), ids.len());
        let a = &all[(ids.len() - 1) * vocab..];
        let b = theirs.last_logits(&ids, 0);
        let spread = b.iter().copied().fold(f32::NEG_INFINITY, f32::max)
            - b.iter().copied().fold(f32::INFINITY, f32::min);
        let quantized = !matches!(ty, "F32" | "F16");
        let tolerance = if quantized {
            0.05 * spread
        } else {
            1e-4 * spread.max(1.0)
        };
        let d = worst(a, &b);
        println!(
            "{path}: logits spread {spread:.3}, worst |Δ| against candle {d:.2e} (tolerance {tolerance:.2e})"
        );
        assert!(d <= tolerance, "{path}: worst |Δ| {d} over {tolerance}");
        assert_eq!(
            argmax(a),
            argmax(&b),
            "{path}: the next token differs from candle's"
        );

        // The integer products (the default): near the f32 arithmetic, the same next token, and
        // the same bits whether the prompt runs at once or through the cache (a token's product
        // reads the blocks as stored, a prompt's unpacks them: one definition).
        let int = Decoder::from_gguf(bytes.clone()).expect("model");
        assert_eq!(int.arithmetic().0, Arithmetic::Integer);
        let all_int = int.forward(&mut int.cache(), &ids, Logits::All);
        let a_int = &all_int[(ids.len() - 1) * vocab..];
        println!(
            "{path}: integer products against f32, worst |Δ| {:.2e}",
            worst(a_int, a)
        );
        assert!(
            worst(a_int, a) <= 1e-3 * spread.max(1.0),
            "{path}: the integer products move the logits by {}",
            worst(a_int, a)
        );
        assert_eq!(
            argmax(a_int),
            argmax(a),
            "{path}: the integer products change the next token"
        );
        let mut cache = int.cache();
        for id in &ids[..ids.len() - 1] {
            int.forward(&mut cache, &[*id], Logits::None);
        }
        assert_eq!(
            int.forward(&mut cache, &ids[ids.len() - 1..], Logits::Last),
            a_int,
            "{path}: token by token, the integer products change"
        );

        // Through the cache in two parts, on both sides: the same as at once.
        let mut cache = ours.cache();
        let first = ours.forward(&mut cache, &ids[..6], Logits::Last);
        assert_eq!(first.len(), vocab);
        let rest = ours.forward(&mut cache, &ids[6..], Logits::Last);
        assert!(
            worst(&rest, a) <= 1e-4 * spread.max(1.0),
            "{path}: the cache changes the logits by {}",
            worst(&rest, a)
        );
        let mut theirs = Theirs::load(&bytes, arch);
        theirs.last_logits(&ids[..6], 0);
        let b2 = theirs.last_logits(&ids[6..], 6);
        assert!(
            worst(&rest, &b2) <= tolerance,
            "{path}: through the cache, worst |Δ| against candle {}",
            worst(&rest, &b2)
        );

        // candle on the same weights in f32: agreement to rounding.
        let mut exact = Theirs::load(&common::f32_gguf(&bytes), arch);
        let c = exact.last_logits(&ids, 0);
        let d = worst(a, &c);
        println!("{path}: worst |Δ| against candle on the weights in f32 {d:.2e}");
        assert!(
            d <= 1e-4 * spread.max(1.0),
            "{path}: worst |Δ| against candle in f32 {d}"
        );

        // A cache cut back to a prefix is the prefix's cache.
        cache.truncate(6);
        let again = ours.forward(&mut cache, &ids[6..], Logits::Last);
        assert_eq!(
            again, rest,
            "{path}: a truncated cache differs from the prefix's"
        );
    }
}
