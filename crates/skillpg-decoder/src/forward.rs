//! What the routing protocol needs of a model, whatever runs it: a forward pass over a key/value
//! cache that it owns, which can be cut back to a prefix. The CPU path ([`CpuForward`]) answers
//! at once; the GPU path (`skillpg-gpu`) answers when the device has read its results back, which
//! in a browser is a later turn of the event loop, so the pass is a future on both.
//!
//! Invariants (every backend):
//! - `forward` appends exactly `ids.len()` positions to the cache and returns the logits asked
//!   for, `vocab` values a position, in order;
//! - `truncate(len)` leaves exactly the cache that `len` positions had.

use std::borrow::Borrow;
use std::future::Future;

use crate::model::{Config, Decoder, KvCache, Logits};

/// A decoder with its own key/value cache.
pub trait Forward {
    /// The model's shape.
    fn config(&self) -> Config;
    /// Positions in the cache.
    fn cached(&self) -> usize;
    /// Forgets every position from `len` on.
    fn truncate(&mut self, len: usize);
    /// Runs `ids` after the cached positions; `Err` when the device failed.
    fn forward(&mut self, ids: &[u32], logits: Logits) -> impl Future<Output = Result<Vec<f32>, String>>;
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

    fn forward(&mut self, ids: &[u32], logits: Logits) -> impl Future<Output = Result<Vec<f32>, String>> {
        std::future::ready(Ok(self.model.borrow().forward(&mut self.cache, ids, logits)))
    }
}

/// The output of a future that is already done (the CPU path's); `Err` when it is still waiting
/// on something (a GPU read-back: drive it with an executor instead).
pub fn now<F: Future>(future: F) -> Result<F::Output, String> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => Ok(out),
        std::task::Poll::Pending => Err("the forward pass did not finish at once: it needs an executor (a GPU backend)".to_owned()),
    }
}
