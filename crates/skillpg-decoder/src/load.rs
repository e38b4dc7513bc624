//! A decoder and its tokenizer from what a person brings (a GGUF, or a Hugging Face
//! checkpoint's `model.safetensors`, `config.json` and `tokenizer.json`), checked to belong
//! together and to speak ChatML: the one loader of the CLI and the page's worker.

use crate::DecoderError;
use crate::bpe::Bpe;
use crate::gguf::{Gguf, Value};
use crate::model::Decoder;

/// A loaded decoder, its tokenizer, and the name its file gives it.
#[derive(Debug)]
pub struct Loaded {
    pub model: Decoder,
    pub bpe: Bpe,
    /// `general.name` of a GGUF, `_name_or_path` of a checkpoint's config, when stated.
    pub name: Option<String>,
    /// Bytes of the weights' file.
    pub size: usize,
}

impl Loaded {
    /// What the model is, in words: its name (or `unnamed` when its file states none), family,
    /// shape and size. The CLI and the page say it alike, and it heads an export's `model`.
    pub fn describe(&self, unnamed: &str) -> String {
        let c = self.model.config;
        format!(
            "{} ({:?} family, {} layers, width {}, {} heads / {} key-value heads, vocabulary {}, {:.1} MB)",
            self.name.as_deref().unwrap_or(unnamed),
            c.family,
            c.layers,
            c.dim,
            c.heads,
            c.kv_heads,
            c.vocab,
            self.size as f64 / 1e6
        )
    }

    /// Reads a GGUF's model and tokenizer, or names what is wrong.
    pub fn from_gguf(bytes: Vec<u8>) -> Result<Loaded, DecoderError> {
        Self::read_gguf(bytes).map_err(DecoderError::Model)
    }

    fn read_gguf(bytes: Vec<u8>) -> Result<Loaded, String> {
        let size = bytes.len();
        let (bpe, name) = {
            let g = Gguf::parse(&bytes)?;
            (
                Bpe::from_gguf(&g)?,
                g.get("general.name")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            )
        };
        Loaded {
            model: Decoder::from_gguf(bytes)?,
            bpe,
            name,
            size,
        }
        .checked()
    }

    /// Reads a Hugging Face checkpoint, or names what is wrong.
    pub fn from_checkpoint(
        bytes: Vec<u8>,
        config: &str,
        tokenizer: &str,
    ) -> Result<Loaded, DecoderError> {
        Self::read_checkpoint(bytes, config, tokenizer).map_err(DecoderError::Model)
    }

    fn read_checkpoint(bytes: Vec<u8>, config: &str, tokenizer: &str) -> Result<Loaded, String> {
        let size = bytes.len();
        let bpe = Bpe::from_tokenizer_json(tokenizer)?;
        let name = serde_json::from_str::<serde_json::Value>(config)
            .ok()
            .and_then(|c| c["_name_or_path"].as_str().map(str::to_owned));
        Loaded {
            model: Decoder::from_safetensors(bytes, config)?,
            bpe,
            name,
            size,
        }
        .checked()
    }

    /// The tokenizer must fit the model's embeddings and speak ChatML (`chat::chatml_end`).
    fn checked(self) -> Result<Loaded, String> {
        if self.bpe.len() > self.model.config.vocab {
            return Err(format!(
                "the tokenizer has {} tokens and the model's embeddings {} rows: they do not belong together",
                self.bpe.len(),
                self.model.config.vocab
            ));
        }
        crate::chat::chatml_end(&self.bpe)?;
        Ok(self)
    }
}
