//! o200k_base's byte-pair encoding over the compact vocabulary, without copying it: ranks are
//! looked up by byte slices of the embedded blob, and a piece is merged lowest rank first, as
//! tiktoken's `_byte_pair_merge` does.
//!
//! tiktoken's merge scans every part for the lowest rank after each merge, which is quadratic in
//! the piece's length: a piece is a run of one character class, so 300 KB of `x` (a share link
//! of a few hundred characters inflates to that) took 12 s and 1 MB over two minutes. A piece
//! longer than [`SCAN_MAX`] is merged with a heap of candidate pairs instead ([`merge_heap`]),
//! in O(n log n), with the same result: the heap pops the lowest rank, leftmost first, which is
//! the pair the scan would find (the unit tests hold the two to each other).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap as HashMap;

use crate::pretokenize;

/// A token's rank, which is its id.
pub type Rank = u32;

/// The longest piece merged by tiktoken's scan; longer ones go through the heap, whose
/// bookkeeping costs more than a scan of a short piece.
const SCAN_MAX: usize = 128;

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
        if piece.len() > SCAN_MAX {
            self.merge_heap(piece, parts);
            return parts;
        }
        self.merge_scan(piece, parts)
    }

    /// The merge as tiktoken writes it: a scan for the lowest rank after each merge.
    fn merge_scan<'p>(
        &self,
        piece: &[u8],
        parts: &'p mut Vec<(usize, Rank)>,
    ) -> &'p [(usize, Rank)] {
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

    /// The same merge with a heap of candidate pairs, `(rank, start)`, lowest first (so the
    /// leftmost of equal ranks, as the scan's strict `<` picks): parts are a linked list over
    /// their start offsets, and a merge pushes the two pairs it changed. An entry whose part is
    /// gone or whose rank has changed since is stale and skipped. Fills `parts` as `merge_scan`
    /// leaves it: each part's start, then `piece.len()`.
    fn merge_heap(&self, piece: &[u8], parts: &mut Vec<(usize, Rank)>) {
        let n = piece.len();
        // `next[i]`: the start of the part after the one starting at `i` (`n` at the end);
        // `prev[i]`: the one before (`usize::MAX` for the first).
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        // The rank of the part at `i` merged with the next one.
        let mut pair_rank = vec![Rank::MAX; n];
        let mut heap = BinaryHeap::with_capacity(n);
        for i in 0..n.saturating_sub(1) {
            let rank = self.rank(&piece[i..i + 2]);
            pair_rank[i] = rank;
            if rank != Rank::MAX {
                heap.push(Reverse((rank, i)));
            }
        }
        while let Some(Reverse((rank, i))) = heap.pop() {
            if !alive[i] || pair_rank[i] != rank {
                continue;
            }
            let j = next[i];
            let k = next[j];
            alive[j] = false;
            next[i] = k;
            if k < n {
                prev[k] = i;
            }
            pair_rank[i] = if k < n {
                self.rank(&piece[i..next[k]])
            } else {
                Rank::MAX
            };
            if pair_rank[i] != Rank::MAX {
                heap.push(Reverse((pair_rank[i], i)));
            }
            let p = prev[i];
            if p != usize::MAX {
                pair_rank[p] = self.rank(&piece[p..k]);
                if pair_rank[p] != Rank::MAX {
                    heap.push(Reverse((pair_rank[p], p)));
                }
            }
        }
        parts.clear();
        let mut at = 0;
        while at < n {
            parts.push((at, Rank::MAX));
            at = next[at];
        }
        parts.push((n, Rank::MAX));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(parts: &[(usize, Rank)]) -> Vec<usize> {
        parts.iter().map(|p| p.0).collect()
    }

    /// The heap's merge cuts every piece where tiktoken's scan does: runs of one byte (the
    /// pieces that made the scan quadratic), and random pieces over a small alphabet, whose
    /// many equal ranks test the leftmost-first rule.
    #[test]
    fn the_heap_merges_as_the_scan() {
        let enc = crate::encoder();
        let mut pieces: Vec<Vec<u8>> = Vec::new();
        for b in [b'x', b' ', b'.', b'-', b'=', b'1', b'\n', b'a', b'A'] {
            for len in [2, 3, 7, 64, 129, 300, 1000] {
                pieces.push(vec![b; len]);
            }
        }
        let alphabets: [&[u8]; 4] = [b"ab", b"xyz ", b"=-_*#", "é日ñ".as_bytes()];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for alphabet in alphabets {
            for len in [5usize, 40, 200, 700] {
                for _ in 0..20 {
                    let mut piece = Vec::with_capacity(len);
                    for _ in 0..len {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        piece.push(alphabet[(x % alphabet.len() as u64) as usize]);
                    }
                    pieces.push(piece);
                }
            }
        }
        let (mut scan, mut heap) = (Vec::new(), Vec::new());
        for piece in &pieces {
            enc.merge_scan(piece, &mut scan);
            enc.merge_heap(piece, &mut heap);
            assert_eq!(
                starts(&scan),
                starts(&heap),
                "{:?}",
                String::from_utf8_lossy(piece)
            );
        }
    }
}
