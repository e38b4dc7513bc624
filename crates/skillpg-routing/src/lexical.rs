//! Word overlap, the preview's second signal: BM25 over each skill's `name: description`,
//! and the per-request fusion of two routers' scores. The page's router fuses the embedding's
//! cosines with BM25 ([`crate::decide::fused_matrix`]); the routing benchmark compares each
//! alone and fused ([`crate::bench`]).

use std::collections::{BTreeSet, HashMap};

/// The words BM25 counts: lowercase runs of letters and digits, without the commonest
/// English words (which say nothing of a skill).
pub fn words(text: &str) -> Vec<String> {
    const STOP: &[&str] = &[
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "how", "i",
        "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "that", "the", "this", "to",
        "use", "we", "what", "when", "with", "you", "your",
    ];
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOP.contains(&w.as_str()))
        .collect()
}

/// Okapi BM25 over a suite's skills (each skill's `name: description` one document), with the
/// usual k1 = 1.2, b = 0.75 and the non-negative IDF `ln(1 + (N - n + 0.5) / (n + 0.5))`.
#[derive(Debug, Clone)]
pub struct Bm25 {
    docs: Vec<HashMap<String, u32>>,
    lengths: Vec<f32>,
    idf: HashMap<String, f32>,
    average: f32,
}

impl Bm25 {
    const K1: f32 = 1.2;
    const B: f32 = 0.75;

    pub fn new(documents: &[String]) -> Bm25 {
        let mut docs = Vec::with_capacity(documents.len());
        let mut lengths = Vec::with_capacity(documents.len());
        let mut df: HashMap<String, u32> = HashMap::new();
        for d in documents {
            let mut tf: HashMap<String, u32> = HashMap::new();
            let ws = words(d);
            lengths.push(ws.len() as f32);
            for w in ws {
                *tf.entry(w).or_default() += 1;
            }
            for w in tf.keys() {
                *df.entry(w.clone()).or_default() += 1;
            }
            docs.push(tf);
        }
        let n = documents.len() as f32;
        let idf = df
            .into_iter()
            .map(|(w, k)| {
                // In f64, rounded to f32: the page's wasm and the CLI take `ln` from different
                // libraries, which may differ in the last bit of an f32 result, and the page
                // and `skillpg eval` must agree to the bit.
                let (n, k) = (f64::from(n), f64::from(k));
                (w, (1.0 + (n - k + 0.5) / (k + 0.5)).ln() as f32)
            })
            .collect();
        let average = if lengths.is_empty() {
            0.0
        } else {
            lengths.iter().sum::<f32>() / n
        };
        Bm25 {
            docs,
            lengths,
            idf,
            average,
        }
    }

    /// Each document's score for `query`.
    pub fn scores(&self, query: &str) -> Vec<f32> {
        let q: BTreeSet<String> = words(query).into_iter().collect();
        self.docs
            .iter()
            .zip(&self.lengths)
            .map(|(tf, &len)| {
                let norm = if self.average > 0.0 {
                    1.0 - Self::B + Self::B * len / self.average
                } else {
                    1.0
                };
                q.iter()
                    .filter_map(|w| {
                        let f = *tf.get(w)? as f32;
                        Some(self.idf[w] * f * (Self::K1 + 1.0) / (f + Self::K1 * norm))
                    })
                    .sum()
            })
            .collect()
    }
}

/// Two routers' scores for one request, fused: each row scaled to [0, 1] (min to max), then
/// `(1 - w) * a + w * b`. A row with one value, or all values equal, scales to zeros.
pub fn fuse(a: &[f32], b: &[f32], w: f32) -> Vec<f32> {
    fn scaled(row: &[f32]) -> Vec<f32> {
        let lo = row.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        row.iter()
            .map(|&x| if hi > lo { (x - lo) / (hi - lo) } else { 0.0 })
            .collect()
    }
    scaled(a)
        .into_iter()
        .zip(scaled(b))
        .map(|(x, y)| (1.0 - w) * x + w * y)
        .collect()
}
