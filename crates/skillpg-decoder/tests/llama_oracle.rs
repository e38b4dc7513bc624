//! The Llama forward pass against candle's (`candle-transformers`' quantized Llama, an
//! independent implementation) on SmolLM2-135M-Instruct's GGUF: for ChatML prompts, the same
//! next token, and logits that agree (candle multiplies quantized weights by activations it
//! quantizes to 8 bits; ours runs in f32 on the dequantized weights, so they differ slightly).

#![allow(clippy::print_stdout, reason = "the test reports what it compared")]

use itertools::Itertools;
use std::path::Path;

use candle_core::quantized::gguf_file;
use candle_core::{Device, Tensor};
use candle_transformers::models::quantized_llama::ModelWeights;
use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::gguf::Gguf;
use skillpg_decoder::llama::Llama;

fn argmax(v: &[f32]) -> usize {
    v.iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i)
}

#[test]
#[ignore = "slow tier, needs SmolLM2 from scripts/fetch-decoder-model: scripts/test runs it"]
fn next_token_and_logits_agree_with_candle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = root.join("target/model/SmolLM2-135M-Instruct.Q4_1.gguf");
    assert!(
        file.exists(),
        "the decoder model is absent: run `bash scripts/fetch-decoder-model` (scripts/test does)"
    );
    let bytes = std::fs::read(&file).expect("model");
    let g = Gguf::parse(&bytes).expect("gguf");
    let bpe = Bpe::from_gguf(&g).expect("tokenizer");
    let ours = Llama::from_gguf(&g).expect("model");

    let mut reader = std::io::Cursor::new(&bytes);
    let content = gguf_file::Content::read(&mut reader).expect("candle reads the file");
    let mut theirs = ModelWeights::from_gguf(content, &mut reader, &Device::Cpu)
        .expect("candle loads the model");

    let prompts = [
        "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n",
        "<|im_start|>system\nAnswer with one skill name or NONE.\n- sql-review: Review SQL migrations before they run.\n- release-notes: Write release notes.<|im_end|>\n<|im_start|>user\nWill this CREATE INDEX lock writes?<|im_end|>\n<|im_start|>assistant\n",
    ];
    for prompt in prompts {
        let ids = bpe.encode(prompt);
        let a = ours.last_logits(&ids);
        let input = Tensor::new(ids.as_slice(), &Device::Cpu)
            .and_then(|t| t.unsqueeze(0))
            .expect("input");
        let b: Vec<f32> = theirs
            .forward(&input, 0)
            .and_then(|t| t.squeeze(0))
            .and_then(|t| t.to_vec1())
            .expect("candle forward");
        assert_eq!(a.len(), b.len(), "vocabulary");
        let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
        let (ma, mb) = (mean(&a), mean(&b));
        let dot: f32 = a.iter().zip_eq(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
        let norm = |v: &[f32], m: f32| v.iter().map(|x| (x - m) * (x - m)).sum::<f32>().sqrt();
        let corr = dot / (norm(&a, ma) * norm(&b, mb));
        let worst = a
            .iter()
            .zip_eq(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0f32, f32::max);
        let (ta, tb) = (argmax(&a), argmax(&b));
        println!(
            "{} tokens: next token ours {ta} ({:?}), candle {tb}; correlation of logits {corr:.6}, worst |Δ| {worst:.3}",
            ids.len(),
            bpe.token(ta as u32)
        );
        assert_eq!(ta, tb, "the next token differs from candle's");
        assert!(corr >= 0.999, "logits correlate at {corr}");
    }
}
