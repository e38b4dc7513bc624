//! Byte-level BPE, as GPT-2 and the Llama/Qwen2-family GGUFs that say `tokenizer.ggml.model =
//! gpt2` tokenize: special tokens first, then a pre-tokenizer cuts the text into pieces, each
//! piece's UTF-8 bytes become GPT-2's printable characters, and adjacent symbols merge by the
//! rank of their merge until none applies.
//!
//! Pre-tokenizers, written out by hand (no regex engine: GPT-2's pattern needs a lookahead):
//! - `gpt2`: `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`;
//! - `smollm` (SmolLM2): every digit its own piece first (Hugging Face's `Digits` with
//!   individual digits), then `gpt2` on what is between;
//! - `qwen2` (Qwen2 and Qwen2.5), after NFC normalization:
//!   `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
//!
//! `tests/bpe_oracle.rs` holds the ids to Hugging Face `tokenizers` (PyPI) built from the same
//! vocabulary and merges, on the corpus's descriptions and non-ASCII text.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::DecoderError;
use crate::gguf::{Gguf, Value};

/// Which pre-tokenizer a model uses (`tokenizer.ggml.pre`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreTokenizer {
    /// GPT-2's pattern.
    Gpt2,
    /// Digits one by one, then GPT-2's pattern.
    SmolLm,
    /// Qwen2's pattern (letters with one leading non-letter, digits one by one, newlines kept
    /// with the symbols before them), on NFC-normalized text.
    Qwen2,
}

/// A byte-level BPE tokenizer.
#[derive(Debug, Clone)]
pub struct Bpe {
    pre: PreTokenizer,
    vocab: HashMap<String, u32>,
    tokens: Vec<String>,
    /// `(left, right)` → `(rank, merged)`.
    merges: HashMap<(u32, u32), (u32, u32)>,
    /// Special (control and user-defined) tokens, longest first.
    specials: Vec<(String, u32)>,
    byte_chars: [char; 256],
    /// The id of a byte the vocabulary lacks.
    unknown: u32,
}

/// GPT-2's map from bytes to printable characters: printable Latin-1 bytes stand for
/// themselves, the others are shifted to U+0100 and up.
fn byte_chars() -> [char; 256] {
    let mut map = ['\0'; 256];
    let mut next = 256u32;
    for b in 0..=255u8 {
        let printable = matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
        map[b as usize] = if printable {
            char::from(b)
        } else {
            let c = char::from_u32(next).unwrap_or('\u{FFFD}');
            next += 1;
            c
        };
    }
    map
}

fn is_letter(c: char) -> bool {
    c.is_alphabetic() && c.general_category_group() == GeneralCategoryGroup::Letter
}

fn is_number(c: char) -> bool {
    c.general_category_group() == GeneralCategoryGroup::Number
}

/// GPT-2's pattern over `s`, leftmost alternative first.
fn gpt2_pieces<'s>(s: &'s str, out: &mut Vec<&'s str>) {
    let cs: Vec<(usize, char)> = s.char_indices().collect();
    let end_of = |i: usize| cs.get(i).map_or(s.len(), |&(b, _)| b);
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i].1;
        let run = |from: usize, pred: &dyn Fn(char) -> bool| {
            let mut j = from;
            while j < cs.len() && pred(cs[j].1) {
                j += 1;
            }
            j
        };
        let mut len = 0;
        // 1. Contractions.
        if c == '\'' {
            let rest: String = cs[i + 1..cs.len().min(i + 3)]
                .iter()
                .map(|&(_, c)| c)
                .collect();
            if rest.starts_with("re") || rest.starts_with("ve") || rest.starts_with("ll") {
                len = 3;
            } else if rest.starts_with(['s', 't', 'm', 'd']) {
                len = 2;
            }
        }
        // 2–4. An optional space, then letters, numbers, or other symbols.
        if len == 0 {
            let start = if c == ' ' { i + 1 } else { i };
            for pred in [
                &is_letter as &dyn Fn(char) -> bool,
                &is_number,
                &|c: char| !c.is_whitespace() && !is_letter(c) && !is_number(c),
            ] {
                let j = run(start, pred);
                if j > start {
                    len = j - i;
                    break;
                }
            }
        }
        // 5. Whitespace not followed by a non-space (so the last space can lead the next
        // piece), 6. else any whitespace.
        if len == 0 {
            let j = run(i, &char::is_whitespace);
            len = if j < cs.len() && j - i > 1 {
                j - i - 1
            } else {
                j - i
            };
        }
        let len = len.max(1);
        out.push(&s[end_of(i)..end_of(i + len)]);
        i += len;
    }
}

