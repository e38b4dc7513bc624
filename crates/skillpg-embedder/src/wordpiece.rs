//! BERT's uncased WordPiece tokenizer, as `tokenizer.json` of all-MiniLM-L6-v2 configures it:
//! BertNormalizer (clean text, spaces around CJK characters, strip accents, lowercase),
//! BertPreTokenizer (split on whitespace, isolate punctuation), WordPiece (`##` continuations,
//! at most 100 characters a word, else `[UNK]`), then `[CLS] ... [SEP]`.
//!
//! The shipped tokenizer pads every input to 128 tokens; this one does not pad (the model
//! masks nothing, so padding would change the mean). It truncates at 256 tokens, the
//! `max_seq_length` of sentence-transformers' config for this model.

use crate::error::EmbedderError;
use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// The longest input, in tokens, `[CLS]` and `[SEP]` included.
pub const MAX_TOKENS: usize = 256;

/// A WordPiece vocabulary and the ids of its special tokens.
#[derive(Debug, Clone)]
pub struct WordPiece {
    vocab: HashMap<String, u32>,
    cls: u32,
    sep: u32,
    unk: u32,
}

impl WordPiece {
    /// Reads `vocab.txt` (one token a line, the line number is the id).
    pub fn from_vocab_txt(text: &str) -> Result<WordPiece, EmbedderError> {
        Self::read_vocab_txt(text).map_err(EmbedderError::Vocab)
    }

    fn read_vocab_txt(text: &str) -> Result<WordPiece, String> {
        let vocab: HashMap<String, u32> = text
            .lines()
            .enumerate()
            .map(|(i, t)| (t.to_owned(), i as u32))
            .collect();
        let id = |t: &str| {
            vocab
                .get(t)
                .copied()
                .ok_or_else(|| format!("vocab.txt has no {t}"))
        };
        Ok(WordPiece {
            cls: id("[CLS]")?,
            sep: id("[SEP]")?,
            unk: id("[UNK]")?,
            vocab,
        })
    }

    /// The ids of `text`: `[CLS]`, its word pieces (at most [`MAX_TOKENS`] in all), `[SEP]`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = vec![self.cls];
        'words: for word in pre_tokenize(&normalize(text)) {
            for id in self.word_pieces(&word) {
                if ids.len() == MAX_TOKENS - 1 {
                    break 'words;
                }
                ids.push(id);
            }
        }
        ids.push(self.sep);
        ids
    }

    fn word_pieces(&self, word: &str) -> Vec<u32> {
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        if chars.len() > 100 {
            return vec![self.unk];
        }
        let mut res = Vec::new();
        let mut start = 0;
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while start < end {
                let from = chars[start].0;
                let to = chars.get(end).map(|c| c.0).unwrap_or(word.len());
                let piece = if start > 0 {
                    format!("##{}", &word[from..to])
                } else {
                    word[from..to].to_owned()
                };
                if let Some(&id) = self.vocab.get(&piece) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => {
                    res.push(id);
                    start = end;
                }
                None => return vec![self.unk],
            }
        }
        res
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r') || c.general_category() == GeneralCategory::SpaceSeparator
}

fn is_control(c: char) -> bool {
    if matches!(c, '\t' | '\n' | '\r') {
        return false;
    }
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
            | GeneralCategory::Unassigned
    )
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.general_category_group() == GeneralCategoryGroup::Punctuation
}

/// BertNormalizer with clean_text, handle_chinese_chars, strip_accents and lowercase on.
pub fn normalize(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    let stripped: String = cleaned
        .nfd()
        .filter(|c| c.general_category() != GeneralCategory::NonspacingMark)
        .collect();
    stripped.to_lowercase()
}

/// BertPreTokenizer: words split on whitespace, each punctuation character its own word.
pub fn pre_tokenize(text: &str) -> Vec<String> {
    let mut res = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c.is_whitespace() {
            if !current.is_empty() {
                res.push(std::mem::take(&mut current));
            }
        } else if is_punctuation(c) {
            if !current.is_empty() {
                res.push(std::mem::take(&mut current));
            }
            res.push(c.to_string());
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        res.push(current);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> WordPiece {
        WordPiece::from_vocab_txt(
            "[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\nworld\n##s\nun\n##aff\n##able\n,\n!\n",
        )
        .expect("vocab")
    }

    #[test]
    fn greedy_longest_match_with_continuations() {
        let wp = tiny();
        assert_eq!(wp.encode("Hello, worlds!"), vec![2, 4, 10, 5, 6, 11, 3]);
        assert_eq!(wp.encode("unaffable"), vec![2, 7, 8, 9, 3]);
        assert_eq!(wp.encode("xyz"), vec![2, 1, 3]);
    }

    #[test]
    fn never_emits_unused_tokens() {
        // `[` and `]` are punctuation: the text of a `[unusedN]` token never matches it (the
        // packed weights zero those rows).
        let wp =
            WordPiece::from_vocab_txt("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[unused0]\nunused\n##0\n[\n]\n")
                .expect("vocab");
        assert_eq!(wp.encode("[unused0]"), vec![2, 7, 5, 6, 8, 3]);
    }

    #[test]
    fn normalizes_like_bert() {
        assert_eq!(normalize("Héllo\tWÖRLD\u{200B}"), "hello world");
        assert_eq!(pre_tokenize(&normalize("中文ok")), vec!["中", "文", "ok"]);
        assert_eq!(pre_tokenize("a.b"), vec!["a", ".", "b"]);
    }
}
