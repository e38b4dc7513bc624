//! The decoder router on the GPU, one command that prints a table for BENCHMARKS.md:
//! `cargo run --release -p skillpg-gpu --example decoder_bench [-- MODEL.gguf [HOW_MANY_REQUESTS]]`
//! (SmolLM2-135M-Instruct Q4_1 from `scripts/fetch-decoder-model` by default; pass a
//! Qwen2.5-0.5B-Instruct GGUF for the chapter's model).
//!
//! It reports the adapter, the upload, prefill tokens a second (the sample set's system turn,
//! median of 5), decode tokens a second (the median of 32 greedy steps, each reading back its
//! token alone), what one decoded token asks of the device (buffers, bind groups, submits,
//! passes, bytes read back), a per-kernel table of a decoded token and of the system turn's
//! prefill (`skillpg_gpu::profile`: timestamp queries where the adapter has them), and the
//! chapter's protocol over the sample routing set, both arms, with the system turn's cache
//! reused, against issue 30's goals for SmolLM2-135M Q4_1 on an H200 (decode ≥ 400 tokens/s,
//! prefill of 354 tokens ≥ 20,000 tokens/s, 28 requests × 2 arms < 3 s). On this project's CI
//! machine the adapter is Mesa's lavapipe (a CPU): its numbers are not GPU figures.

#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark program"
)]

use std::path::Path;
use std::time::Instant;

use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::forward::Forward;
use skillpg_decoder::gguf::Gguf;
use skillpg_decoder::model::{Decoder, Logits};
use skillpg_gpu::Gpu;
use skillpg_gpu::decoder::{DecoderKernels, GpuDecoder};
use skillpg_routing::prompt as protocol;

#[path = "../../skillpg-decoder/examples/shared/samples.rs"]
mod samples;
use samples::{chapter_arm, sample_requests, sample_skills};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (file, limit) = samples::model_and_limit(&root);
    let bytes = std::fs::read(&file)
        .expect("the model (run `bash scripts/fetch-decoder-model`, or pass a GGUF)");
    let bpe = Bpe::from_gguf(&Gguf::parse(&bytes).expect("gguf")).expect("tokenizer");
    let model = Decoder::from_gguf(bytes).expect("model");
    let c = model.config;
    let gpu = pollster::block_on(Gpu::new()).expect("a GPU adapter");
    println!("adapter: {:?}", gpu.adapter);
    let t = Instant::now();
    let mut gpu = pollster::block_on(GpuDecoder::new(DecoderKernels::new(gpu), model))
        .map_err(|(_, e)| e)
        .expect("upload");
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
    // On a software adapter (lavapipe: a CPU) a run takes minutes: one run of each, fewer steps.
    let software = gpu.gpu().adapter.device_type == wgpu::DeviceType::Cpu;
    let runs = if software { 1 } else { 5 };
    for len in [32, prompt.len()] {
        let times: Vec<f64> = (0..runs)
            .map(|_| {
                gpu.truncate(0);
                let t = Instant::now();
                pollster::block_on(gpu.forward(&prompt[..len], Logits::None)).expect("prefill");
                // The pass ends when the device is done: a one-token step after it reads back.
                pollster::block_on(gpu.forward_argmax(&prompt[..1])).expect("read back");
                t.elapsed().as_secs_f64()
            })
            .collect();
        let s = median(times);
        println!(
            "| prefill, {len} tokens (median of {runs}) | {:.1} ms, {:.0} tokens/s (goal at 354 tokens on an H200: ≥ 20,000) |",
            s * 1e3,
            len as f64 / s
        );
    }
    gpu.truncate(0);
    let mut next = pollster::block_on(gpu.forward_argmax(&prompt)).expect("prefill");
    let steps = if software { 8 } else { 32 };
    let mut times = Vec::with_capacity(steps);
    let before = gpu.gpu().counts();
    for _ in 0..steps {
        let t = Instant::now();
        next = pollster::block_on(gpu.forward_argmax(&[next])).expect("decode");
        times.push(t.elapsed().as_secs_f64());
    }
    let per = gpu.gpu().counts() - before;
    let decode = median(times);
    println!(
        "| decode, median of {steps} greedy steps | {:.2} ms a token, {:.0} tokens/s (goal on an H200: ≥ 400) |",
        decode * 1e3,
        1.0 / decode
    );
    println!(
        "| a decoded token asks the device for | {} buffers, {} bind groups, {} submit, {} compute pass, {} dispatches, {} bytes read back |",
        per.buffers / steps as u64,
        per.bind_groups / steps as u64,
        per.submits / steps as u64,
        per.passes / steps as u64,
        per.dispatches / steps as u64,
        per.read_bytes / steps as u64
    );
    let peak = skillpg_gpu::profile::known_peak(&gpu.gpu().adapter.name);
    let (decoded, timing) = gpu.profile(&[next]).expect("profile a decoded token");
    println!(
        "{}",
        skillpg_gpu::profile::table(
            &format!(
                "Per kernel: one decoded token after {} cached positions",
                gpu.cached() - 1
            ),
            &decoded,
            timing,
            peak
        )
    );
    gpu.truncate(0);
    let (prefilled, timing) = gpu
        .profile(&prompt[..prompt.len().min(512)])
        .expect("profile the prefill");
    println!(
        "{}",
        skillpg_gpu::profile::table(
            &format!(
                "Per kernel: the system turn's prefill, {} tokens",
                prompt.len().min(512)
            ),
            &prefilled,
            timing,
            peak
        )
    );

    // A software adapter runs the protocol only when asked for a number of requests.
    let limit = match limit {
        None if software => 0,
        given => given.unwrap_or(usize::MAX),
    };
    let requests = sample_requests(&root, limit);
    if requests.is_empty() {
        println!(
            "(the chapter's protocol is left out on a software adapter; pass a number of requests to run it)"
        );
        return;
    }
    let thin: Vec<skillpg_routing::skills::RouteSkill> = rich
        .iter()
        .map(skillpg_routing::skills::RouteSkill::thinned)
        .collect();
    for (label, skills) in [("as written", &rich), ("thinned", &thin)] {
        let t = Instant::now();
        let arm = pollster::block_on(chapter_arm(&mut gpu, &bpe, skills, &requests, true));
        let whole = t.elapsed().as_secs_f64();
        let n = requests.len();
        // The system turn's prefill is submitted without a read-back, so its time lands in the
        // first request's: the arm is timed whole.
        println!(
            "| chapter's protocol, {label}: {n} requests | system turn {} tokens (submitted in {:.0} ms); the whole arm {:.2} s, {:.0} ms a request (goal on an H200: 28 requests × 2 arms < 3 s) | {}/{n} right, NONE {} |",
            arm.prefix_tokens,
            arm.setup_s * 1e3,
            whole,
            whole * 1e3 / n.max(1) as f64,
            arm.right,
            arm.none
        );
    }
}
