//! `skillpg route --model FILE.gguf` and `skillpg compare --model FILE.gguf`: the chapter's
//! protocol on a small instruction model (Llama or Qwen2 family, GGUF), natively on the CPU.

use std::path::Path;

use clap::ValueEnum;
use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::forward::{CpuForward, now};
use skillpg_decoder::load::Loaded;
use skillpg_decoder::model::Decoder;
use skillpg_decoder::protocol::{DEFAULT_MAX_ANSWER_TOKENS, DecoderRouter, NONE};
use skillpg_router::route::Labelled;

use crate::route_cmd::{Arm, RouteSkill};

/// How the decoder answers.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Mode {
    /// The chapter's protocol: greedy decoding, the answer parsed (a name, NONE, or anything
    /// else counted as NONE and shown verbatim).
    Chapter,
    /// Constrained choice: each name's and NONE's log-probability after the same prompt.
    Choice,
}

impl Mode {
    /// The mode in words, for the report's first line.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Chapter => "the chapter's protocol (greedy answer)",
            Mode::Choice => "constrained choice",
        }
    }
}

/// A decoder and its tokenizer, and a line naming them.
pub struct LoadedDecoder {
    pub model: Decoder,
    pub bpe: Bpe,
    pub label: String,
}

/// Whether `--model` names a decoder (a GGUF file, or a Hugging Face checkpoint's folder with
/// `config.json` and `model.safetensors`) rather than the embedding model's folder.
pub fn is_decoder(model: &Path) -> bool {
    model.is_file() || (model.join("config.json").is_file() && model.join("model.safetensors").is_file())
}

/// Reads a decoder (GGUF, or a checkpoint's folder), or says what is wrong with it.
pub fn load(path: &Path) -> Result<LoadedDecoder, String> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let file_name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let (loaded, name) = if path.is_dir() {
        // A Hugging Face checkpoint's folder, named after the folder.
        let text = |name: &str| read(&path.join(name)).and_then(|b| String::from_utf8(b).map_err(|_| format!("{name} is not UTF-8")));
        let (config, tokenizer) = (text("config.json")?, text("tokenizer.json")?);
        (Loaded::from_checkpoint(read(&path.join("model.safetensors"))?, &config, &tokenizer), file_name)
    } else {
        let loaded = Loaded::from_gguf(read(path)?);
        let name = loaded.as_ref().ok().and_then(|l| l.name.clone()).unwrap_or(file_name);
        (loaded, name)
    };
    let Loaded { model, bpe, size, .. } = loaded.map_err(|e| format!("{}: {e}", path.display()))?;
    let c = model.config;
    let label = format!("{name} ({:?}, {} layers, {:.0} MB; decoder on the CPU)", c.family, c.layers, size as f64 / 1e6);
    Ok(LoadedDecoder { model, bpe, label })
}

/// Routes `requests` over `skills` with the decoder; `progress` hears each request done.
pub fn run_arm(d: &LoadedDecoder, skills: &[RouteSkill], requests: &[Labelled], mode: Mode, progress: &mut dyn FnMut(usize)) -> Result<Arm, String> {
    let pairs: Vec<(String, String)> = skills.iter().map(|s| (s.name.clone(), s.description.clone())).collect();
    let mut cpu = CpuForward::new(&d.model);
    let router = now(DecoderRouter::new(&mut cpu, &d.bpe, &pairs, true))??;
    let names: Vec<String> = pairs.iter().map(|(n, _)| n.clone()).collect();
    let (mut matrix, mut choices, mut answers, mut log_probs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, r) in requests.iter().enumerate() {
        match mode {
            Mode::Chapter => {
                let a = now(router.chapter(&mut cpu, &d.bpe, &r.query, DEFAULT_MAX_ANSWER_TOKENS))??;
                choices.push(a.parsed.choice.map_or(NONE, |i| names[i].as_str()).to_owned());
                answers.push(Some(a.verbatim));
                matrix.push(Vec::new());
            }
            Mode::Choice => {
                let a = now(router.choice(&mut cpu, &d.bpe, &r.query))??;
                choices.push(a.choice.map_or(NONE, |i| names[i].as_str()).to_owned());
                answers.push(None);
                matrix.push(a.distribution);
                log_probs.push(a.log_probs);
            }
        }
        progress(i + 1);
    }
    Ok(Arm { names, matrix, choices, answers, log_probs })
}
