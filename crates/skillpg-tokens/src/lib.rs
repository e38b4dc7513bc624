//! o200k_base token counts and token segments for display.
//!
//! Every number this crate returns is an o200k_base count (OpenAI's encoding, as tiktoken 0.14 and
//! tiktoken-rs 0.12 produce it: the tests compare the ids with tiktoken-rs's).
//! Other vendors' tokenizers differ: callers must label these counts as approximations.
//!
//! The encoder is built once per process on first use, from the embedded compact vocabulary,
//! which it borrows (a few milliseconds natively).

use std::sync::OnceLock;

use rustc_hash::FxHashMap as HashMap;
use unicode_segmentation::UnicodeSegmentation;

mod bpe;
mod pretokenize;

use pretokenize::is_piece_boundary;

/// A token id of o200k_base.
pub type TokenId = u32;

/// A run of text that the view shows as one segment.
///
/// Usually one token.
/// When a token ends inside a grapheme (an emoji split into byte tokens, say), the segment
/// extends to the next grapheme boundary and holds every token that overlaps it, so a segment
/// never splits a grapheme and the segments always re-join to the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Byte offset of the first byte in the input text.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// The token ids of this segment, in order.
    pub ids: Vec<TokenId>,
}

/// The number of ordinary (non-special) tokens of o200k_base: ranks 0 to 199,997.
pub const N_ORDINARY: u32 = 199_998;

/// o200k_base's vocabulary as one length byte and the token's bytes per rank, in rank order
/// (written by `examples/make_vocab.rs` from tiktoken-rs; `tests/vocab_identity.rs` proves
/// the encoder built from it gives tiktoken-rs's ids).
static VOCAB: &[u8] = include_bytes!("../data/o200k_base.bin");

/// The encoder, built on first use from the embedded compact vocabulary (borrowed, not copied).
fn encoder() -> &'static bpe::Encoder {
    static ENCODER: OnceLock<bpe::Encoder> = OnceLock::new();
    ENCODER.get_or_init(|| bpe::Encoder::from_compact(VOCAB, N_ORDINARY as usize))
}

/// Builds the encoder now, so that a later call is not the one that pays for it.
pub fn warm_up() {
    let _ = encoder();
}

/// The o200k_base token ids of `text`, with special tokens treated as ordinary text.
pub fn encode(text: &str) -> Vec<TokenId> {
    encoder().encode(text)
}

/// The number of o200k_base tokens in `text`.
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    encoder().count(text)
}

/// The parts of `text` that [`count_cached`] counts one by one: cut at piece boundaries chosen
/// by content (after a line whose hash ends in three zero bits, or once a part passes 16 KiB),
/// so an edit changes only the parts around it and the others keep their cached counts.
pub fn chunks(text: &str) -> Vec<&str> {
    use std::hash::{BuildHasher, Hasher};
    const FORCE_AFTER: usize = 16 * 1024;
    let mut res = Vec::new();
    let mut start = 0;
    let mut line_start = 0;
    for (idx, _) in text.match_indices('\n') {
        let at = idx + 1;
        let mut h = rustc_hash::FxBuildHasher.build_hasher();
        h.write(&text.as_bytes()[line_start..at]);
        line_start = at;
        if (h.finish() >> 61 == 0 || at - start >= FORCE_AFTER) && is_piece_boundary(text, at) {
            res.push(&text[start..at]);
            start = at;
        }
    }
    res.push(&text[start..]);
    res
}

/// The shortest prefix of `text` at least `min_len` bytes long that ends at a piece boundary
/// (or the whole text): its tokens are exactly the first tokens of `text`, so a view can cut a
/// long file into its first segments without tokenizing all of it.
pub fn prefix_at_piece_boundary(text: &str, min_len: usize) -> &str {
    if text.len() <= min_len {
        return text;
    }
    let mut at = min_len;
    while !text.is_char_boundary(at) {
        at += 1;
    }
    while at < text.len() {
        if is_piece_boundary(text, at) {
            return &text[..at];
        }
        at += text[at..]
            .find('\n')
            .map(|i| i + 1)
            .unwrap_or(text.len() - at);
    }
    text
}

/// The tokens of `text`, counted part by part (cut at piece boundaries, so each partial sum is
/// the exact count of a prefix) and stopping once past `limit`: the result is exact when it is
/// at most `limit`, and otherwise a count of a prefix that already exceeds it. A check that only
/// needs to know "over 10,000?" stops there.
pub fn count_at_most(text: &str, limit: usize) -> usize {
    const PART: usize = 8 * 1024;
    let mut total = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let part = prefix_at_piece_boundary(rest, PART);
        total += count(part);
        rest = &rest[part.len()..];
        if total > limit {
            break;
        }
    }
    total
}

