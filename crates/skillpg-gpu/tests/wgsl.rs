//! Every WGSL module the GPU paths compile, parsed and validated by naga (wgpu's own shader
//! compiler) without a GPU: the fast tier catches a shader that no adapter would accept (a
//! reserved word, a type error, a barrier outside uniform control flow) before the slow tier
//! runs it on lavapipe.

fn validate(label: &str, source: &str, entries: &[&str]) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(source)));
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    validator
        .validate(&module)
        .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(source)));
    for entry in entries {
        assert!(
            module.entry_points.iter().any(|e| e.name == *entry),
            "{label}: no entry point {entry}"
        );
    }
}

#[test]
fn every_decoder_module_compiles() {
    let modules = skillpg_gpu::decoder::wgsl_modules();
    assert_eq!(
        modules.len(),
        6,
        "the other kernels and one product module per storage"
    );
    for (label, source, entries) in modules {
        validate(&label, &source, &entries);
    }
}

#[test]
fn the_embedding_models_modules_compile() {
    validate(
        "kernels",
        skillpg_gpu::KERNELS_WGSL,
        &["linear", "layer_norm", "attention", "embed", "mean_pool"],
    );
    validate(
        "kernels-f16",
        skillpg_gpu::KERNELS_F16_WGSL,
        &["linear_f16"],
    );
}
