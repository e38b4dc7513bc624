//! f32 functions both models compute with, once: the embedding router's GELU and softmax and
//! the decoder's SiLU and softmax, and the 16-bit quantization of both models' activations;
//! and the decoder's seeded draw of a token ([`sampling`]).

pub mod sampling;

/// `eˣ` for `x ≤ 0`, in f32 without a call: `2ⁿ · 2ᶠ` with `n` the integer part of `x·log₂e`
/// (put in the exponent bits) and `2ᶠ` a degree-6 polynomial on `[-1, 0]` (relative error
/// under 2e-7, tested). libm's `expf` is a call wasm cannot inline: in the embedding router GELU
/// and the softmax took about a tenth of a request in it, and in the decoder SiLU and the
/// softmax (a call each natively too).
#[inline(always)]
pub fn exp_nonpositive(x: f32) -> f32 {
    let y = (x * std::f32::consts::LOG2_E).max(-126.0);
    // floor(y), exactly, from a truncating conversion: `f32::floor` is a call to libm's
    // `floorf` on x86-64 without SSE4.1 (the decoder's SiLU runs there).
    let t = y as i32;
    let n = t - i32::from((t as f32) > y);
    let f = y - n as f32;
    // 2^f on [0, 1): a least-squares fit on Chebyshev nodes (error 2.6e-9 in f64).
    let p = 1.0
        + f * (0.693_146_93
            + f * (0.240_230_5
                + f * (0.055_480_43
                    + f * (0.009_684_577 + f * (0.001_238_783 + f * 0.000_218_775_17)))));
    f32::from_bits(((n + 127) as u32) << 23) * p
}

/// Numerical Recipes' `erfcc` (Chebyshev fit, fractional error below 1.2e-7 everywhere): the
/// coefficients of the polynomial in `t = 1 / (1 + |x|/2)` whose exponential, times `t`, is
/// `erfc(|x|)`, constant term first. The one copy of them: the sign test's normal tail and the
/// reference GELU evaluate this fit in f64, the fast GELU in f32 ([`ERFC_POLY_F32`]).
const ERFC_POLY: [f64; 10] = [
    -1.265_512_23,
    1.000_023_68,
    0.374_091_96,
    0.096_784_18,
    -0.186_288_06,
    0.278_868_07,
    -1.135_203_98,
    1.488_515_87,
    -0.822_152_23,
    0.170_872_77,
];

/// [`ERFC_POLY`] as the fast GELU has always rounded it to f32: each the f32 nearest the f64,
/// but the eighth one unit lower (`-0.8221522`, not `-0.82215226`). The i8 router's stored
/// benchmark cosines were made with these, and its integer kernel is exact: a one-unit change
/// here moves them past the test's 1e-5 (tested: the two tables agree but for that unit).
const ERFC_POLY_F32: [f32; 10] = [
    -1.265_512_2,
    1.000_023_7,
    0.374_091_96,
    0.096_784_18,
    -0.186_288_06,
    0.278_868_07,
    -1.135_204,
    1.488_515_9,
    -0.822_152_2,
    0.170_872_77,
];

