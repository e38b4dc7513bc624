//! The decoder router's speed on this machine's CPU (one thread), for BENCHMARKS.md:
//! `cargo run --release -p skillpg-decoder --example bench [-- MODEL.gguf [HOW_MANY_REQUESTS]]`
//! (`SKILLPG_THREADS=2` shares a prompt's products among two threads; one by default).
//!
//! Prints prefill and decode tokens a second, then the chapter's protocol over the sample
//! routing set (both arms: descriptions as written and thinned), with the key/value cache of the
//! system turn reused and, on a few requests, without it.

#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::type_complexity,
    reason = "a developer's benchmark"
)]

use std::path::Path;
use std::time::Instant;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::forward::{CpuForward, now};
use skillpg_decoder::gguf::Gguf;
use skillpg_decoder::model::{Arithmetic, Decoder, Logits};
use skillpg_decoder::qdot::Kernel;
use skillpg_routing::prompt as protocol;

#[path = "shared/samples.rs"]
mod samples;
use samples::{chapter_arm, sample_requests, sample_skills};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (file, limit) = samples::model_and_limit(&root);
    let limit = limit.unwrap_or(usize::MAX);
    let t = Instant::now();
    let bytes = std::fs::read(&file).expect("model");
    let bpe = Bpe::from_gguf(&Gguf::parse(&bytes).expect("gguf")).expect("tokenizer");
    let threads: usize = std::env::var("SKILLPG_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut model = Decoder::from_gguf(bytes)
        .expect("model")
        .with_threads(threads);
    // SKILLPG_KERNEL=scalar|AVX2|AVX-512 picks an integer kernel, f32 the f32 arithmetic.
    match std::env::var("SKILLPG_KERNEL").ok().as_deref() {
        Some("f32") => model = model.with_arithmetic(Arithmetic::F32),
        Some(name) => {
            model = model.with_kernel(
                Kernel::available()
                    .into_iter()
                    .find(|k| k.name() == name)
                    .expect("a kernel this CPU runs"),
            )
        }
        None => {}
    }
    let (arithmetic, kernel) = model.arithmetic();
    println!(
        "prompt products on {threads} thread(s) (SKILLPG_THREADS), {arithmetic:?} arithmetic, {} kernel (SKILLPG_KERNEL)",
        kernel.name()
    );
    println!(
        "{}: {:?}, loaded in {:.0} ms",
        file.display(),
        model.config,
        t.elapsed().as_secs_f64() * 1e3
    );

    let rich = sample_skills(&root, "routing");
    let prompt_text = protocol::prompt_prefix(&protocol::system_prompt(&rich));
    let prompt = bpe.encode(&prompt_text);
    // RUNS prefills of the prompt, each followed by 32 greedy decode steps: the medians (this
    // machine's speed varies by the minute; one run is noise).
    let runs = RUNS;
    let steps = 32;
    let (mut prefills, mut decodes) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let mut cache = model.cache();
        let t = Instant::now();
        let logits = model.forward(&mut cache, &prompt, Logits::Last);
        prefills.push(t.elapsed().as_secs_f64());
        let mut next = logits
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map_or(0, |(i, _)| i as u32);
        let t = Instant::now();
        for _ in 0..steps {
            let l = model.forward(&mut cache, &[next], Logits::Last);
            next = l
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map_or(0, |(i, _)| i as u32);
        }
        decodes.push(t.elapsed().as_secs_f64());
    }
    let (prefill, decode) = (median(&mut prefills), median(&mut decodes));
    println!(
        "| prefill, the system turn of the six sample skills ({} tokens), median of {runs} | {:.0} ms | {:.1} tokens/s |",
        prompt.len(),
        prefill * 1e3,
        prompt.len() as f64 / prefill
    );
    println!(
        "| decode, {steps} tokens after it, median of {runs} | {:.1} ms a token | {:.1} tokens/s |",
        decode * 1e3 / steps as f64,
        steps as f64 / decode
    );

    // llama.cpp on the same file and prompt text, in the same run, when node-llama-cpp is
    // installed (`scripts/install-peers`): the peer, with the CPU variant it picks and
    // with its variant for our kernel's instruction set.
    let matched = if kernel.name() == "AVX-512" {
        "avx512"
    } else {
        "avx2"
    };
    for variant in ["best", matched] {
        peer_llama_cpp(
            &root,
            &file,
            &prompt_text,
            steps,
            threads,
            variant,
            prompt.len() as f64 / prefill,
            steps as f64 / decode,
        );
    }

    // candle's quantized Llama/Qwen2 (8-bit activations, its own threads) on the same prompt,
    // for the choice of CPU path (README): RAYON_NUM_THREADS=1 makes it one thread as ours.
    // SKILLPG_CANDLE=1 runs it (it takes a minute).
    if std::env::var("SKILLPG_CANDLE").is_ok_and(|v| v == "1") {
        use candle_core::quantized::gguf_file;
        use candle_core::{Device, Tensor};
        let bytes = std::fs::read(&file).expect("model");
        let mut reader = std::io::Cursor::new(&bytes);
        let content = gguf_file::Content::read(&mut reader).expect("candle reads the file");
        let forward: Box<dyn FnMut(&[u32], usize) -> Vec<f32>> = match model.config.family {
            skillpg_decoder::model::Family::Llama => {
                let mut m = candle_transformers::models::quantized_llama::ModelWeights::from_gguf(
                    content,
                    &mut reader,
                    &Device::Cpu,
                )
                .expect("candle");
                Box::new(move |ids, at| {
                    m.forward(
                        &Tensor::new(ids, &Device::Cpu)
                            .unwrap()
                            .unsqueeze(0)
                            .unwrap(),
                        at,
                    )
                    .unwrap()
                    .flatten_all()
                    .unwrap()
                    .to_vec1()
                    .unwrap()
                })
            }
            skillpg_decoder::model::Family::Qwen2 => {
                let mut m = candle_transformers::models::quantized_qwen2::ModelWeights::from_gguf(
                    content,
                    &mut reader,
                    &Device::Cpu,
                )
                .expect("candle");
                Box::new(move |ids, at| {
                    m.forward(
                        &Tensor::new(ids, &Device::Cpu)
                            .unwrap()
                            .unsqueeze(0)
                            .unwrap(),
                        at,
                    )
                    .unwrap()
                    .flatten_all()
                    .unwrap()
                    .to_vec1()
                    .unwrap()
                })
            }
        };
        let mut forward = forward;
        let t = Instant::now();
        let l = forward(&prompt, 0);
        let prefill = t.elapsed().as_secs_f64();
        let mut next = l
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map_or(0, |(i, _)| i as u32);
        let t = Instant::now();
        for i in 0..steps {
            let l = forward(&[next], prompt.len() + i);
            next = l
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map_or(0, |(i, _)| i as u32);
        }
        let decode = t.elapsed().as_secs_f64();
        let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "all cores".into());
        println!(
            "| candle 0.11 quantized ({threads} threads): prefill | {:.0} ms | {:.1} tokens/s |",
            prefill * 1e3,
            prompt.len() as f64 / prefill
        );
        println!(
            "| candle 0.11 quantized ({threads} threads): decode | {:.0} ms a token | {:.1} tokens/s |",
            decode * 1e3 / steps as f64,
            steps as f64 / decode
        );
    }

    let requests = sample_requests(&root, limit);
    if requests.is_empty() {
        return;
    }
    let thin: Vec<skillpg_routing::skills::RouteSkill> = rich
        .iter()
        .map(skillpg_routing::skills::RouteSkill::thinned)
        .collect();
    for (label, skills) in [("as written", &rich), ("thinned", &thin)] {
        let mut cpu = CpuForward::new(&model);
        let arm = now(chapter_arm(&mut cpu, &bpe, skills, &requests, true)).expect("cpu");
        let n = requests.len();
        println!(
            "| chapter's protocol, {label}: {n} requests | system turn {} tokens prefilled once in {:.0} ms; then {:.0} ms a request ({:.1} prefill + {:.1} generated tokens a request) | {}/{n} right, NONE {} |",
            arm.prefix_tokens,
            arm.setup_s * 1e3,
            arm.run_s * 1e3 / n as f64,
            arm.prefill_tokens as f64 / n as f64,
            arm.generated as f64 / n as f64,
            arm.right,
            arm.none
        );
        // Without the cache: every request prefills the system turn again.
        let few = &requests[..3.min(n)];
        let plain = now(chapter_arm(&mut cpu, &bpe, skills, few, false)).expect("cpu");
        println!(
            "| the same without the prefix cache, {} requests | {:.0} ms a request ({:.1} prefill tokens a request) | |",
            few.len(),
            plain.run_s * 1e3 / few.len() as f64,
            plain.prefill_tokens as f64 / few.len() as f64
        );
    }
}