/// The contraction at the start of `cs` (after its apostrophe), case-insensitive: its length in
/// characters, apostrophe included, or 0.
fn contraction(cs: &[(usize, char)]) -> usize {
    let lower: Vec<char> = cs
        .iter()
        .take(2)
        .map(|&(_, c)| c.to_ascii_lowercase())
        .collect();
    match lower.as_slice() {
        ['s' | 't' | 'm' | 'd', ..] => 2,
        ['r', 'e'] | ['v', 'e'] | ['l', 'l'] => 3,
        _ => 0,
    }
}

/// Qwen2's pattern over `s`, leftmost alternative first, each greedy as the regex engine backtracks.
fn qwen2_pieces<'s>(s: &'s str, out: &mut Vec<&'s str>) {
    let cs: Vec<(usize, char)> = s.char_indices().collect();
    let end_of = |i: usize| cs.get(i).map_or(s.len(), |&(b, _)| b);
    let is_newline = |c: char| c == '\r' || c == '\n';
    let is_symbol = |c: char| !c.is_whitespace() && !is_letter(c) && !is_number(c);
    let run = |from: usize, pred: &dyn Fn(char) -> bool| {
        let mut j = from;
        while j < cs.len() && pred(cs[j].1) {
            j += 1;
        }
        j
    };
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i].1;
        let next = cs.get(i + 1).map(|&(_, c)| c);
        let mut len = 0;
        // 1. Contractions, any case.
        if c == '\'' {
            len = contraction(&cs[i + 1..]);
        }
        // 2. Letters, with one leading character that is no newline, letter or number.
        if len == 0 {
            if is_letter(c) {
                len = run(i, &is_letter) - i;
            } else if !is_newline(c) && !is_number(c) && next.is_some_and(is_letter) {
                len = run(i + 1, &is_letter) - i;
            }
        }
        // 3. One number.
        if len == 0 && is_number(c) {
            len = 1;
        }
        // 4. An optional space, symbols, then any newlines.
        if len == 0 {
            let start = if c == ' ' && next.is_some_and(is_symbol) {
                i + 1
            } else {
                i
            };
            if cs.get(start).is_some_and(|&(_, c)| is_symbol(c)) {
                len = run(run(start, &is_symbol), &is_newline) - i;
            }
        }
        if len == 0 {
            let ws = run(i, &char::is_whitespace);
            // 5. Whitespace up to its last newline.
            if let Some(last) = (i..ws).rev().find(|&k| is_newline(cs[k].1)) {
                len = last + 1 - i;
            } else if ws == cs.len() || ws - i == 1 {
                // 6–7. Whitespace to the end, or a single space before a non-space.
                len = ws - i;
            } else {
                // 6. Whitespace not followed by a non-space: all but the last.
                len = ws - i - 1;
            }
        }
        let len = len.max(1);
        out.push(&s[end_of(i)..end_of(i + len)]);
        i += len;
    }
}

impl Bpe {
    /// The tokenizer a GGUF file carries (`tokenizer.ggml.*`), or a message naming what is missing.
    pub fn from_gguf(g: &Gguf<'_>) -> Result<Bpe, DecoderError> {
        Self::read_gguf(g).map_err(DecoderError::Model)
    }

