//! o200k_base's pre-tokenizer, written out by hand: the pieces the regular expression of
//! tiktoken (`O200K_BASE_PAT_STR`) cuts a text into, with the same leftmost-alternative and
//! backtracking semantics, without a regex engine (the lookahead needs `fancy-regex`, the
//! slowest part of tiktoken-rs here, and its compilation costs milliseconds per process).
//!
//! The pattern, alternative by alternative (U = Lu Lt Lm Lo M, L = Ll Lm Lo M):
//! 1. `[^\r\n\p{L}\p{N}]? U* L+ ('s|'t|'re|'ve|'m|'ll|'d)?` (contractions case-insensitive)
//! 2. `[^\r\n\p{L}\p{N}]? U+ L* ('s|...)?`
//! 3. `\p{N}{1,3}`
//! 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
//! 5. `\s*[\r\n]+`
//! 6. `\s+(?!\S)`
//! 7. `\s+`
//!
//! `tests/vocab_identity.rs` holds the whole encoder to tiktoken-rs's ids on the corpus and on
//! generated text that mixes every character class.

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// What the pattern distinguishes about a character.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Class {
    /// In U: Lu Lt Lm Lo or a mark.
    upper: bool,
    /// In L: Ll Lm Lo or a mark.
    lower: bool,
    /// `\p{L}`.
    letter: bool,
    /// `\p{N}`.
    number: bool,
    /// `\s` (Unicode White_Space).
    space: bool,
}

fn class(c: char) -> Class {
    if c.is_ascii() {
        let b = c as u8;
        return Class {
            upper: b.is_ascii_uppercase(),
            lower: b.is_ascii_lowercase(),
            letter: b.is_ascii_alphabetic(),
            number: b.is_ascii_digit(),
            // \s in ASCII: \t \n \v \f \r and space; also \x1c-\x1f are not White_Space.
            space: matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' '),
        };
    }
    use GeneralCategory as G;
    let cat = c.general_category();
    let mark = matches!(cat, G::NonspacingMark | G::SpacingMark | G::EnclosingMark);
    let (lu_lt, ll, lm_lo) = (
        matches!(cat, G::UppercaseLetter | G::TitlecaseLetter),
        cat == G::LowercaseLetter,
        matches!(cat, G::ModifierLetter | G::OtherLetter),
    );
    Class {
        upper: lu_lt || lm_lo || mark,
        lower: ll || lm_lo || mark,
        letter: lu_lt || ll || lm_lo,
        number: matches!(cat, G::DecimalNumber | G::LetterNumber | G::OtherNumber),
        space: c.is_whitespace(),
    }
}

/// The text as characters with their byte offsets and classes.
struct Chars<'a> {
    text: &'a str,
    offsets: Vec<usize>,
    chars: Vec<char>,
    classes: Vec<Class>,
}

impl<'a> Chars<'a> {
    fn new(text: &'a str) -> Chars<'a> {
        let n = text.len();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut chars = Vec::with_capacity(n);
        let mut classes = Vec::with_capacity(n);
        for (i, c) in text.char_indices() {
            offsets.push(i);
            chars.push(c);
            classes.push(class(c));
        }
        offsets.push(n);
        Chars {
            text,
            offsets,
            chars,
            classes,
        }
    }

    fn len(&self) -> usize {
        self.chars.len()
    }
}

/// Calls `f` with each piece of `text`, in order; the pieces re-join to `text`.
///
/// The text is cut where no piece can run across (see [`is_piece_boundary`]); each part that is
/// ASCII, as most lines of a skill are, takes a path over bytes with the same semantics and no
/// per-character tables.
pub fn pieces(text: &str, mut f: impl FnMut(&str)) {
    let mut start = 0;
    for (idx, _) in text.match_indices('\n') {
        let at = idx + 1;
        if at - start >= 256 && is_piece_boundary(text, at) {
            part_pieces(&text[start..at], &mut f);
            start = at;
        }
    }
    part_pieces(&text[start..], &mut f);
}

fn part_pieces(part: &str, f: &mut impl FnMut(&str)) {
    if part.is_ascii() {
        ascii_pieces(part, f);
    } else {
        unicode_pieces(part, f);
    }
}

/// Where o200k_base's pre-tokenizer always starts a new piece: right after a `\n` followed by a
/// character that is neither whitespace nor `/`. No piece of its pattern runs across such a
/// place (the newline pieces `\s*[\r\n]+` and the `[\r\n/]*` tail of punctuation stop before a
/// non-space that is not `/`; the word and number pieces never hold a newline), so a text cut
/// there gives the pieces of its parts, and its count is the sum of theirs. `tests/chunked.rs`
/// checks it on every text of the corpus.
pub fn is_piece_boundary(text: &str, at: usize) -> bool {
    at > 0
        && at < text.len()
        && text.is_char_boundary(at)
        && text.as_bytes()[at - 1] == b'\n'
        && text[at..]
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace() && c != '/')
}

