//! The generated cases' one source of choices, shared by the differential tests (this crate's
//! `skills_ref_differential.rs` and `yaml_libraries.rs`, and `client_oracles.rs` through a
//! `#[path]`): a tiny deterministic generator (xorshift), so the cases are the same on every
//! run.

#![allow(dead_code, reason = "each test uses the part it needs")]

/// xorshift64 from a seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }

    /// True once in `in_n` draws, on average.
    pub fn chance(&mut self, in_n: u64) -> bool {
        self.next().is_multiple_of(in_n)
    }
}
