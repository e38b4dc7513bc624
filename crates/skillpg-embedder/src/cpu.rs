//! The reference forward pass on the CPU, in f32, written for clarity: every other
//! implementation is tested against these functions, kernel by kernel and whole.

use crate::Embedder;
use crate::error::EmbedderError;
use crate::weights::{Config, LAYER_NORM_EPS, MINILM_L6, Weights};
use crate::wordpiece::WordPiece;

/// `y = x · wᵀ + b` for `rows` rows of width `n_in`; `w` is `[n_out, n_in]` row-major, as the
/// safetensors file stores linear layers.
pub fn linear(x: &[f32], rows: usize, n_in: usize, w: &[f32], b: &[f32], n_out: usize) -> Vec<f32> {
    let mut y = vec![0.0f32; rows * n_out];
    for r in 0..rows {
        let xr = &x[r * n_in..(r + 1) * n_in];
        for o in 0..n_out {
            let wr = &w[o * n_in..(o + 1) * n_in];
            let mut acc = 0.0f32;
            for k in 0..n_in {
                acc += xr[k] * wr[k];
            }
            y[r * n_out + o] = acc + b[o];
        }
    }
    y
}

/// LayerNorm over each row of width `width`, in place.
pub fn layer_norm(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32], eps: f32) {
    for row in x.chunks_mut(width) {
        let mean = row.iter().sum::<f32>() / width as f32;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / width as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for (i, v) in row.iter_mut().enumerate() {
            *v = (*v - mean) * inv * gamma[i] + beta[i];
        }
    }
}

/// The exact GELU, `x · Φ(x)`, in place.
pub fn gelu(x: &mut [f32]) {
    for v in x.iter_mut() {
        *v = 0.5 * *v * (1.0 + erf(*v / std::f32::consts::SQRT_2));
    }
}

/// `erf` to about 1e-7, in f64 (Numerical Recipes' fit, `skillpg_math::erfc`): the reference
/// the fast GELU is held to.
pub fn erf(x: f32) -> f32 {
    skillpg_math::erf(x as f64) as f32
}

/// Multi-head self-attention without a mask: `q`, `k`, `v` are `[seq, heads · head_dim]`.
pub fn attention(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    seq: usize,
    heads: usize,
    head_dim: usize,
) -> Vec<f32> {
    let width = heads * head_dim;
    let scale = 1.0 / (head_dim as f32).sqrt();
    let mut out = vec![0.0f32; seq * width];
    let mut scores = vec![0.0f32; seq];
    for h in 0..heads {
        for i in 0..seq {
            let qi = &q[i * width + h * head_dim..i * width + (h + 1) * head_dim];
            let mut max = f32::NEG_INFINITY;
            for j in 0..seq {
                let kj = &k[j * width + h * head_dim..j * width + (h + 1) * head_dim];
                let s = qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f32>() * scale;
                scores[j] = s;
                max = max.max(s);
            }
            let mut sum = 0.0;
            for s in scores.iter_mut().take(seq) {
                *s = (*s - max).exp();
                sum += *s;
            }
            let o = &mut out[i * width + h * head_dim..i * width + (h + 1) * head_dim];
            for j in 0..seq {
                let p = scores[j] / sum;
                let vj = &v[j * width + h * head_dim..j * width + (h + 1) * head_dim];
                for d in 0..head_dim {
                    o[d] += p * vj[d];
                }
            }
        }
    }
    out
}

/// Mean over the rows, then L2 normalization.
pub fn mean_pool_normalize(x: &[f32], seq: usize, width: usize) -> Vec<f32> {
    let mut res = vec![0.0f32; width];
    for row in x.chunks(width).take(seq) {
        for (r, v) in res.iter_mut().zip(row) {
            *r += v;
        }
    }
    let norm = res
        .iter()
        .map(|v| (v / seq as f32).powi(2))
        .sum::<f32>()
        .sqrt()
        .max(1e-12);
    res.iter().map(|v| v / seq as f32 / norm).collect()
}

/// One encoder layer's weights.
#[derive(Debug, Clone)]
pub struct Layer {
    /// Query, key, value: `[hidden, hidden]` and `[hidden]`.
    pub q: (Vec<f32>, Vec<f32>),
    /// Key.
    pub k: (Vec<f32>, Vec<f32>),
    /// Value.
    pub v: (Vec<f32>, Vec<f32>),
    /// Attention output projection.
    pub o: (Vec<f32>, Vec<f32>),
    /// LayerNorm after attention (gamma, beta).
    pub ln1: (Vec<f32>, Vec<f32>),
    /// Feed-forward up: `[intermediate, hidden]`.
    pub up: (Vec<f32>, Vec<f32>),
    /// Feed-forward down: `[hidden, intermediate]`.
    pub down: (Vec<f32>, Vec<f32>),
    /// LayerNorm after the feed-forward.
    pub ln2: (Vec<f32>, Vec<f32>),
}

/// The whole model's weights, arranged for the forward pass.
#[derive(Debug, Clone)]
pub struct Model {
    /// Shape.
    pub config: Config,
    /// `[vocab, hidden]`.
    pub word: Vec<f32>,
    /// `[max_positions, hidden]`.
    pub position: Vec<f32>,
    /// Token type 0's row.
    pub token_type0: Vec<f32>,
    /// Embedding LayerNorm.
    pub ln: (Vec<f32>, Vec<f32>),
    /// The encoder layers.
    pub layers: Vec<Layer>,
}

