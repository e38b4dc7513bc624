//! The messages between the page and its workers, typed and shared by both sides: the page
//! sends a [`ToWorker`], the worker answers a [`FromWorker`]. Each travels as JSON text, with
//! large bytes (a model's weights, a batch of embeddings) moved beside it, never copied into the
//! text; the JavaScript between them (`web/worker.js`) only moves the text and the bytes.
//!
//! A field missing, renamed or unknown is an error the page shows, never a default: every
//! message denies unknown fields, and [`decode`] says which message failed and why. Messages are
//! externally tagged (`{"embed": {"texts": […]}}`): serde reads them without buffering, which an
//! internally tagged enum needs (24 KB more of the worker's wasm).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::backend::{BackendChoice, Measured};
use crate::outcome::Decision;
use crate::skills::RouteSkill;

/// How a decoder answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecoderMode {
    /// The chapter's protocol: greedy decoding, the answer read as a name or NONE.
    #[default]
    Chapter,
    /// Constrained choice: each name's and NONE's probability after the same prompt.
    Choice,
}

impl DecoderMode {
    /// `chapter` or `choice`: the name in a menu's value.
    pub fn as_str(self) -> &'static str {
        match self {
            DecoderMode::Chapter => "chapter",
            DecoderMode::Choice => "choice",
        }
    }

    /// The mode named `s`.
    pub fn parse(s: &str) -> Result<DecoderMode, String> {
        match s {
            "chapter" => Ok(DecoderMode::Chapter),
            "choice" => Ok(DecoderMode::Choice),
            other => Err(format!("unknown mode {other} (chapter or choice)")),
        }
    }

    /// The run's method, for its results.
    pub fn method(self) -> crate::outcome::Method {
        match self {
            DecoderMode::Chapter => crate::outcome::Method::Chapter,
            DecoderMode::Choice => crate::outcome::Method::Choice,
        }
    }
}

/// A Hugging Face checkpoint's text files, beside its `model.safetensors` (the bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointFiles {
    /// `config.json`.
    pub config: String,
    /// `tokenizer.json`.
    pub tokenizer: String,
}

/// A message from the page to a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum ToWorker {
    /// Load the embedding model: its packed weights (`.spgm`) are the bytes.
    LoadEmbedder {
        /// The WordPiece vocabulary (`vocab.txt`).
        vocab: String,
        backend: BackendChoice,
        /// Measurements of both paths kept from earlier loads (the page's storage).
        #[serde(default)]
        kept: Vec<Measured>,
        /// Left automatic with no kept measurement of this model: run on the CPU path at once
        /// and measure both paths when [`ToWorker::MeasureEmbedder`] asks (after the first
        /// result), instead of before it.
        #[serde(default)]
        measure_later: bool,
    },
    /// Measure both paths for the embedding model loaded with `measure_later`, and run on the
    /// faster from now on; answered by [`FromWorker::Ready`] with the measurement to keep (none,
    /// and the line as it was, when there is nothing left to measure).
    MeasureEmbedder {
        #[serde(default)]
        kept: Vec<Measured>,
    },
    /// Embed these texts; answered by [`FromWorker::Embedded`], the vectors as bytes.
    Embed { texts: Vec<String> },
    /// Load a decoder: a GGUF is the bytes, or a checkpoint's `model.safetensors` with these
    /// files; `file_name` names it when the model states no name (as the CLI names it: the
    /// GGUF's file, the checkpoint's folder).
    LoadDecoder {
        file_name: String,
        checkpoint: Option<CheckpointFiles>,
        backend: BackendChoice,
        #[serde(default)]
        kept: Vec<Measured>,
    },
    /// Move the loaded decoder to another backend (its cache and router start afresh).
    MoveDecoder {
        backend: BackendChoice,
        #[serde(default)]
        kept: Vec<Measured>,
    },
    /// Route one request over `skills` with the loaded decoder; under the chapter's protocol,
    /// `sampling` draws the answer at a temperature with a seed instead of greedily.
    RouteOne {
        skills: Vec<RouteSkill>,
        request: String,
        mode: DecoderMode,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sampling: Option<crate::sampling::Sampling>,
    },
}

/// A worker's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum FromWorker {
    /// A model is loaded or moved: what it is (an export's `model`), a line saying that and
    /// what runs it, and the measurement of both paths made for it, for the page to keep.
    Ready {
        model: String,
        backend: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        measured: Option<Measured>,
    },
    /// `count` embeddings of `dim` floats, as little-endian `f32` bytes beside the message.
    Embedded {
        count: usize,
        dim: usize,
        backend: String,
    },
    /// One request's decision.
    Routed {
        decision: Decision,
        /// Tokens of the cached system turn.
        prefix_tokens: u64,
        /// What runs the model now (a GPU that failed hands it to the CPU).
        backend: String,
    },
    /// The request failed; the message says why.
    Failed { message: String },
}

/// A message as the JSON text that travels.
pub fn encode<T: Serialize>(message: &T) -> String {
    // Enums of strings, numbers and lists: serializing them cannot fail.
    serde_json::to_string(message).unwrap_or_default()
}

