//! The decoder router on the GPU, one command that prints a table for BENCHMARKS.md:
//! `cargo run --release -p skillpg-gpu --example decoder_bench [-- MODEL.gguf [HOW_MANY_REQUESTS]]`
//! (SmolLM2-135M-Instruct Q4_1 from `scripts/fetch-decoder-model` by default; pass a
//! Qwen2.5-0.5B-Instruct GGUF for the chapter's model).
//!
//! It reports the adapter, the upload, prefill tokens a second (the sample set's system turn),
//! decode tokens a second (32 greedy steps), and the chapter's protocol over the sample routing
//! set, both arms, with the system turn's cache reused, against the goals for a
//! Qwen2.5-0.5B-class model on a laptop GPU (prefill ≥ 2,000 tokens/s; 24 requests < 10 s). On
//! this project's CI machine the adapter is Mesa's lavapipe (a CPU): its numbers are not GPU
//! figures.

#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used, reason = "a benchmark program")]

use std::path::{Path, PathBuf};
use std::time::Instant;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::forward::Forward;
use skillpg_decoder::gguf::Gguf;
use skillpg_decoder::model::{Decoder, Logits};
use skillpg_decoder::protocol;
use skillpg_gpu::Gpu;
use skillpg_gpu::decoder::{DecoderKernels, GpuDecoder};

#[path = "../../skillpg-decoder/examples/shared/samples.rs"]
mod samples;
use samples::{chapter_arm, sample_requests, sample_skills};

fn argmax(v: &[f32]) -> u32 {
    v.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i as u32)
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args.first().map_or_else(|| root.join("target/model/SmolLM2-135M-Instruct.Q4_1.gguf"), PathBuf::from);
    let limit: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let bytes = std::fs::read(&file).expect("the model (run `bash scripts/fetch-decoder-model`, or pass a GGUF)");
    let bpe = Bpe::from_gguf(&Gguf::parse(&bytes).expect("gguf")).expect("tokenizer");
    let model = Decoder::from_gguf(bytes).expect("model");
    let c = model.config;
    let gpu = pollster::block_on(Gpu::new()).expect("a GPU adapter");
    println!("adapter: {:?}", gpu.adapter);
    let t = Instant::now();
    let mut gpu = pollster::block_on(GpuDecoder::new(DecoderKernels::new(gpu), model)).map_err(|(_, e)| e).expect("upload");
    println!(
        "| {} ({:?}, {} layers, width {}) | upload {:.0} ms, {:.0} MB on the device ({}) |",
        file.display(),
        c.family,
        c.layers,
        c.dim,
        t.elapsed().as_secs_f64() * 1e3,
        gpu.device_bytes as f64 / 1e6,
        gpu.storage
    );

    let rich = sample_skills(&root, "routing");
    let prompt = bpe.encode(&protocol::prompt_prefix(&protocol::system_prompt(&rich)));
    // One pass to compile and warm the pipelines, then the timed ones.
    pollster::block_on(gpu.forward(&prompt[..8], Logits::Last)).expect("warm-up");
    // A short prompt first: on a software adapter (lavapipe) a whole system turn takes minutes.
    for len in [32, prompt.len()] {
        gpu.truncate(0);
        let t = Instant::now();
        pollster::block_on(gpu.forward(&prompt[..len], Logits::Last)).expect("prefill");
        let s = t.elapsed().as_secs_f64();
        println!("| prefill, {len} tokens | {:.0} ms, {:.0} tokens/s (goal for a 0.5B model on a laptop GPU: ≥ 2,000) |", s * 1e3, len as f64 / s);
    }
    let mut next = argmax(&pollster::block_on(gpu.forward(&prompt[..1], Logits::Last)).expect("step"));
    let steps = 32;
    let t = Instant::now();
    for _ in 0..steps {
        next = argmax(&pollster::block_on(gpu.forward(&[next], Logits::Last)).expect("decode"));
    }
    let decode = t.elapsed().as_secs_f64();
    println!("| decode, {steps} greedy steps | {:.1} ms a token, {:.1} tokens/s |", decode * 1e3 / steps as f64, steps as f64 / decode);

    let requests = sample_requests(&root, limit);
    let thin: Vec<skillpg_routing::skills::RouteSkill> = rich.iter().map(skillpg_routing::skills::RouteSkill::thinned).collect();
    for (label, skills) in [("as written", &rich), ("thinned", &thin)] {
        let arm = pollster::block_on(chapter_arm(&mut gpu, &bpe, skills, &requests, true));
        let n = requests.len();
        println!(
            "| chapter's protocol, {label}: {n} requests | system turn {} tokens in {:.0} ms; {:.0} ms a request; the whole arm {:.1} s (goal for 24 requests: < 10 s) | {}/{n} right, NONE {} |",
            arm.prefix_tokens,
            arm.setup_s * 1e3,
            arm.run_s * 1e3 / n.max(1) as f64,
            arm.setup_s + arm.run_s,
            arm.right,
            arm.none
        );
    }
}