/// The complementary error function in f64 ([`ERFC_POLY`]'s fit), evaluated as Numerical
/// Recipes writes it: `t · exp(-z² + c₀ + t·(c₁ + t·(…)))`, left to right.
pub fn erfc(x: f64) -> f64 {
    let r = erfc_of_abs(x);
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The error function in f64, from the same fit (`1 - erfc`, or `erfc(|x|) - 1` below zero,
/// as Numerical Recipes' `erf` takes it).
pub fn erf(x: f64) -> f64 {
    let r = erfc_of_abs(x);
    if x >= 0.0 { 1.0 - r } else { r - 1.0 }
}

/// `erfc(|x|)`.
fn erfc_of_abs(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let rest = ERFC_POLY[1..].iter().rev().fold(0.0, |acc, c| c + t * acc);
    t * (-z * z + ERFC_POLY[0] + t * rest).exp()
}

/// `erf(x)` in f32 through [`exp_nonpositive`] (no libm call, which wasm cannot inline), with
/// the same fit as [`erfc`] in f32 ([`ERFC_POLY_F32`]), in the same order.
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    let a = x.abs();
    let t = 1.0 / (1.0 + 0.5 * a);
    let mut rest = 0.0f32;
    let mut i = ERFC_POLY_F32.len();
    // A `while` so that the loop unrolls in a const-sized way in every build profile.
    while i > 1 {
        i -= 1;
        rest = ERFC_POLY_F32[i] + t * rest;
    }
    let y = t * exp_nonpositive(-a * a + ERFC_POLY_F32[0] + t * rest);
    if x >= 0.0 { 1.0 - y } else { y - 1.0 }
}

/// `x · σ(x)` (SiLU), through [`exp_nonpositive`] of `-|x|`: `σ(x) = 1 / (1 + e⁻ˣ)` for
/// `x ≥ 0` and `eˣ / (1 + eˣ)` below, so the exponential never overflows.
#[inline(always)]
pub fn silu(x: f32) -> f32 {
    let e = exp_nonpositive(-x.abs());
    let sigmoid = if x >= 0.0 {
        1.0 / (1.0 + e)
    } else {
        e / (1.0 + e)
    };
    x * sigmoid
}

/// The most a 16-bit activation holds: a block's largest |value| maps to it.
pub const I16_TOP: f32 = 32767.0;

/// One block's symmetric 16-bit quantization, as both models' integer products take their
/// activations: the scale `max|x| / 32767` (what an integer stands for) and its reciprocal
/// (what each value is multiplied by before [`to_i16`]); both 0 for a block of zeros.
#[inline(always)]
pub fn i16_block_scale(block: &[f32]) -> (f32, f32) {
    let amax = block.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    (
        amax / I16_TOP,
        if amax > 0.0 { I16_TOP / amax } else { 0.0 },
    )
}

/// `v` in a block's 16-bit integers (`inv` from [`i16_block_scale`]), rounding ties to even:
/// one instruction natively (`vroundps`) and in wasm (`f32.nearest`), where `round` is a call.
/// `as` saturates, but |v · inv| ≤ 32767 up to rounding, so it never has to.
#[inline(always)]
pub fn to_i16(v: f32, inv: f32) -> i16 {
    (v * inv).round_ties_even() as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fit against known values of erf (Abramowitz and Stegun, table 7.1), in both widths.
    #[test]
    fn erf_and_erfc_match_the_tables() {
        for (x, erf_x) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
        ] {
            for sign in [1.0, -1.0] {
                assert!(
                    (erfc(sign * x) - (1.0 - sign * erf_x)).abs() < 2e-7,
                    "erfc({})",
                    sign * x
                );
                assert!(
                    (erf_f32((sign * x) as f32) as f64 - sign * erf_x).abs() < 1e-6,
                    "erf({})",
                    sign * x
                );
            }
        }
    }

    /// The f32 table is the f64 one rounded, but for the one unit the fast GELU always had.
    #[test]
    fn the_f32_fit_is_the_f64_fit_rounded() {
        for (i, (wide, narrow)) in ERFC_POLY.iter().zip(ERFC_POLY_F32).enumerate() {
            let rounded = *wide as f32;
            if i == 8 {
                assert_eq!(f32::from_bits(rounded.to_bits() - 1), narrow);
            } else {
                assert_eq!(rounded, narrow, "coefficient {i}");
            }
        }
    }

    #[test]
    fn exp_without_libm_is_close() {
        let mut worst = 0.0f64;
        for i in 0..=100_000 {
            let x = -(i as f32) / 1000.0;
            let want = (x as f64).exp();
            let got = exp_nonpositive(x) as f64;
            worst = worst.max(
                ((got - want) / want.max(1e-30))
                    .abs()
                    .min((got - want).abs() * 1e6),
            );
        }
        assert!(worst <= 1e-6, "worst relative error {worst:e}");
        assert_eq!(exp_nonpositive(0.0), 1.0);
        assert!(exp_nonpositive(-200.0) < 1e-37);
    }

    #[test]
    fn a_block_quantizes_to_the_full_16_bits() {
        let block: Vec<f32> = (0..32).map(|i| (i as f32 - 12.5) * 0.3).collect();
        let (scale, inv) = i16_block_scale(&block);
        let q: Vec<i16> = block.iter().map(|&v| to_i16(v, inv)).collect();
        assert_eq!(q.iter().map(|v| v.unsigned_abs()).max(), Some(32767));
        for (v, q) in block.iter().zip(&q) {
            assert!((f32::from(*q) * scale - v).abs() <= scale * 0.5 + 1e-6);
        }
        assert_eq!(i16_block_scale(&[0.0; 32]), (0.0, 0.0));
        assert_eq!(to_i16(2.5, 1.0), 2);
        assert_eq!(to_i16(3.5, 1.0), 4);
    }

    #[test]
    fn silu_is_close_to_its_definition() {
        let mut worst = 0.0f64;
        for i in -40_000..=40_000 {
            let x = i as f32 / 1000.0;
            let want = x as f64 / (1.0 + (-(x as f64)).exp());
            worst = worst.max((silu(x) as f64 - want).abs() / want.abs().max(1e-3));
        }
        assert!(worst <= 1e-6, "worst relative error {worst:e}");
        assert_eq!(silu(0.0), 0.0);
        assert!(silu(-200.0).abs() < 1e-30);
        assert_eq!(silu(200.0), 200.0);
    }
}
