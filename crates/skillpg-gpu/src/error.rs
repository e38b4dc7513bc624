//! What can go wrong on the GPU, as data: there is no GPU to use, or the device failed at some
//! step (it could not take the model, plan a pass, run or read one back). The runtime's one
//! fallback reads the kind: a GPU that is unavailable or failed hands the model to the CPU path.
//! `Display` is the message alone, worded as before.

use skillpg_decoder::DecoderError;

/// A GPU failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// No adapter, or the adapter refused a device (no WebGPU, no GPU, a blocked driver).
    #[error("{0}")]
    Unavailable(String),
    /// The device failed: an upload past its limits or memory, a pass it could not plan, a poll
    /// or a read-back refused, a lost device.
    #[error("{0}")]
    Device(String),
}

/// Through [`skillpg_decoder::forward::Forward`], a GPU failure is the device's, whatever its
/// kind: the decoder's caller falls back the same way.
impl From<GpuError> for DecoderError {
    fn from(e: GpuError) -> DecoderError {
        DecoderError::Device(e.to_string())
    }
}