/// Prefills (each with its decode steps) a benchmark takes the median of, ours and llama.cpp's.
const RUNS: usize = 5;

/// The middle value.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `scripts/peer-llama-cpp.mjs` on the same model and prompt text, and prints its prefill and
/// decode speeds beside ours (`ours_prefill`, `ours_decode`: tokens a second), or why it did not
/// run.
#[allow(
    clippy::too_many_arguments,
    reason = "the run's settings and our figures"
)]
fn peer_llama_cpp(
    root: &Path,
    model: &Path,
    prompt: &str,
    steps: usize,
    threads: usize,
    variant: &str,
    ours_prefill: f64,
    ours_decode: f64,
) {
    let prompt_file =
        std::env::temp_dir().join(format!("skillpg-bench-prompt-{}.txt", std::process::id()));
    std::fs::write(&prompt_file, prompt).expect("a temporary file");
    let run = std::process::Command::new("node")
        .arg(root.join("scripts/peer-llama-cpp.mjs"))
        .arg(model)
        .arg(&prompt_file)
        .arg(steps.to_string())
        .arg(threads.to_string())
        .arg(variant)
        .arg(RUNS.to_string())
        .output();
    let _ = std::fs::remove_file(&prompt_file);
    let out = match run {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .last()
            .unwrap_or("")
            .to_owned(),
        Ok(o) => {
            return println!(
                "llama.cpp: the peer script failed: {}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            );
        }
        Err(e) => return println!("llama.cpp: node did not run ({e})"),
    };
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
    if let Some(why) = v["missing"].as_str() {
        return println!("llama.cpp: {why}");
    }
    let (tokens, prefill_s, decode_s) = (
        v["promptTokens"].as_f64().unwrap_or(0.0),
        v["prefillS"].as_f64().unwrap_or(f64::NAN),
        v["decodeS"].as_f64().unwrap_or(f64::NAN),
    );
    let (theirs_prefill, theirs_decode) = (
        tokens / prefill_s,
        v["decodeSteps"].as_f64().unwrap_or(0.0) / decode_s,
    );
    let which = match variant {
        "avx2" => "its AVX2 variant",
        "avx512" => "its AVX-512 variant (skylakex)",
        _ => "the variant it picks for this CPU",
    };
    println!(
        "| {}, {which}, on {} thread(s); CPU features it reports: {} | | |",
        v["engine"].as_str().unwrap_or("llama.cpp"),
        v["threads"],
        v["cpu"].as_str().unwrap_or("")
    );
    println!(
        "| llama.cpp ({variant}): prefill ({tokens} tokens), median of {RUNS} | {:.0} ms | {theirs_prefill:.1} tokens/s (ours {:.2}x) |",
        prefill_s * 1e3,
        ours_prefill / theirs_prefill
    );
    println!(
        "| llama.cpp ({variant}): decode, median of {RUNS} | {:.1} ms a token | {theirs_decode:.1} tokens/s (ours {:.2}x) |",
        decode_s * 1e3 / v["decodeSteps"].as_f64().unwrap_or(1.0),
        ours_decode / theirs_decode
    );
}
