//! Seeded sampling for a decoder's repeated runs (skill-creator runs each query 3 times and
//! counts the share of runs that use the skill): each (query, run) gets a seed of its own, and
//! the decoder draws its tokens with it (`skillpg_math::sampling`, re-exported here).

pub use skillpg_math::sampling::{Sampling, SplitMix64, draw};

/// The seed of run `run` of query `query` under the lab's `seed`: each (query, run) draws its
/// own stream, so a run does not depend on which queries ran before it.
pub fn run_seed(seed: u64, query: usize, run: usize) -> u64 {
    let mut g = SplitMix64(
        seed ^ (query as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)
            ^ (run as u64).wrapping_mul(0x8CB9_2BA7_2F3D_8DD7),
    );
    g.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_have_their_own_streams() {
        assert_eq!(run_seed(42, 3, 1), run_seed(42, 3, 1));
        assert_ne!(run_seed(42, 3, 1), run_seed(42, 3, 2));
        assert_ne!(run_seed(42, 3, 1), run_seed(42, 4, 1));
        assert_ne!(run_seed(42, 3, 1), run_seed(43, 3, 1));
    }
}
