//! What the oracle tests share: candle run in f32 on a file's dequantized weights.

use candle_core::Device;
use candle_core::quantized::{GgmlDType, QTensor, gguf_file};
use candle_transformers::models::quantized_llama::ModelWeights;

/// Rewrites a GGUF with every tensor dequantized to f32, as candle itself dequantizes it.
pub fn f32_gguf(bytes: &[u8]) -> Vec<u8> {
    let mut reader = std::io::Cursor::new(bytes);
    let content = gguf_file::Content::read(&mut reader).expect("candle reads the file");
    let mut names: Vec<&String> = content.tensor_infos.keys().collect();
    names.sort();
    let tensors: Vec<(String, QTensor)> = names
        .iter()
        .map(|name| {
            let t = content
                .tensor(&mut reader, name, &Device::Cpu)
                .and_then(|q| q.dequantize(&Device::Cpu))
                .expect("dequantize");
            (
                (*name).clone(),
                QTensor::quantize(&t, GgmlDType::F32).expect("f32"),
            )
        })
        .collect();
    let metadata: Vec<(&str, &gguf_file::Value)> = content
        .metadata
        .iter()
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    let tensor_refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
    let mut out = std::io::Cursor::new(Vec::new());
    gguf_file::write(&mut out, &metadata, &tensor_refs).expect("candle writes the f32 file");
    out.into_inner()
}

/// candle's quantized Llama over a `llama` file's weights dequantized to f32 (candle multiplies
/// f32 tensors in f32).
#[allow(
    dead_code,
    reason = "used by some of the tests that include this module"
)]
pub fn candle_in_f32(bytes: &[u8]) -> ModelWeights {
    let f32_file = f32_gguf(bytes);
    let mut reader = std::io::Cursor::new(f32_file.as_slice());
    let content = gguf_file::Content::read(&mut reader).expect("candle reads its f32 file");
    ModelWeights::from_gguf(content, &mut reader, &Device::Cpu).expect("candle loads the f32 model")
}
