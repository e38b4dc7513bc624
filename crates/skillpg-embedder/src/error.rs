//! What can go wrong reading the embedding model, as data: its vocabulary or its weights cannot
//! be used. `Display` is the message alone, worded as before.

/// An embedding model that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EmbedderError {
    /// `vocab.txt` lacks a token the tokenizer needs.
    #[error("{0}")]
    Vocab(String),
    /// The weights file cannot be read, or lacks a tensor the model needs.
    #[error("{0}")]
    Weights(String),
}

/// At an edge that reports in words (the CLI, the worker's answer), the error is its message.
impl From<EmbedderError> for String {
    fn from(e: EmbedderError) -> String {
        e.to_string()
    }
}
