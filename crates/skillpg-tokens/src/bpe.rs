//! o200k_base's byte-pair encoding over the compact vocabulary, without copying it: ranks are
//! looked up by byte slices of the embedded blob, and a piece is merged lowest rank first, as
//! tiktoken's `_byte_pair_merge` does.

use rustc_hash::FxHashMap as HashMap;

use crate::pretokenize;

/// A token's rank, which is its id.
pub type Rank = u32;

/// The vocabulary: bytes to rank, and rank to bytes, both borrowing the embedded blob.
pub struct Encoder {
    /// Longer tokens, keyed by their bytes.
    ranks: HashMap<&'static [u8], Rank>,
    tokens: Vec<&'static [u8]>,
    /// The rank of every two-byte token, indexed by `first << 8 | second` (`Rank::MAX` when
    /// the pair is no token): most lookups of a merge are pairs, and an array beats a hash.
    pairs: Vec<Rank>,
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Encoder({} tokens)", self.tokens.len())
    }
}

impl Encoder {
    /// Reads the compact vocabulary: for each rank in order, one length byte then the bytes.
    pub fn from_compact(blob: &'static [u8], n_tokens: usize) -> Encoder {
        let mut ranks = HashMap::with_capacity_and_hasher(n_tokens, Default::default());
        let mut tokens = Vec::with_capacity(n_tokens);
        let mut pairs = vec![Rank::MAX; 1 << 16];
        let mut idx = 0usize;
        while idx < blob.len() {
            let len = blob[idx] as usize;
            let end = (idx + 1 + len).min(blob.len());
            let bytes = &blob[idx + 1..end];
            let rank = tokens.len() as Rank;
            if let [a, b] = bytes {
                pairs[(*a as usize) << 8 | *b as usize] = rank;
            }
            ranks.insert(bytes, rank);
            tokens.push(bytes);
            idx = end;
        }
        Encoder {
            ranks,
            tokens,
            pairs,
        }
    }

    /// The bytes of token `rank`, if it exists.
    pub fn token(&self, rank: Rank) -> Option<&'static [u8]> {
        self.tokens.get(rank as usize).copied()
    }

    /// Every token of `text` (tiktoken's `encode_ordinary`).
    pub fn encode(&self, text: &str) -> Vec<Rank> {
        let mut out = Vec::with_capacity(text.len() / 4 + 1);
        pretokenize::pieces(text, |piece| self.encode_piece(piece.as_bytes(), &mut out));
        out
    }

    /// How many tokens `text` has, without collecting them.
    pub fn count(&self, text: &str) -> usize {
        let mut n = 0;
        let mut scratch = Vec::new();
        pretokenize::pieces(text, |piece| {
            let bytes = piece.as_bytes();
            if self.lookup(bytes).is_some() {
                n += 1;
            } else {
                n += self.merge(bytes, &mut scratch).len() - 1;
            }
        });
        n
    }

    fn encode_piece(&self, piece: &[u8], out: &mut Vec<Rank>) {
        if let Some(rank) = self.lookup(piece) {
            out.push(rank);
            return;
        }
        let mut parts = Vec::new();
        let bounds = self.merge(piece, &mut parts);
        for w in bounds.windows(2) {
            // Every merged part is a token: BPE only ever joins into known tokens, and every
            // single byte is one.
            out.push(self.lookup(&piece[w[0].0..w[1].0]).unwrap_or(Rank::MAX));
        }
    }

    /// The rank of `piece[a..b]`, or none.
    fn rank(&self, bytes: &[u8]) -> Rank {
        match bytes {
            [a, b] => self.pairs[(*a as usize) << 8 | *b as usize],
            _ => self.lookup(bytes).unwrap_or(Rank::MAX),
        }
    }

    /// The rank of the token `bytes`, if it is one.
    #[inline]
    fn lookup(&self, bytes: &[u8]) -> Option<Rank> {
        self.ranks.get(bytes).copied()
    }

    /// tiktoken's `_byte_pair_merge`: the part boundaries of `piece` (start offsets, with
    /// `piece.len()` last) after merging the lowest-ranked adjacent pair until none is a token.
    fn merge<'p>(&self, piece: &[u8], parts: &'p mut Vec<(usize, Rank)>) -> &'p [(usize, Rank)] {
        parts.clear();
        if piece.len() < 2 {
            parts.push((0, Rank::MAX));
            parts.push((piece.len(), Rank::MAX));
            return parts;
        }
        let mut min_rank: (Rank, usize) = (Rank::MAX, usize::MAX);
        for i in 0..piece.len() - 1 {
            let rank = self.rank(&piece[i..i + 2]);
            if rank < min_rank.0 {
                min_rank = (rank, i);
            }
            parts.push((i, rank));
        }
        parts.push((piece.len() - 1, Rank::MAX));
        parts.push((piece.len(), Rank::MAX));
        let get_rank = |parts: &Vec<(usize, Rank)>, i: usize| -> Rank {
            if i + 3 < parts.len() {
                self.rank(&piece[parts[i].0..parts[i + 3].0])
            } else {
                Rank::MAX
            }
        };
        while min_rank.0 != Rank::MAX {
            let i = min_rank.1;
            if i > 0 {
                parts[i - 1].1 = get_rank(parts, i - 1);
            }
            parts[i].1 = get_rank(parts, i);
            parts.remove(i + 1);
            min_rank = (Rank::MAX, usize::MAX);
            for (i, &(_, rank)) in parts[..parts.len() - 1].iter().enumerate() {
                if rank < min_rank.0 {
                    min_rank = (rank, i);
                }
            }
        }
        parts
    }
}