    fn read_gguf(g: &Gguf<'_>) -> Result<Bpe, String> {
        let model = g
            .get("tokenizer.ggml.model")
            .and_then(Value::as_str)
            .unwrap_or("");
        if model != "gpt2" {
            return Err(format!(
                "the tokenizer is \"{model}\"; only byte-level BPE (\"gpt2\", as Qwen2 and SmolLM2 use) is supported"
            ));
        }
        let pre = match g
            .get("tokenizer.ggml.pre")
            .and_then(Value::as_str)
            .unwrap_or("default")
        {
            "smollm" => PreTokenizer::SmolLm,
            "gpt2" | "default" => PreTokenizer::Gpt2,
            "qwen2" => PreTokenizer::Qwen2,
            other => {
                return Err(format!(
                    "the pre-tokenizer \"{other}\" is not supported (gpt2, smollm and qwen2 are)"
                ));
            }
        };
        let strings = |key: &str| -> Result<Vec<String>, String> {
            match g.get(key) {
                Some(Value::Array(items)) => Ok(items
                    .iter()
                    .map(|v| v.as_str().unwrap_or("").to_owned())
                    .collect()),
                _ => Err(format!("the file has no {key}")),
            }
        };
        let tokens = strings("tokenizer.ggml.tokens")?;
        let types: Vec<u64> = match g.get("tokenizer.ggml.token_type") {
            Some(Value::Array(items)) => items.iter().map(|v| v.as_u64().unwrap_or(1)).collect(),
            _ => vec![1; tokens.len()],
        };
        let vocab: HashMap<String, u32> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let mut merges = HashMap::new();
        for (rank, m) in strings("tokenizer.ggml.merges")?.iter().enumerate() {
            let Some((a, b)) = m.split_once(' ') else {
                return Err(format!("merge {rank} (\"{m}\") is not two tokens"));
            };
            let (Some(&ia), Some(&ib), Some(&im)) =
                (vocab.get(a), vocab.get(b), vocab.get(&format!("{a}{b}")))
            else {
                return Err(format!(
                    "merge {rank} (\"{m}\") names tokens the vocabulary does not have: the tokenizer does not match the vocabulary"
                ));
            };
            merges.entry((ia, ib)).or_insert((rank as u32, im));
        }
        // Control (3) and user-defined (4) tokens are matched whole, before pre-tokenizing.
        let mut specials: Vec<(String, u32)> = tokens
            .iter()
            .zip(&types)
            .enumerate()
            .filter(|(_, (t, ty))| matches!(ty, 3 | 4) && !t.is_empty())
            .map(|(i, (t, _))| (t.clone(), i as u32))
            .collect();
        specials.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        let byte_chars = byte_chars();
        // Byte-level vocabularies have the printable ASCII bytes at least; some drop control
        // bytes, which then become the unknown token (as Hugging Face's BPE with an unk token).
        if let Some(b) =
            (b'!'..=b'~').find(|&b| !vocab.contains_key(&byte_chars[b as usize].to_string()))
        {
            return Err(format!(
                "the vocabulary lacks the byte {b:#04x} ({:?}): it is not a byte-level BPE vocabulary",
                char::from(b)
            ));
        }
        let unknown = g
            .get("tokenizer.ggml.unknown_token_id")
            .and_then(Value::as_u64)
            .unwrap_or(0) as u32;
        Ok(Bpe {
            pre,
            vocab,
            tokens,
            merges,
            specials,
            byte_chars,
            unknown,
        })
    }

    /// The tokenizer of a Hugging Face `tokenizer.json` (a byte-level BPE model with GPT-2's,
    /// SmolLM2's or Qwen2's pre-tokenizer), or a message naming what it is instead.
    pub fn from_tokenizer_json(text: &str) -> Result<Bpe, DecoderError> {
        Self::read_tokenizer_json(text).map_err(DecoderError::Model)
    }

