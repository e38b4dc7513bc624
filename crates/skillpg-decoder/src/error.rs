//! What can go wrong at the decoder's boundary, as data: the model's files cannot be used, or the
//! device running a pass failed. Every backend's [`Forward`](crate::forward::Forward) answers
//! with it, so the runtime tells a bad model (say so, stop) from a failed GPU (fall back to the
//! CPU) by its kind, not by its words. `Display` is the message alone, worded as before.

/// A decoder failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecoderError {
    /// The model's files cannot be used: not a GGUF or checkpoint this engine reads, a tensor
    /// missing or misshapen, an architecture, quantization or chat format it does not run.
    #[error("{0}")]
    Model(String),
    /// The prompt does not fit the model's context (too many skills routed at once).
    #[error("{0}")]
    Prompt(String),
    /// The device running a pass failed (a GPU lost, out of memory, a read-back refused); the
    /// model itself may be fine elsewhere.
    #[error("{0}")]
    Device(String),
    /// A pass that should have answered at once (the CPU's) was left waiting.
    #[error("the forward pass did not finish at once: it needs an executor (a GPU backend)")]
    NotImmediate,
}

impl DecoderError {
    /// A model failure from its message (the parsers' internal errors are worded strings).
    pub fn model(message: impl Into<String>) -> DecoderError {
        DecoderError::Model(message.into())
    }
}

/// Inside the parsers, whose errors are worded strings, a boundary error reads as its message
/// (so `?` works there); the kind is restored where the parser's own boundary wraps it.
impl From<DecoderError> for String {
    fn from(e: DecoderError) -> String {
        e.to_string()
    }
}