/// Whether [`count_cached`] remembers counts: off by default (a command-line run reads each
/// text once, and hashing it would be wasted), on in the page, where the same files are
/// counted again on every edit.
static CACHE_ON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Turns on the cache of [`count_cached`] for this process.
pub fn enable_count_cache() {
    CACHE_ON.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// [`count`], remembering the counts of the parts of long texts: after an edit, only the parts
/// that changed are tokenized again (typing in a 5 MB SKILL.md re-counts a few lines, not 5 MB).
/// Always equal to `count(text)`.
pub fn count_cached(text: &str) -> usize {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::Mutex;
    const SHORT: usize = 4 * 1024;
    const MAX_ENTRIES: usize = 1 << 18;
    static CACHE: OnceLock<Mutex<HashMap<(u64, usize), usize>>> = OnceLock::new();
    if text.len() <= SHORT || !CACHE_ON.load(std::sync::atomic::Ordering::Relaxed) {
        return count(text);
    }
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::default()));
    let mut total = 0;
    for part in chunks(text) {
        let mut h = rustc_hash::FxBuildHasher.build_hasher();
        h.write(part.as_bytes());
        let key = (h.finish(), part.len());
        let known = cache.lock().ok().and_then(|c| c.get(&key).copied());
        let n = match known {
            Some(n) => n,
            None => {
                let n = count(part);
                if let Ok(mut c) = cache.lock() {
                    if c.len() >= MAX_ENTRIES {
                        c.clear();
                    }
                    c.insert(key, n);
                }
                n
            }
        };
        total += n;
    }
    total
}

/// The bytes one token stands for (possibly part of a UTF-8 character).
pub fn token_bytes(id: TokenId) -> Vec<u8> {
    encoder().token(id).map(<[u8]>::to_vec).unwrap_or_default()
}

/// Splits `text` into grapheme-safe token segments that re-join to `text`.
pub fn segments(text: &str) -> Vec<Segment> {
    let ids = encode(text);
    let mut boundaries = text.grapheme_indices(true).map(|(idx, _)| idx).peekable();
    let mut res: Vec<Segment> = Vec::with_capacity(ids.len());
    let mut seg_start = 0usize;
    let mut offset = 0usize;
    let mut pending: Vec<TokenId> = Vec::new();
    for id in ids {
        offset += encoder().token(id).map(<[u8]>::len).unwrap_or(0);
        pending.push(id);
        // Advance the boundary cursor past everything before `offset`.
        while boundaries.peek().is_some_and(|&b| b < offset) {
            boundaries.next();
        }
        let at_boundary = offset >= text.len() || boundaries.peek() == Some(&offset);
        if at_boundary {
            res.push(Segment {
                start: seg_start,
                end: offset.min(text.len()),
                ids: std::mem::take(&mut pending),
            });
            seg_start = offset;
        }
    }
    if !pending.is_empty() {
        res.push(Segment {
            start: seg_start,
            end: text.len(),
            ids: pending,
        });
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello_world_is_two_tokens() {
        assert_eq!(count("hello world"), 2);
        assert_eq!(count(""), 0);
    }

    #[test]
    fn matches_tiktoken_reference_ids() {
        // Ids from tiktoken 0.14 (Python), o200k_base, encode_ordinary.
        assert_eq!(encode("hello world"), vec![24912, 2375]);
        assert!(
            encode("<|endoftext|>").len() > 1,
            "special tokens are ordinary text"
        );
    }

    #[test]
    fn segments_rejoin_and_never_split_graphemes() {
        let inputs = [
            "plain ascii text",
            "emoji 👩‍👩‍👧‍👦 family and 🇫🇷 flag",
            "CJK 漢字かな交じり文 and combining e\u{301}",
            "  whitespace\n\n\trun  ",
            "<|endoftext|> looks special",
            "",
        ];
        for text in inputs {
            let segs = segments(text);
            let joined: String = segs.iter().map(|s| &text[s.start..s.end]).collect();
            assert_eq!(joined, text);
            let n_ids: usize = segs.iter().map(|s| s.ids.len()).sum();
            assert_eq!(n_ids, count(text));
            for s in &segs {
                assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
                assert!(
                    text[s.start..]
                        .graphemes(true)
                        .next()
                        .is_none_or(|g| s.start + g.len() <= s.end || s.start == s.end)
                );
            }
        }
    }
}
