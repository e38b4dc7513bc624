//! Seeded sampling of a decoder's tokens. The same seed gives the same draws on every machine: a
//! draw is SplitMix64's, and a token is chosen from the softmax of the logits over the
//! temperature, summed in `f64` in vocabulary order. The experiment (`skillpg_routing::sampling`)
//! gives each of a query's repeated runs its seed; the decoder draws with it.

use serde::{Deserialize, Serialize};

/// How a decoder picks each token of its answer after the first greedy step is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sampling {
    /// Softmax temperature; 0 is greedy.
    pub temperature: f32,
    /// The run's seed (the experiment's `run_seed`).
    pub seed: u64,
}

/// SplitMix64: a small, well-mixed generator whose output is fixed by its seed.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1) with 53 bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The index of the largest logit (the first among equals).
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = 0;
    for (i, l) in logits.iter().enumerate() {
        if *l > logits[best] {
            best = i;
        }
    }
    best as u32
}

/// A token drawn from `logits` at `temperature` with `rng`; greedy at temperature 0 (or a
/// temperature that is not a positive number).
pub fn draw(logits: &[f32], temperature: f32, rng: &mut SplitMix64) -> u32 {
    if logits.is_empty() || !(temperature.is_finite() && temperature > 0.0) {
        return argmax(logits);
    }
    let t = f64::from(temperature);
    let max = f64::from(logits[argmax(logits) as usize]);
    let weights: Vec<f64> = logits
        .iter()
        .map(|&l| ((f64::from(l) - max) / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut target = rng.next_f64() * total;
    for (i, w) in weights.iter().enumerate() {
        if target < *w {
            return i as u32;
        }
        target -= w;
    }
    argmax(logits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_tokens_and_zero_is_greedy() {
        let logits = [1.0f32, 2.0, 0.5, 1.9];
        let draws = |seed| {
            let mut rng = SplitMix64(seed);
            (0..50)
                .map(|_| draw(&logits, 0.7, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draws(1), draws(1));
        assert_ne!(draws(1), draws(2));
        let mut rng = SplitMix64(9);
        assert!(
            (0..20).all(|_| draw(&logits, 0.0, &mut rng) == 1),
            "temperature 0 is greedy"
        );
        assert_eq!(argmax(&[0.0, 3.0, 3.0]), 1, "the first of equals");
    }

    #[test]
    fn draws_follow_the_softmax() {
        let logits = [0.0f32, (3.0f32).ln()];
        let mut rng = SplitMix64(5);
        let ones = (0..20_000)
            .filter(|_| draw(&logits, 1.0, &mut rng) == 1)
            .count();
        // p = 3/4; 20,000 draws: within 1.5 percentage points.
        assert!((ones as f64 / 20_000.0 - 0.75).abs() < 0.015, "{ones}");
    }
}
