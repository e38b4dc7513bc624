//! The decoder router's model files, pure: bytes in, tensors and metadata out.
//!
//! `gguf.rs` reads a GGUF file (header, metadata, tensor table, data), bounded and checked so
//! that a truncated or hostile file is a message that names what is wrong, never a panic or a
//! huge allocation. `quant.rs` turns a tensor's blocks into f32 (F32, F16, BF16, Q8_0, Q4_0,
//! Q4_1, Q4_K, Q6_K: the types SmolLM2's and the common Qwen2.5 GGUFs use), as ggml defines
//! them; both are tested against the `gguf` Python package's reference (PyPI).

pub mod bpe;
pub mod chat;
pub mod error;
pub mod forward;
pub mod gguf;
pub mod llama;
pub mod load;
pub mod model;
pub mod qdot;
pub mod quant;

pub use error::DecoderError;
