//! The placement ladder end to end on the tiny chat model: left automatic, the first load
//! measures both paths and keeps the faster, with a line that says what it measured; a load that
//! finds the kept measurement decides at once; the person's choice wins over both; a GPU that
//! fails during a request hands the model to the CPU path, which answers it. On the native
//! adapter (Mesa's lavapipe on the test machine, where the CPU path is the faster).

#![allow(clippy::print_stdout, reason = "the test reports what it measured")]

#[path = "../../skillpg-decoder/tests/oracle/tiny.rs"]
mod tiny;

use std::path::Path;

use skillpg_decoder::load::Loaded;
use skillpg_decoder::model::{Arithmetic, Decoder};
use skillpg_routing::backend::{BackendChoice, Path as Where, Why};
use skillpg_routing::protocol::DecoderMode;
use skillpg_routing::skills::RouteSkill;
use skillpg_runtime::Ask;
use skillpg_runtime::decoder::DecoderRouting;

/// The tiny chat model's GGUF, written by the oracle's script.
fn tiny_chat_gguf() -> Vec<u8> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tiny-decoders-runtime");
    tiny::write_tiny_models(&dir);
    std::fs::read(dir.join("tiny-chat-qwen2.gguf")).expect("the chat model")
}

fn tiny_chat_model() -> Decoder {
    Decoder::from_gguf(tiny_chat_gguf())
        .expect("model")
        .with_arithmetic(Arithmetic::F32)
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe) and the gguf package: scripts/test runs it"]
fn an_automatic_load_measures_both_paths_then_a_kept_measurement_decides_at_once() {
    let start = std::time::Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1e3;
    let ask = |choice, kept| Ask {
        choice,
        kept,
        model_key: "tiny-chat",
        chosen_by: "in the test",
        clock: &clock,
    };
    let (backend, placement, measured) = pollster::block_on(skillpg_runtime::decoder::place(
        tiny_chat_model(),
        ask(BackendChoice::Auto, &[]),
    ));
    let measured = measured.expect("a first automatic load measures");
    let line = placement.line("the GPU", "the CPU");
    println!("{line}");
    assert!(line.contains("measured on this load"), "{line}");
    assert_eq!(
        placement.path == Where::Gpu,
        measured.gpu_wins(),
        "the faster path runs"
    );
    assert_eq!(backend.on_gpu(), placement.path == Where::Gpu);
    assert!(
        measured.cpu_ms > 0.0 && measured.gpu_ms > 0.0,
        "{measured:?}"
    );

    // The next load on this adapter finds it and measures nothing.
    let kept = vec![measured.clone()];
    let (_, again, none) = pollster::block_on(skillpg_runtime::decoder::place(
        tiny_chat_model(),
        ask(BackendChoice::Auto, &kept),
    ));
    assert!(none.is_none(), "a kept measurement is not made again");
    assert!(
        matches!(&again.why, Why::Measured { now: false, .. }),
        "{again:?}"
    );
    assert_eq!(again.path, placement.path);

    // The person's choice wins over a measurement.
    for (choice, path) in [
        (BackendChoice::Cpu, Where::Cpu),
        (BackendChoice::Webgpu, Where::Gpu),
    ] {
        let (backend, chosen, none) = pollster::block_on(skillpg_runtime::decoder::place(
            tiny_chat_model(),
            ask(choice, &kept),
        ));
        assert!(none.is_none());
        assert_eq!(
            (chosen.path, backend.on_gpu()),
            (path, path == Where::Gpu),
            "{choice:?}"
        );
        assert!(
            chosen
                .line("the GPU", "the CPU")
                .ends_with("chosen in the test")
        );
    }
}

#[test]
#[ignore = "slow tier, needs a Vulkan adapter (Mesa's lavapipe) and the gguf package: scripts/test runs it"]
fn a_gpu_that_fails_during_a_request_hands_the_model_to_the_cpu_path_which_answers_it() {
    let clock = || 0.0;
    let routed = |choice| {
        let Loaded { model, bpe, .. } = Loaded::from_gguf(tiny_chat_gguf()).expect("model");
        let ask = Ask {
            choice,
            kept: &[],
            model_key: "tiny-chat",
            chosen_by: "in the test",
            clock: &clock,
        };
        let (backend, placement, _) = pollster::block_on(skillpg_runtime::decoder::place(
            model.with_arithmetic(Arithmetic::F32),
            ask,
        ));
        DecoderRouting::new(backend, bpe, placement)
    };
    let skills: Vec<RouteSkill> = [
        ("pdf", "Merges and splits PDF files."),
        ("xlsx", "Edits spreadsheets."),
    ]
    .iter()
    .map(|(n, d)| RouteSkill {
        name: (*n).to_owned(),
        description: (*d).to_owned(),
    })
    .collect();
    let mut on_gpu = routed(BackendChoice::Webgpu);
    assert_eq!(on_gpu.placement().path, Where::Gpu);
    pollster::block_on(on_gpu.route(&skills, "merge two PDFs", DecoderMode::Choice, None))
        .expect("a short request runs on the GPU");
    assert_eq!(
        on_gpu.placement().path,
        Where::Gpu,
        "a request that succeeds keeps the GPU"
    );

    // The GPU's key/value cache holds at most MAX_CACHE positions and the CPU path's grows: a
    // request longer than that fails on the GPU only, as a device that cannot hold it would.
    let bpe = Loaded::from_gguf(tiny_chat_gguf()).expect("model").bpe;
    let mut long = String::from("merge these PDFs");
    while bpe.encode(&long).len() <= skillpg_gpu::decoder::MAX_CACHE {
        long.push_str(" and these PDFs too");
    }
    let (fell_back, _) =
        pollster::block_on(on_gpu.route(&skills, &long, DecoderMode::Choice, None))
            .expect("the CPU path answers the request");
    let placement = on_gpu.placement();
    let line = placement.line("the GPU", "the CPU");
    println!("{line}");
    assert_eq!(placement.path, Where::Cpu);
    assert!(
        matches!(&placement.why, Why::GpuFailed(e) if e.contains("key/value cache")),
        "{placement:?}"
    );
    assert!(
        line.contains("the GPU failed") && line.contains("later requests run on the CPU path"),
        "{line}"
    );

    // What the CPU path answered is what a model placed on the CPU from the start answers.
    let mut on_cpu = routed(BackendChoice::Cpu);
    let (reference, _) =
        pollster::block_on(on_cpu.route(&skills, &long, DecoderMode::Choice, None))
            .expect("the CPU path");
    assert_eq!(fell_back, reference);
    // And later requests stay on the CPU path.
    pollster::block_on(on_gpu.route(&skills, "merge two PDFs", DecoderMode::Choice, None))
        .expect("the CPU path");
    assert_eq!(on_gpu.placement().path, Where::Cpu);
}
