//! What the routing protocol needs of a model, whatever runs it: a forward pass over a key/value
//! cache that it owns, which can be cut back to a prefix. The CPU path ([`CpuForward`]) answers
//! at once; the GPU path (`skillpg-gpu`) answers when the device has read its results back, which
//! in a browser is a later turn of the event loop, so the pass is a future on both.
//!
//! Invariants (every backend):
//! - `forward` appends exactly `ids.len()` positions to the cache and returns the logits asked
//!   for, `vocab` values a position, in order; so do `forward_argmax` and `forward_log_probs`,
//!   which return what the protocol reads of the logits (the greedy token; a few
//!   log-probabilities) and which a backend whose logits live elsewhere (a GPU) computes there,
//!   reading back a few bytes instead of the vocabulary;
//! - `truncate(len)` leaves exactly the cache that `len` positions had.

use std::borrow::Borrow;
use std::future::Future;

use crate::DecoderError;
use crate::model::{Config, Decoder, KvCache, Logits};

/// A decoder with its own key/value cache.
pub trait Forward {
    /// The model's shape.
    fn config(&self) -> Config;
    /// Positions in the cache.
    fn cached(&self) -> usize;
    /// Forgets every position from `len` on.
    fn truncate(&mut self, len: usize);
    /// Runs `ids` after the cached positions; `Err` ([`DecoderError::Device`]) when the device
    /// failed.
    fn forward(
        &mut self,
        ids: &[u32],
        logits: Logits,
    ) -> impl Future<Output = Result<Vec<f32>, DecoderError>>;

    /// Runs `ids` and returns the greedy next token: the last position's largest logit, the
    /// highest id among equals ([`argmax`]).
    fn forward_argmax(&mut self, ids: &[u32]) -> impl Future<Output = Result<u32, DecoderError>> {
        async move { Ok(argmax(&self.forward(ids, Logits::Last).await?)) }
    }

    /// Runs `ids` and returns, for each `(row, id)` of `wanted` (`row` a position of `ids`),
    /// the log-probability of `id` there: [`log_softmax_at`] of that position's logits.
    fn forward_log_probs(
        &mut self,
        ids: &[u32],
        wanted: &[(usize, u32)],
    ) -> impl Future<Output = Result<Vec<f32>, DecoderError>> {
        log_probs_from_logits(self, ids, wanted)
    }
}

/// The index of the largest value, the last among equals (as `Iterator::max_by` takes it): the
/// greedy step of every backend.
pub fn argmax(v: &[f32]) -> u32 {
    v.iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i as u32)
}

/// `log_softmax(logits)[id]` (-∞ for an id past the vocabulary).
pub fn log_softmax_at(logits: &[f32], id: u32) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
    logits
        .get(id as usize)
        .map_or(f32::NEG_INFINITY, |l| l - max - sum.ln())
}

/// [`Forward::forward_log_probs`] from the logits read whole: the last position's when every
/// wanted row is the last, every position's otherwise. What the CPU path does, and a GPU's
/// fallback for what its device kernels do not cover.
pub async fn log_probs_from_logits<F: Forward + ?Sized>(
    model: &mut F,
    ids: &[u32],
    wanted: &[(usize, u32)],
) -> Result<Vec<f32>, DecoderError> {
    if wanted.is_empty() || ids.is_empty() {
        model.forward(ids, Logits::None).await?;
        return Ok(Vec::new());
    }
    let last = ids.len() - 1;
    if wanted.iter().all(|&(row, _)| row == last) {
        let logits = model.forward(ids, Logits::Last).await?;
        return Ok(wanted
            .iter()
            .map(|&(_, id)| log_softmax_at(&logits, id))
            .collect());
    }
    let vocab = model.config().vocab;
    let logits = model.forward(ids, Logits::All).await?;
    Ok(wanted
        .iter()
        .map(|&(row, id)| {
            logits
                .get(row * vocab..(row + 1) * vocab)
                .map_or(f32::NEG_INFINITY, |l| log_softmax_at(l, id))
        })
        .collect())
}

/// The CPU forward pass ([`Decoder::forward`]) and its cache; `M` is the model or a reference
/// to it.
#[derive(Debug, Clone)]
pub struct CpuForward<M: Borrow<Decoder>> {
    model: M,
    cache: KvCache,
}

impl<M: Borrow<Decoder>> CpuForward<M> {
    /// The model with an empty cache.
    pub fn new(model: M) -> Self {
        let cache = model.borrow().cache();
        CpuForward { model, cache }
    }

    /// The model.
    pub fn model(&self) -> &Decoder {
        self.model.borrow()
    }

    /// The model back, its cache dropped.
    pub fn into_model(self) -> M {
        self.model
    }
}

impl<M: Borrow<Decoder>> Forward for CpuForward<M> {
    fn config(&self) -> Config {
        self.model.borrow().config
    }

    fn cached(&self) -> usize {
        self.cache.len()
    }

    fn truncate(&mut self, len: usize) {
        self.cache.truncate(len);
    }

    fn forward(
        &mut self,
        ids: &[u32],
        logits: Logits,
    ) -> impl Future<Output = Result<Vec<f32>, DecoderError>> {
        std::future::ready(Ok(self.model.borrow().forward(
            &mut self.cache,
            ids,
            logits,
        )))
    }
}

/// The output of a future that is already done (the CPU path's); `Err` when it is still waiting
/// on something (a GPU read-back: drive it with an executor instead).
pub fn now<F: Future>(future: F) -> Result<F::Output, DecoderError> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => Ok(out),
        std::task::Poll::Pending => Err(DecoderError::NotImmediate),
    }
}