impl Model {
    /// Arranges safetensors-named weights for all-MiniLM-L6-v2.
    pub fn from_weights(w: &Weights) -> Result<Model, EmbedderError> {
        let t = |name: &str| w.get(name).map(|t| t.data.clone());
        let pair =
            |prefix: &str, a: &str, b: &str| -> Result<(Vec<f32>, Vec<f32>), EmbedderError> {
                Ok((t(&format!("{prefix}.{a}"))?, t(&format!("{prefix}.{b}"))?))
            };
        let config = MINILM_L6;
        let mut layers = Vec::with_capacity(config.layers);
        for i in 0..config.layers {
            let p = format!("encoder.layer.{i}");
            layers.push(Layer {
                q: pair(&format!("{p}.attention.self.query"), "weight", "bias")?,
                k: pair(&format!("{p}.attention.self.key"), "weight", "bias")?,
                v: pair(&format!("{p}.attention.self.value"), "weight", "bias")?,
                o: pair(&format!("{p}.attention.output.dense"), "weight", "bias")?,
                ln1: pair(&format!("{p}.attention.output.LayerNorm"), "weight", "bias")?,
                up: pair(&format!("{p}.intermediate.dense"), "weight", "bias")?,
                down: pair(&format!("{p}.output.dense"), "weight", "bias")?,
                ln2: pair(&format!("{p}.output.LayerNorm"), "weight", "bias")?,
            });
        }
        let types = t("embeddings.token_type_embeddings.weight")?;
        Ok(Model {
            config,
            word: t("embeddings.word_embeddings.weight")?,
            position: t("embeddings.position_embeddings.weight")?,
            token_type0: types[..config.hidden].to_vec(),
            ln: pair("embeddings.LayerNorm", "weight", "bias")?,
            layers,
        })
    }

    /// The embedding layer's output for `ids`: `[seq, hidden]`.
    pub fn embed_ids(&self, ids: &[u32]) -> Vec<f32> {
        let h = self.config.hidden;
        let mut x = vec![0.0f32; ids.len() * h];
        for (pos, &id) in ids.iter().enumerate() {
            let id = (id as usize).min(self.config.vocab - 1);
            for d in 0..h {
                x[pos * h + d] = self.word[id * h + d]
                    + self.position[pos.min(self.config.max_positions - 1) * h + d]
                    + self.token_type0[d];
            }
        }
        layer_norm(&mut x, h, &self.ln.0, &self.ln.1, LAYER_NORM_EPS);
        x
    }

    /// One encoder layer, `[seq, hidden]` to `[seq, hidden]`.
    pub fn layer(&self, l: &Layer, x: &[f32], seq: usize) -> Vec<f32> {
        let c = self.config;
        let h = c.hidden;
        let q = linear(x, seq, h, &l.q.0, &l.q.1, h);
        let k = linear(x, seq, h, &l.k.0, &l.k.1, h);
        let v = linear(x, seq, h, &l.v.0, &l.v.1, h);
        let ctx = attention(&q, &k, &v, seq, c.heads, h / c.heads);
        let mut a = linear(&ctx, seq, h, &l.o.0, &l.o.1, h);
        for (ai, xi) in a.iter_mut().zip(x) {
            *ai += xi;
        }
        layer_norm(&mut a, h, &l.ln1.0, &l.ln1.1, LAYER_NORM_EPS);
        let mut up = linear(&a, seq, h, &l.up.0, &l.up.1, c.intermediate);
        gelu(&mut up);
        let mut down = linear(&up, seq, c.intermediate, &l.down.0, &l.down.1, h);
        for (di, ai) in down.iter_mut().zip(&a) {
            *di += ai;
        }
        layer_norm(&mut down, h, &l.ln2.0, &l.ln2.1, LAYER_NORM_EPS);
        down
    }

    /// The sentence embedding of `ids`.
    pub fn forward(&self, ids: &[u32]) -> Vec<f32> {
        let mut x = self.embed_ids(ids);
        for l in &self.layers {
            x = self.layer(l, &x, ids.len());
        }
        mean_pool_normalize(&x, ids.len(), self.config.hidden)
    }
}

/// The CPU reference embedder: tokenizer plus model.
#[derive(Debug, Clone)]
pub struct CpuEmbedder {
    /// The tokenizer.
    pub tokenizer: WordPiece,
    /// The model.
    pub model: Model,
}

impl Embedder for CpuEmbedder {
    fn embed(&self, texts: &[String]) -> Vec<Vec<f32>> {
        texts
            .iter()
            .map(|t| self.model.forward(&self.tokenizer.encode(t)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_on_small_inputs() {
        let y = linear(&[1.0, 2.0], 1, 2, &[1.0, 0.0, 0.5, 0.5], &[0.0, 1.0], 2);
        assert_eq!(y, vec![1.0, 2.5]);
        let mut x = vec![1.0, 3.0];
        layer_norm(&mut x, 2, &[1.0, 1.0], &[0.0, 0.0], 1e-12);
        assert!((x[0] + 1.0).abs() < 1e-5 && (x[1] - 1.0).abs() < 1e-5);
        assert!((erf(0.5) - 0.520_499_9).abs() < 1e-6);
        assert!((erf(-2.0) + 0.995_322_3).abs() < 1e-6);
        let mut g = vec![0.0, 1.0];
        gelu(&mut g);
        assert!((g[1] - 0.841_344_7).abs() < 1e-6);
        // One token attends to itself only.
        assert_eq!(
            attention(&[1.0, 2.0], &[3.0, 4.0], &[5.0, 6.0], 1, 1, 2),
            vec![5.0, 6.0]
        );
        let p = mean_pool_normalize(&[3.0, 0.0, 3.0, 8.0], 2, 2);
        assert!((p[0] - 0.6).abs() < 1e-6 && (p[1] - 0.8).abs() < 1e-6);
    }
}