/// [`pieces`] for any text: characters classified once, then matched alternative by alternative.
fn unicode_pieces(text: &str, f: &mut impl FnMut(&str)) {
    let cs = Chars::new(text);
    let mut i = 0;
    while i < cs.len() {
        let end = match_at(&cs, i);
        debug_assert!(end > i);
        let end = end.max(i + 1);
        f(&cs.text[cs.offsets[i]..cs.offsets[end]]);
        i = end;
    }
}

/// [`pieces`] for ASCII text. In ASCII the pattern's classes are disjoint (U is `A-Z`, L is
/// `a-z`), so the backtracking of `U* L+` never has to give a character back.
fn ascii_pieces(text: &str, f: &mut impl FnMut(&str)) {
    let b = text.as_bytes();
    let n = b.len();
    let space: fn(u8) -> bool = |c| matches!(c, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ');
    let punct: fn(u8) -> bool =
        |c| !matches!(c, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ') && !c.is_ascii_alphanumeric();
    let run = |k: usize, pred: fn(u8) -> bool| run_while(b, k, pred);
    // The ASCII `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` after `end`.
    let contraction = |end: usize| -> usize {
        if end + 1 >= n || b[end] != b'\'' {
            return end;
        }
        let lower = |k: usize| if k < n { b[k].to_ascii_lowercase() } else { 0 };
        match lower(end + 1) {
            b's' | b't' | b'm' | b'd' => end + 2,
            b'r' if lower(end + 2) == b'e' => end + 3,
            b'v' if lower(end + 2) == b'e' => end + 3,
            b'l' if lower(end + 2) == b'l' => end + 3,
            _ => end,
        }
    };
    // `U* L+` and `U+ L*` from `j`.
    let lower_first = |j: usize| -> Option<usize> {
        let u = run(j, |c| c.is_ascii_uppercase());
        (u < n && b[u].is_ascii_lowercase()).then(|| run(u, |c| c.is_ascii_lowercase()))
    };
    let upper_first = |j: usize| -> Option<usize> {
        let u = run(j, |c| c.is_ascii_uppercase());
        (u > j).then(|| run(u, |c| c.is_ascii_lowercase()))
    };
    let mut i = 0;
    while i < n {
        let c = b[i];
        let prefix = c != b'\r' && c != b'\n' && !c.is_ascii_alphanumeric();
        let letters = |body: &dyn Fn(usize) -> Option<usize>| -> Option<usize> {
            if prefix
                && i + 1 < n
                && let Some(end) = body(i + 1)
            {
                return Some(contraction(end));
            }
            body(i).map(contraction)
        };
        let end = letters(&lower_first)
            .or_else(|| letters(&upper_first))
            .or_else(|| {
                // At most three digits are looked at: scanning the whole run for each piece of
                // three made a long run of digits quadratic (256 KB took 6 s).
                c.is_ascii_digit()
                    .then(|| run_while(&b[..n.min(i + 3)], i, |c| c.is_ascii_digit()))
            })
            .or_else(|| {
                let start = if c == b' ' && i + 1 < n && punct(b[i + 1]) {
                    i + 1
                } else {
                    i
                };
                (start < n && punct(b[start]))
                    .then(|| run(run(start, punct), |c| matches!(c, b'\r' | b'\n' | b'/')))
            })
            .or_else(|| {
                let end = run(i, space);
                (end > i).then(
                    || match b[i..end].iter().rposition(|&c| c == b'\n' || c == b'\r') {
                        Some(last_break) => i + last_break + 1,
                        None if end == n || end - i == 1 => end,
                        None => end - 1,
                    },
                )
            })
            .unwrap_or(i + 1);
        f(&text[i..end]);
        i = end;
    }
}

/// The first index from `k` whose byte does not satisfy `pred`.
#[inline(always)]
fn run_while(b: &[u8], mut k: usize, pred: fn(u8) -> bool) -> usize {
    while k < b.len() && pred(b[k]) {
        k += 1;
    }
    k
}

/// The end (in characters) of the piece that starts at character `i`.
fn match_at(cs: &Chars, i: usize) -> usize {
    alt_letters(cs, i, true)
        .or_else(|| alt_letters(cs, i, false))
        .or_else(|| alt_numbers(cs, i))
        .or_else(|| alt_punctuation(cs, i))
        .or_else(|| alt_newlines(cs, i))
        .or_else(|| alt_spaces(cs, i))
        .unwrap_or(i + 1)
}

/// `[^\r\n\p{L}\p{N}]`.
fn prefix_eligible(cs: &Chars, i: usize) -> bool {
    let (c, k) = (cs.chars[i], cs.classes[i]);
    c != '\r' && c != '\n' && !k.letter && !k.number
}

/// Alternatives 1 (`lower_first`: `U* L+`) and 2 (`U+ L*`), each with the optional prefix
/// character and contraction suffix.
fn alt_letters(cs: &Chars, i: usize, lower_first: bool) -> Option<usize> {
    let body = |j: usize| {
        if lower_first {
            body_lower(cs, j)
        } else {
            body_upper(cs, j)
        }
    };
    // The optional prefix is greedy: with it first, then without it.
    if prefix_eligible(cs, i)
        && i + 1 < cs.len()
        && let Some(end) = body(i + 1)
    {
        return Some(contraction(cs, end));
    }
    body(i).map(|end| contraction(cs, end))
}

/// `U* L+` from `j`: the U run as long as possible, then backing off until an L follows.
fn body_lower(cs: &Chars, j: usize) -> Option<usize> {
    let n = cs.len();
    let mut u_end = j;
    while u_end < n && cs.classes[u_end].upper {
        u_end += 1;
    }
    let mut k = u_end;
    loop {
        if k < n && cs.classes[k].lower {
            let mut end = k;
            while end < n && cs.classes[end].lower {
                end += 1;
            }
            return Some(end);
        }
        if k == j {
            return None;
        }
        k -= 1;
    }
}

/// `U+ L*` from `j`.
fn body_upper(cs: &Chars, j: usize) -> Option<usize> {
    let n = cs.len();
    let mut end = j;
    while end < n && cs.classes[end].upper {
        end += 1;
    }
    if end == j {
        return None;
    }
    while end < n && cs.classes[end].lower {
        end += 1;
    }
    Some(end)
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` after `end`.
fn contraction(cs: &Chars, end: usize) -> usize {
    let n = cs.len();
    if end >= n || cs.chars[end] != '\'' {
        return end;
    }
    // Case-insensitive as the regex crate folds: `ſ` (U+017F) folds to `s`, `K` (U+212A) to `k`.
    let is = |at: usize, letter: char| -> bool {
        at < n && {
            let c = cs.chars[at];
            c.eq_ignore_ascii_case(&letter) || (letter == 's' && c == '\u{17F}')
        }
    };
    for suffix in ["s", "t", "re", "ve", "m", "ll", "d"] {
        let mut at = end + 1;
        let mut ok = true;
        for letter in suffix.chars() {
            if !is(at, letter) {
                ok = false;
                break;
            }
            at += 1;
        }
        if ok {
            return at;
        }
    }
    end
}

/// `\p{N}{1,3}`.
fn alt_numbers(cs: &Chars, i: usize) -> Option<usize> {
    let mut end = i;
    while end < cs.len() && end - i < 3 && cs.classes[end].number {
        end += 1;
    }
    (end > i).then_some(end)
}

/// ` ?[^\s\p{L}\p{N}]+[\r\n/]*`.
fn alt_punctuation(cs: &Chars, i: usize) -> Option<usize> {
    let n = cs.len();
    let is_punct =
        |k: usize| k < n && !cs.classes[k].space && !cs.classes[k].letter && !cs.classes[k].number;
    let start = if cs.chars[i] == ' ' && is_punct(i + 1) {
        i + 1
    } else {
        i
    };
    if !is_punct(start) {
        return None;
    }
    let mut end = start;
    while is_punct(end) {
        end += 1;
    }
    while end < n && matches!(cs.chars[end], '\r' | '\n' | '/') {
        end += 1;
    }
    Some(end)
}

/// `\s*[\r\n]+`: the whitespace run up to and including its last line break.
fn alt_newlines(cs: &Chars, i: usize) -> Option<usize> {
    let mut end = i;
    let mut last_break = None;
    while end < cs.len() && cs.classes[end].space {
        if matches!(cs.chars[end], '\r' | '\n') {
            last_break = Some(end);
        }
        end += 1;
    }
    last_break.map(|b| b + 1)
}

/// `\s+(?!\S)` then `\s+`: a whitespace run, less its last character when a non-space follows
/// (that character then starts the next piece, as a prefix of a word or punctuation).
fn alt_spaces(cs: &Chars, i: usize) -> Option<usize> {
    let mut end = i;
    while end < cs.len() && cs.classes[end].space {
        end += 1;
    }
    if end == i {
        return None;
    }
    if end == cs.len() || end - i == 1 {
        return Some(end);
    }
    Some(end - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        let mut res = Vec::new();
        // The pieces borrow from `text`: collect their offsets.
        let mut offset = 0;
        pieces(text, |p| {
            res.push(&text[offset..offset + p.len()]);
            offset += p.len();
        });
        res
    }

    #[test]
    fn pieces_as_the_pattern_cuts() {
        assert_eq!(split("Hello world"), ["Hello", " world"]);
        assert_eq!(split("don't STOP'S"), ["don't", " STOP'S"]);
        assert_eq!(split("12345"), ["123", "45"]);
        assert_eq!(split("a  b"), ["a", " ", " b"]);
        assert_eq!(split("x\n\n  y"), ["x", "\n\n", " ", " y"]);
        assert_eq!(split("end.\n/path"), ["end", ".\n/", "path"]);
        assert_eq!(split("  \n"), ["  \n"]);
        assert_eq!(split("tail  "), ["tail", "  "]);
        assert_eq!(split("CamelCase"), ["Camel", "Case"]);
        assert_eq!(split("日本語"), ["日本語"]);
    }

    #[test]
    fn the_ascii_path_cuts_as_the_general_one() {
        let alphabet = [
            "a", "Z", "'s", "'RE", "'x", "'", "7", "123456", " ", "  ", "\t", "\n", "\r\n", "/",
            ".", "!?", "-", "\u{b}", "\u{1c}", "\u{0}", "Ab", "aB",
        ];
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = 1 + x % 30;
            let text: String = (0..len)
                .map(|k| alphabet[((x >> (k % 50)) as usize + k as usize * 7) % alphabet.len()])
                .collect();
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            ascii_pieces(&text, &mut |p: &str| fast.push(p.to_owned()));
            unicode_pieces(&text, &mut |p: &str| general.push(p.to_owned()));
            assert_eq!(fast, general, "{text:?}");
        }
    }
}