/// A message read back, or what is wrong with it (a missing, renamed or unknown field included).
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text)
        .map_err(|e| format!("an unreadable message between the page and its worker ({e})"))
}

/// Floats as the little-endian bytes that travel beside a message.
pub fn f32s_to_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Bytes back to `count` vectors of `dim` floats, or why they are not that.
pub fn bytes_to_vectors(bytes: &[u8], count: usize, dim: usize) -> Result<Vec<Vec<f32>>, String> {
    if dim == 0 || bytes.len() != count * dim * 4 {
        return Err(format!(
            "the worker sent {} bytes for {count} vectors of {dim} floats",
            bytes.len()
        ));
    }
    let floats: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok(floats.chunks_exact(dim).map(<[f32]>::to_vec).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Evidence;

    #[test]
    fn every_message_round_trips() {
        let messages = [
            ToWorker::LoadEmbedder {
                vocab: "[PAD]\n".into(),
                backend: BackendChoice::Auto,
                kept: Vec::new(),
                measure_later: true,
            },
            ToWorker::MeasureEmbedder { kept: Vec::new() },
            ToWorker::Embed {
                texts: vec!["a".into(), "b".into()],
            },
            ToWorker::LoadDecoder {
                file_name: "qwen".into(),
                checkpoint: Some(CheckpointFiles {
                    config: "{}".into(),
                    tokenizer: "{}".into(),
                }),
                backend: BackendChoice::Webgpu,
                kept: vec![Measured {
                    adapter: "Vulkan / discrete GPU / H200".into(),
                    model: "m".into(),
                    gpu_ms: 0.9,
                    cpu_ms: 8.1,
                    gpu_stopped: false,
                }],
            },
            ToWorker::MoveDecoder {
                backend: BackendChoice::Cpu,
                kept: Vec::new(),
            },
            ToWorker::RouteOne {
                skills: vec![RouteSkill {
                    name: "a".into(),
                    description: "A.".into(),
                }],
                request: "q".into(),
                mode: DecoderMode::Choice,
                sampling: None,
            },
            ToWorker::RouteOne {
                skills: vec![],
                request: "q".into(),
                mode: DecoderMode::Chapter,
                sampling: Some(crate::sampling::Sampling {
                    temperature: 0.7,
                    seed: 3,
                }),
            },
        ];
        for m in messages {
            assert_eq!(decode::<ToWorker>(&encode(&m)), Ok(m));
        }
        let answers = [
            FromWorker::Ready {
                model: "SmolLM2".into(),
                backend: "SmolLM2: CPU".into(),
                measured: None,
            },
            FromWorker::Embedded {
                count: 2,
                dim: 384,
                backend: "GPU".into(),
            },
            FromWorker::Routed {
                decision: Decision {
                    choice: Some(0),
                    evidence: Evidence::Cosines {
                        cosines: vec![0.5],
                        fused: None,
                    },
                },
                prefix_tokens: 300,
                backend: "CPU".into(),
            },
            FromWorker::Failed {
                message: "no".into(),
            },
        ];
        for a in answers {
            assert_eq!(decode::<FromWorker>(&encode(&a)), Ok(a));
        }
    }

    #[test]
    fn a_wrong_or_missing_field_is_an_error_not_a_default() {
        let routed = r#"{"routed":{"decision":{"choice":1,"evidence":{"answer":{"verbatim":"a","recognised":true,"prefill_tokens":3,"generated_tokens":1,"capped":false}}},"prefix_tokens":9,"backend":"CPU"}}"#;
        assert!(decode::<FromWorker>(routed).is_ok());
        let renamed = routed.replace("\"choice\"", "\"chosen\"");
        assert!(
            decode::<FromWorker>(&renamed)
                .expect_err("renamed")
                .contains("chosen"),
            "names the field"
        );
        let missing = routed.replace(",\"prefix_tokens\":9", "");
        assert!(
            decode::<FromWorker>(&missing)
                .expect_err("missing")
                .contains("prefix_tokens")
        );
        let extra = r#"{"embed":{"texts":[],"force":true}}"#;
        assert!(
            decode::<ToWorker>(extra)
                .expect_err("unknown field")
                .contains("force")
        );
        assert!(
            decode::<ToWorker>(r#"{"load":{"texts":[]}}"#)
                .expect_err("unknown kind")
                .contains("load")
        );
        assert!(decode::<ToWorker>(r#"{"move-decoder":{"backend":"gpu"}}"#).is_err());
        assert!(
            decode::<ToWorker>(r#"{"embed":{"texts":[]},"move-decoder":{"backend":"cpu"}}"#)
                .is_err(),
            "one message at a time"
        );
    }

    #[test]
    fn vectors_travel_as_bytes() {
        let v = [1.5f32, -0.25, 3.0, 0.0];
        assert_eq!(
            bytes_to_vectors(&f32s_to_bytes(&v), 2, 2),
            Ok(vec![vec![1.5, -0.25], vec![3.0, 0.0]])
        );
        assert!(
            bytes_to_vectors(&f32s_to_bytes(&v), 3, 2)
                .expect_err("short")
                .contains("16 bytes for 3 vectors")
        );
        assert!(bytes_to_vectors(&[], 0, 0).is_err());
    }
}
