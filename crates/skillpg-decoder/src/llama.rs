//! The Llama-family decoder (SmolLM2; Qwen2 adds q/k/v biases and NeoX rotary), forward pass on
//! the CPU in f32, written for clarity: the oracle the fast paths will be tested against, itself
//! tested against candle's independent implementation on SmolLM2's GGUF.
//!
//! Per layer: RMSNorm, attention with grouped-query heads and rotary position embeddings (GGUF's
//! Llama tensors are permuted for rotation of adjacent pairs), the residual; RMSNorm, SwiGLU
//! feed-forward, the residual. Then a final RMSNorm and the LM head (tied to the embeddings when
//! the file has no `output.weight`).

use crate::DecoderError;
use crate::gguf::{Gguf, Value};

/// The shape of a Llama-family model, from GGUF metadata.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Width of the residual stream.
    pub dim: usize,
    /// Layers.
    pub layers: usize,
    /// Query heads.
    pub heads: usize,
    /// Key/value heads (grouped-query attention).
    pub kv_heads: usize,
    /// Feed-forward width.
    pub ff: usize,
    /// Vocabulary size.
    pub vocab: usize,
    /// RMSNorm epsilon.
    pub eps: f32,
    /// Rotary base.
    pub rope_base: f32,
}

/// One layer's weights, row-major `[out, in]`.
#[derive(Debug, Clone)]
struct Layer {
    attn_norm: Vec<f32>,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    o: Vec<f32>,
    ffn_norm: Vec<f32>,
    gate: Vec<f32>,
    up: Vec<f32>,
    down: Vec<f32>,
}

/// A Llama-family model with its weights dequantized to f32.
#[derive(Debug, Clone)]
pub struct Llama {
    /// Its shape.
    pub config: Config,
    embed: Vec<f32>,
    layers: Vec<Layer>,
    norm: Vec<f32>,
    /// `None` when tied to the embeddings.
    head: Option<Vec<f32>>,
}

fn rms_norm(x: &[f32], w: &[f32], eps: f32) -> Vec<f32> {
    let ms = x.iter().map(|v| v * v).sum::<f32>() / x.len() as f32;
    let inv = 1.0 / (ms + eps).sqrt();
    x.iter().zip(w).map(|(v, g)| v * inv * g).collect()
}

/// `y = W x` for `W` `[out, in]` row-major.
fn matvec(w: &[f32], x: &[f32]) -> Vec<f32> {
    w.chunks_exact(x.len())
        .map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum())
        .collect()
}

/// Rotates adjacent pairs of each head's vector by the position's angles.
fn rope(x: &mut [f32], head_dim: usize, pos: usize, base: f32) {
    for head in x.chunks_exact_mut(head_dim) {
        for i in 0..head_dim / 2 {
            let theta = pos as f32 * base.powf(-2.0 * i as f32 / head_dim as f32);
            let (s, c) = theta.sin_cos();
            let (a, b) = (head[2 * i], head[2 * i + 1]);
            head[2 * i] = a * c - b * s;
            head[2 * i + 1] = a * s + b * c;
        }
    }
}

impl Llama {
    /// Reads a `llama`-architecture GGUF, or says what is missing or unsupported.
    pub fn from_gguf(g: &Gguf<'_>) -> Result<Llama, DecoderError> {
        Self::read_gguf(g).map_err(DecoderError::Model)
    }