    fn read_tokenizer_json(text: &str) -> Result<Bpe, String> {
        let j: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("tokenizer.json is not JSON: {e}"))?;
        let model = &j["model"];
        if model["type"].as_str() != Some("BPE") {
            return Err(format!(
                "tokenizer.json's model is {}; only byte-level BPE (as Qwen2 and SmolLM2 use) is supported",
                model["type"]
            ));
        }
        let pre_json = j["pre_tokenizer"].to_string();
        let pre = if pre_json.contains(r"[^\\r\\n\\p{L}\\p{N}]?\\p{L}+") {
            PreTokenizer::Qwen2
        } else if pre_json.contains("\"Digits\"")
            && pre_json.contains("\"individual_digits\":true")
            && pre_json.contains("\"ByteLevel\"")
        {
            PreTokenizer::SmolLm
        } else if j["pre_tokenizer"]["type"] == "ByteLevel"
            && j["pre_tokenizer"]["use_regex"] != false
        {
            PreTokenizer::Gpt2
        } else {
            return Err(format!(
                "tokenizer.json's pre-tokenizer is not one this reader knows (GPT-2's, SmolLM2's or Qwen2's): {}",
                pre_json.chars().take(160).collect::<String>()
            ));
        };
        let vocab_obj = model["vocab"]
            .as_object()
            .ok_or("tokenizer.json has no model.vocab")?;
        let mut vocab: HashMap<String, u32> = HashMap::with_capacity(vocab_obj.len());
        for (t, id) in vocab_obj {
            let id = id
                .as_u64()
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| format!("token {t:?} has no id"))?;
            vocab.insert(t.clone(), id);
        }
        let mut specials = Vec::new();
        for a in j["added_tokens"].as_array().map_or(&[][..], Vec::as_slice) {
            let (Some(content), Some(id)) = (
                a["content"].as_str(),
                a["id"].as_u64().and_then(|v| u32::try_from(v).ok()),
            ) else {
                continue;
            };
            vocab.insert(content.to_owned(), id);
            if !content.is_empty() {
                specials.push((content.to_owned(), id));
            }
        }
        let n = vocab.values().max().map_or(0, |&m| m as usize + 1);
        if n > 4_000_000 {
            return Err(format!(
                "tokenizer.json has a token id of {n}: not a vocabulary"
            ));
        }
        let mut tokens = vec![String::new(); n];
        for (t, &id) in &vocab {
            tokens[id as usize] = t.clone();
        }
        let mut merges = HashMap::new();
        for (rank, m) in model["merges"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .enumerate()
        {
            // "a b", or ["a", "b"] in newer files.
            let pair = match m {
                serde_json::Value::String(s) => {
                    s.split_once(' ').map(|(a, b)| (a.to_owned(), b.to_owned()))
                }
                serde_json::Value::Array(p) if p.len() == 2 => Some((
                    p[0].as_str().unwrap_or("").to_owned(),
                    p[1].as_str().unwrap_or("").to_owned(),
                )),
                _ => None,
            };
            let Some((a, b)) = pair else {
                return Err(format!("merge {rank} ({m}) is not two tokens"));
            };
            let (Some(&ia), Some(&ib), Some(&im)) =
                (vocab.get(&a), vocab.get(&b), vocab.get(&format!("{a}{b}")))
            else {
                return Err(format!(
                    "merge {rank} ({a:?} {b:?}) names tokens the vocabulary does not have: the tokenizer does not match the vocabulary"
                ));
            };
            merges.entry((ia, ib)).or_insert((rank as u32, im));
        }
        specials.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        let byte_chars = byte_chars();
        if let Some(b) =
            (b'!'..=b'~').find(|&b| !vocab.contains_key(&byte_chars[b as usize].to_string()))
        {
            return Err(format!(
                "the vocabulary lacks the byte {b:#04x} ({:?}): it is not a byte-level BPE vocabulary",
                char::from(b)
            ));
        }
        let unknown = model["unk_token"]
            .as_str()
            .and_then(|u| vocab.get(u))
            .copied()
            .unwrap_or(0);
        Ok(Bpe {
            pre,
            vocab,
            tokens,
            merges,
            specials,
            byte_chars,
            unknown,
        })
    }

    /// Tokens in the vocabulary (the largest id and one).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether the vocabulary is empty.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The same vocabulary with another pre-tokenizer (for tests of the pre-tokenizers).
    pub fn with_pre_tokenizer(mut self, pre: PreTokenizer) -> Bpe {
        self.pre = pre;
        self
    }

    /// The text of `ids`: each token's GPT-2 characters turned back into bytes, read as UTF-8
    /// (a sequence cut inside a character shows U+FFFD); special tokens as their text.
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut byte_of = HashMap::with_capacity(256);
        for (b, c) in self.byte_chars.iter().enumerate() {
            byte_of.insert(*c, b as u8);
        }
        let mut bytes = Vec::new();
        for &id in ids {
            let Some(t) = self.tokens.get(id as usize) else {
                continue;
            };
            if self.specials.iter().any(|(_, s)| *s == id) {
                bytes.extend_from_slice(t.as_bytes());
            } else {
                for ch in t.chars() {
                    match byte_of.get(&ch) {
                        Some(&b) => bytes.push(b),
                        None => bytes.extend_from_slice(ch.to_string().as_bytes()),
                    }
                }
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The token `id`'s text in GPT-2's characters (`Ġhello`), or `None`.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    /// The id that stands for a byte the vocabulary lacks.
    pub fn unknown_id(&self) -> u32 {
        self.unknown
    }

    /// The id of a special token (`<|im_start|>`), if the vocabulary has it.
    pub fn special(&self, text: &str) -> Option<u32> {
        self.specials
            .iter()
            .find(|(t, _)| t == text)
            .map(|&(_, id)| id)
    }

    /// The ids of `text`: special tokens where their text appears, BPE elsewhere.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            // The earliest special token (the longest at the same place).
            let found = self
                .specials
                .iter()
                .filter_map(|(t, id)| rest.find(t.as_str()).map(|at| (at, t.len(), *id)))
                .min_by_key(|&(at, len, _)| (at, std::cmp::Reverse(len)));
            let (plain, next) = match found {
                Some((at, len, id)) => (&rest[..at], Some((id, &rest[at + len..]))),
                None => (rest, None),
            };
            self.encode_plain(plain, &mut ids);
            match next {
                Some((id, after)) => {
                    ids.push(id);
                    rest = after;
                }
                None => break,
            }
        }
        ids
    }

    fn encode_plain(&self, text: &str, ids: &mut Vec<u32>) {
        let mut pieces = Vec::new();
        match self.pre {
            PreTokenizer::Gpt2 => gpt2_pieces(text, &mut pieces),
            PreTokenizer::Qwen2 => {
                let normalized: String = text.nfc().collect();
                let mut owned = Vec::new();
                qwen2_pieces(&normalized, &mut owned);
                for piece in owned {
                    self.encode_piece(piece, ids);
                }
                return;
            }
            PreTokenizer::SmolLm => {
                let mut start = 0;
                for (at, c) in text.char_indices() {
                    if c.is_numeric() {
                        gpt2_pieces(&text[start..at], &mut pieces);
                        pieces.push(&text[at..at + c.len_utf8()]);
                        start = at + c.len_utf8();
                    }
                }
                gpt2_pieces(&text[start..], &mut pieces);
            }
        }
        for piece in pieces {
            self.encode_piece(piece, ids);
        }
    }

    fn encode_piece(&self, piece: &str, ids: &mut Vec<u32>) {
        let mapped: String = piece.bytes().map(|b| self.byte_chars[b as usize]).collect();
        if let Some(&id) = self.vocab.get(&mapped) {
            ids.push(id);
            return;
        }
        let mut symbols: Vec<u32> = mapped
            .chars()
            .map(|c| {
                self.vocab
                    .get(&c.to_string())
                    .copied()
                    .unwrap_or(self.unknown)
            })
            .collect();
        // Merge the lowest-ranked adjacent pair until none is a merge.
        while let Some((at, (_, merged))) = symbols
            .windows(2)
            .enumerate()
            .filter_map(|(i, w)| self.merges.get(&(w[0], w[1])).map(|m| (i, *m)))
            .min_by_key(|&(_, (rank, _))| rank)
        {
            symbols[at] = merged;
            symbols.remove(at + 1);
        }
        ids.extend(symbols);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt2_pattern_pieces() {
        let mut out = Vec::new();
        gpt2_pieces("Hello world's  end!!\n\n 42x", &mut out);
        assert_eq!(
            out,
            vec![
                "Hello", " world", "'s", " ", " end", "!!", "\n\n", " 42", "x"
            ]
        );
        out.clear();
        gpt2_pieces("a\tb  ", &mut out);
        assert_eq!(out, vec!["a", "\t", "b", "  "]);
    }

    #[test]
    fn qwen2_pattern_pieces() {
        let mut out = Vec::new();
        qwen2_pieces("Hello world's 2024!!\n\n  x\tDON'T  end  ", &mut out);
        assert_eq!(
            out,
            vec![
                "Hello", " world", "'s", " ", "2", "0", "2", "4", "!!\n\n", " ", " x", "\tDON",
                "'T", " ", " end", "  "
            ]
        );
        out.clear();
        qwen2_pieces("a \n\n b", &mut out);
        assert_eq!(out, vec!["a", " \n\n", " b"]);
    }

    #[test]
    fn the_byte_map_is_gpt2s() {
        let m = byte_chars();
        assert_eq!(m[b' ' as usize], 'Ġ');
        assert_eq!(m[b'\n' as usize], 'Ċ');
        assert_eq!(m[b'a' as usize], 'a');
        assert_eq!(
            m.iter().collect::<std::collections::HashSet<_>>().len(),
            256
        );
    }
}
