//! What the fast CPU path's kernels share, f32 and int8 alike: the panel width and the
//! epilogue that writes each block of outputs (bias, GELU, residual). Below both kernels
//! (`fast`, `q8`), so that neither names the other's internals.

/// Outputs per panel: two `f32x4` registers.
pub const NR: usize = 8;

/// What is done to each output as it is written.
#[derive(Debug, Clone, Copy)]
pub enum Epilogue<'a> {
    /// `y = x·Wᵀ + b`.
    Bias,
    /// `y = gelu(x·Wᵀ + b)`, the exact GELU.
    BiasGelu,
    /// `y = x·Wᵀ + b + residual` (`residual` is `[rows, n_out]`).
    BiasResidual(&'a [f32]),
}

pub use skillpg_math::exp_nonpositive;

/// The exact GELU, `x · Φ(x)`, with `erf` evaluated in f32 (the reference's `erf` works in f64,
/// whose `exp` wasm computes in software: about a tenth of a request's time went there).
/// Same fit as the reference's (`skillpg_math::erf_f32`); within 1e-6 of it over the range that
/// matters (tested).
pub fn gelu(v: f32) -> f32 {
    let erf = skillpg_math::erf_f32(v * std::f32::consts::FRAC_1_SQRT_2);
    0.5 * v * (1.0 + erf)
}

/// Writes one row's block of [`NR`] outputs (`acc`, before the bias) at output `o0`, applying
/// the epilogue; outputs past `n_out` (a partial last panel) are dropped.
#[inline(always)]
pub(crate) fn write_block(
    y: &mut [f32],
    n_out: usize,
    r: usize,
    o0: usize,
    acc: &[f32; NR],
    bias: &[f32],
    epilogue: Epilogue<'_>,
) {
    let width = NR.min(n_out - o0);
    let at = r * n_out + o0;
    let out = &mut y[at..at + width];
    match epilogue {
        Epilogue::Bias => out
            .iter_mut()
            .zip(acc)
            .zip(bias)
            .for_each(|((o, a), b)| *o = a + b),
        Epilogue::BiasGelu => out
            .iter_mut()
            .zip(acc)
            .zip(bias)
            .for_each(|((o, a), b)| *o = gelu(a + b)),
        Epilogue::BiasResidual(res) => {
            out.iter_mut()
                .zip(acc)
                .zip(bias)
                .zip(&res[at..at + width])
                .for_each(|(((o, a), b), s)| *o = a + b + s);
        }
    }
}
