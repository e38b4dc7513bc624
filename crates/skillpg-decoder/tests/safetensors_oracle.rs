//! Hugging Face checkpoints (`config.json`, `model.safetensors`, `tokenizer.json`) of a tiny
//! Llama and a tiny Qwen2, written by `oracle/make_tiny.py`, against three others:
//! - the same weights as a GGUF (Q and K permuted for a `llama` GGUF as llama.cpp converts
//!   them): the two readers give the same logits, so the rotary layouts agree;
//! - candle's (non-quantized) Llama and Qwen2 loaded from the same safetensors;
//! - the tokenizer read from `tokenizer.json` against Hugging Face `tokenizers` on the same file,
//!   and against the GGUF's tokenizer.

#![allow(clippy::print_stdout, reason = "the test reports what it compared")]

use itertools::Itertools;
#[path = "oracle/tiny.rs"]
mod tiny;

use std::path::Path;
use std::process::Command;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::gguf::Gguf;
use skillpg_decoder::model::{Decoder, Logits};

fn worst(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "logit counts differ");
    a.iter()
        .zip_eq(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

const TEXTS: [&str; 4] = [
    "<|im_start|>user\nWill this CREATE INDEX lock writes?<|im_end|>\n<|im_start|>assistant\n",
    "Hello, world 2024! don't WE'VE  spaces\n\n\tand tabs",
    "Café naïve Ångström — 日本語 😀",
    "the other there in on re",
];

#[test]
#[ignore = "slow tier, needs python3 with gguf and numpy, the oracle: scripts/test runs it"]
fn safetensors_checkpoints_agree_with_their_gguf_candle_and_tokenizers() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tiny-hf");
    tiny::write_tiny_models(&dir);
    for arch in ["llama", "qwen2"] {
        let folder = dir.join(format!("tiny-hf-{arch}"));
        let st = std::fs::read(folder.join("model.safetensors")).expect("safetensors");
        let config = std::fs::read_to_string(folder.join("config.json")).expect("config");
        let tokenizer_json =
            std::fs::read_to_string(folder.join("tokenizer.json")).expect("tokenizer");
        let gguf = std::fs::read(dir.join(format!("tiny-hf-{arch}.gguf"))).expect("gguf");

        // The tokenizer: tokenizer.json, the GGUF's, and Hugging Face's on the same file.
        let from_json =
            Bpe::from_tokenizer_json(&tokenizer_json).unwrap_or_else(|e| panic!("{arch}: {e}"));
        let from_gguf = Bpe::from_gguf(&Gguf::parse(&gguf).expect("gguf")).expect("tokenizer");
        let hf = Command::new("python3")
            .arg("-c")
            .arg("import json,sys\nfrom tokenizers import Tokenizer\nt=Tokenizer.from_file(sys.argv[1])\nprint(json.dumps([t.encode(x, add_special_tokens=False).ids for x in json.loads(sys.argv[2])]))")
            .arg(folder.join("tokenizer.json"))
            .arg(serde_json::to_string(&TEXTS).expect("json"))
            .output()
            .expect("python3");
        assert!(
            hf.status.success(),
            "{}",
            String::from_utf8_lossy(&hf.stderr)
        );
        let hf_ids: Vec<Vec<u32>> = serde_json::from_slice(&hf.stdout).expect("ids");
        for (text, want) in TEXTS.iter().zip_eq(&hf_ids) {
            assert_eq!(
                &from_json.encode(text),
                want,
                "{arch}: tokenizer.json against Hugging Face on {text:?}"
            );
            assert_eq!(
                from_gguf.encode(text),
                *want,
                "{arch}: the GGUF's tokenizer on {text:?}"
            );
        }

        // The forward pass: safetensors against the GGUF of the same weights.
        let a = Decoder::from_safetensors(st.clone(), &config)
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let b = Decoder::from_gguf(gguf).expect("gguf model");
        let ids = from_json.encode(TEXTS[0]);
        let vocab = a.config.vocab;
        let la = a.forward(&mut a.cache(), &ids, Logits::All);
        let lb = b.forward(&mut b.cache(), &ids, Logits::All);
        let spread = la.iter().copied().fold(f32::NEG_INFINITY, f32::max)
            - la.iter().copied().fold(f32::INFINITY, f32::min);
        let d = worst(&la, &lb);
        println!(
            "{arch}: safetensors against the GGUF of the same weights: worst |Δ| {d:.2e} over {} positions (spread {spread:.2})",
            ids.len()
        );
        assert!(
            d <= 1e-4 * spread.max(1.0),
            "{arch}: the readers disagree by {d}"
        );

        // candle's model from the same safetensors.
        let vb = VarBuilder::from_buffered_safetensors(st, DType::F32, &Device::Cpu)
            .expect("candle reads the safetensors");
        let input = Tensor::new(ids.as_slice(), &Device::Cpu)
            .and_then(|t| t.unsqueeze(0))
            .expect("input");
        let theirs: Vec<f32> = match arch {
            "llama" => {
                use candle_transformers::models::llama;
                let cfg: llama::LlamaConfig = serde_json::from_str(&config).expect("llama config");
                let cfg = cfg.into_config(false);
                let mut cache =
                    llama::Cache::new(true, DType::F32, &cfg, &Device::Cpu).expect("cache");
                let model = llama::Llama::load(vb, &cfg).expect("candle llama");
                model
                    .forward(&input, 0, &mut cache)
                    .and_then(|t| t.flatten_all())
                    .and_then(|t| t.to_vec1())
                    .expect("forward")
            }
            _ => {
                use candle_transformers::models::qwen2;
                let cfg: qwen2::Config = serde_json::from_str(&config).expect("qwen2 config");
                let mut model = qwen2::ModelForCausalLM::new(&cfg, vb).expect("candle qwen2");
                model
                    .forward(&input, 0)
                    .and_then(|t| t.flatten_all())
                    .and_then(|t| t.to_vec1())
                    .expect("forward")
            }
        };
        // A system prompt past what the model reads is refused with the numbers.
        let short = config.replace(
            "\"max_position_embeddings\": 4096",
            "\"max_position_embeddings\": 300",
        );
        assert_ne!(short, config, "the config states its context");
        let small = Decoder::from_safetensors(
            std::fs::read(folder.join("model.safetensors")).expect("safetensors"),
            &short,
        )
        .expect("model");
        let skills: Vec<skillpg_routing::skills::RouteSkill> = (0..8)
            .map(|i| skillpg_routing::skills::RouteSkill {
                name: format!("skill-{i}"),
                description: "Does a thing when someone asks for that thing.".to_owned(),
            })
            .collect();
        let mut cpu = skillpg_decoder::forward::CpuForward::new(&small);
        let system = skillpg_routing::prompt::system_prompt(&skills);
        let prefix = skillpg_routing::prompt::prompt_prefix(&system);
        let e = skillpg_decoder::forward::now(skillpg_decoder::chat::ChatRouter::new(
            &mut cpu,
            &from_json,
            &prefix,
            &["NONE"],
            true,
        ))
        .expect("cpu")
        .expect_err("refused");
        assert!(
            matches!(e, skillpg_decoder::DecoderError::Prompt(_)),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(
            e.contains("reads 300 at most") && e.contains("route fewer skills"),
            "{e}"
        );

        let last = &la[(ids.len() - 1) * vocab..];
        let d = worst(last, &theirs);
        println!("{arch}: against candle's {arch} on the same safetensors: worst |Δ| {d:.2e}");
        assert!(
            d <= 1e-4 * spread.max(1.0),
            "{arch}: candle disagrees by {d}"
        );
    }
}

#[test]
fn a_tokenizer_json_that_is_not_byte_level_bpe_is_named() {
    let e = Bpe::from_tokenizer_json(r#"{"model":{"type":"WordPiece","vocab":{}}}"#)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("WordPiece") || e.contains("byte-level BPE"),
        "{e}"
    );
    let e = Bpe::from_tokenizer_json("{not json")
        .expect_err("refused")
        .to_string();
    assert!(e.contains("not JSON"), "{e}");
    let e = Decoder::from_safetensors(vec![1, 2, 3], r#"{"architectures":["GPT2LMHeadModel"]}"#)
        .expect_err("refused")
        .to_string();
    assert!(e.contains("GPT2LMHeadModel"), "{e}");
    let e = Decoder::from_safetensors(
        vec![1, 2, 3],
        r#"{"architectures":["Qwen2ForCausalLM"],"hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":96}"#,
    )
    .expect_err("refused")
        .to_string();
    assert!(e.contains("model.safetensors cannot be read"), "{e}");
}