    fn read_gguf(g: &Gguf<'_>) -> Result<Llama, String> {
        let arch = g
            .get("general.architecture")
            .and_then(Value::as_str)
            .unwrap_or("");
        if arch != "llama" {
            return Err(format!(
                "the model's architecture is \"{arch}\"; this forward pass reads \"llama\" (SmolLM2)"
            ));
        }
        let num = |key: &str| {
            g.get(&format!("llama.{key}"))
                .and_then(Value::as_u64)
                .map(|v| v as usize)
                .ok_or_else(|| format!("the file has no llama.{key}"))
        };
        let float = |key: &str, default: f32| match g.get(&format!("llama.{key}")) {
            Some(Value::Float(f)) => *f as f32,
            _ => default,
        };
        let tensor = |name: &str| {
            g.tensor(name)
                .map(|t| g.to_f32(t))
                .ok_or_else(|| format!("the file has no tensor {name}"))
        };
        let embed = tensor("token_embd.weight")?;
        let dim = num("embedding_length")?;
        let config = Config {
            dim,
            layers: num("block_count")?,
            heads: num("attention.head_count")?,
            kv_heads: num("attention.head_count_kv").unwrap_or(num("attention.head_count")?),
            ff: num("feed_forward_length")?,
            vocab: embed.len() / dim.max(1),
            eps: float("attention.layer_norm_rms_epsilon", 1e-5),
            rope_base: float("rope.freq_base", 10_000.0),
        };
        let layers = (0..config.layers)
            .map(|i| {
                let t = |part: &str| tensor(&format!("blk.{i}.{part}.weight"));
                Ok(Layer {
                    attn_norm: t("attn_norm")?,
                    q: t("attn_q")?,
                    k: t("attn_k")?,
                    v: t("attn_v")?,
                    o: t("attn_output")?,
                    ffn_norm: t("ffn_norm")?,
                    gate: t("ffn_gate")?,
                    up: t("ffn_up")?,
                    down: t("ffn_down")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let head = g.tensor("output.weight").map(|t| g.to_f32(t));
        Ok(Llama {
            config,
            embed,
            layers,
            norm: tensor("output_norm.weight")?,
            head,
        })
    }

    /// The logits after the last of `ids` (a whole prompt, positions from 0, causal).
    pub fn last_logits(&self, ids: &[u32]) -> Vec<f32> {
        let c = self.config;
        let hd = c.dim / c.heads;
        let kv_dim = c.kv_heads * hd;
        let group = c.heads / c.kv_heads.max(1);
        let mut xs: Vec<Vec<f32>> = ids
            .iter()
            .map(|&id| self.embed[id as usize * c.dim..(id as usize + 1) * c.dim].to_vec())
            .collect();
        for l in &self.layers {
            let mut keys = Vec::with_capacity(ids.len());
            let mut values = Vec::with_capacity(ids.len());
            let mut queries = Vec::with_capacity(ids.len());
            for (pos, x) in xs.iter().enumerate() {
                let h = rms_norm(x, &l.attn_norm, c.eps);
                let (mut q, mut k) = (matvec(&l.q, &h), matvec(&l.k, &h));
                rope(&mut q, hd, pos, c.rope_base);
                rope(&mut k, hd, pos, c.rope_base);
                queries.push(q);
                keys.push(k);
                values.push(matvec(&l.v, &h));
            }
            for (pos, x) in xs.iter_mut().enumerate() {
                let mut attn = vec![0.0f32; c.dim];
                for head in 0..c.heads {
                    let kvh = head / group;
                    let q = &queries[pos][head * hd..(head + 1) * hd];
                    let scores: Vec<f32> = (0..=pos)
                        .map(|j| {
                            q.iter()
                                .zip(&keys[j][kvh * hd..(kvh + 1) * hd])
                                .map(|(a, b)| a * b)
                                .sum::<f32>()
                                / (hd as f32).sqrt()
                        })
                        .collect();
                    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    let exps: Vec<f32> = scores.iter().map(|s| (s - max).exp()).collect();
                    let sum: f32 = exps.iter().sum();
                    for (j, e) in exps.iter().enumerate() {
                        let v = &values[j][kvh * hd..(kvh + 1) * hd];
                        for d in 0..hd {
                            attn[head * hd + d] += e / sum * v[d];
                        }
                    }
                }
                debug_assert_eq!(kv_dim, keys[0].len());
                for (xi, oi) in x.iter_mut().zip(matvec(&l.o, &attn)) {
                    *xi += oi;
                }
                let h = rms_norm(x, &l.ffn_norm, c.eps);
                let (gate, up) = (matvec(&l.gate, &h), matvec(&l.up, &h));
                let act: Vec<f32> = gate
                    .iter()
                    .zip(&up)
                    .map(|(g, u)| g / (1.0 + (-g).exp()) * u)
                    .collect();
                for (xi, di) in x.iter_mut().zip(matvec(&l.down, &act)) {
                    *xi += di;
                }
            }
        }
        let last = rms_norm(xs.last().map_or(&[][..], Vec::as_slice), &self.norm, c.eps);
        matvec(self.head.as_deref().unwrap_or(&self.embed), &last)
    }
}
