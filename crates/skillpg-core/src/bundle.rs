//! The input of the engine: the bytes of a skill folder, never paths on a disk.

/// claude.ai's upload limit per file, which the engine applies to every file it reads.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// One file of a skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleFile {
    /// Path relative to the skill folder, `/`-separated, never starting with `/` or holding `..`.
    pub path: String,
    /// The file's bytes as read.
    pub bytes: Vec<u8>,
}

/// A skill folder: its name (the last path component) and its files.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SkillBundle {
    /// The folder's own name, which the spec compares with `name`.
    pub dir_name: String,
    /// Where the folder was found, for display (`skills/pdf`); may equal `dir_name`.
    pub display_path: String,
    /// Every file in the folder, in a stable order (sorted by path).
    pub files: Vec<BundleFile>,
    /// The folder of the skill this one was found inside (`pdf` for `pdf/references/x/SKILL.md`),
    /// when it was found inside one: only a client that scans inside skill folders lists it.
    pub inside: Option<String>,
    /// The SKILL.md was read without its folder (a file picked alone, a paste): the folder's
    /// name and the files beside it are not known. `dir_name` is then the skill's own name,
    /// what a folder named after it would be, and the checks that need the real folder say so
    /// instead of failing (`name-dir-mismatch`, `broken-link`).
    pub folder_unknown: bool,
}

impl SkillBundle {
    /// A bundle from files; sorts them by path so that reports are stable.
    pub fn new(dir_name: &str, files: Vec<BundleFile>) -> SkillBundle {
        let mut files = files;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        SkillBundle {
            dir_name: dir_name.to_owned(),
            display_path: dir_name.to_owned(),
            files,
            inside: None,
            folder_unknown: false,
        }
    }

    /// The skill file: `SKILL.md`, else the `skill.md` that skills-ref also accepts.
    pub fn skill_md(&self) -> Option<&BundleFile> {
        self.file("SKILL.md").or_else(|| self.file("skill.md"))
    }

    /// The file at `path`, if present.
    pub fn file(&self, path: &str) -> Option<&BundleFile> {
        self.files.iter().find(|f| f.path == path)
    }
}

/// How the bytes of a file read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileText {
    /// Valid UTF-8 (a leading BOM is kept in `text` and reported by `has_bom`).
    Utf8 { text: String, has_bom: bool },
    /// Text-like bytes that are not valid UTF-8: decoded lossily, first bad byte at `bad_offset`.
    Lossy { text: String, bad_offset: usize },
    /// UTF-16 text with a byte order mark (Windows editors write it), decoded; `big_endian`
    /// when the mark was FE FF.
    Utf16 { text: String, big_endian: bool },
    /// Binary content (a NUL byte, or mostly non-text): counted as 0 tokens.
    Binary,
}

impl FileText {
    /// Classifies `bytes`.
    pub fn decode(bytes: &[u8]) -> FileText {
        // Before the binary test: UTF-16 is full of NUL bytes.
        if let Some(decoded) = decode_utf16(bytes) {
            return decoded;
        }
        if looks_binary(bytes) {
            return FileText::Binary;
        }
        FileText::decode_text(bytes)
    }

    /// `bytes` as text whatever they hold: the way a loader reads SKILL.md. Every client reads
    /// SKILL.md as UTF-8 (skills-ref's `read_text(encoding='utf-8')`, Node's `readFile(…,
    /// 'utf-8')`, Rust's and Go's strings), where a NUL is a valid character and a PNG header
    /// is only bytes that do not decode; none of them sniffs for binary content. So a SKILL.md
    /// is never [`FileText::Binary`]: its rules always run (a NUL in the frontmatter is a YAML
    /// error in every YAML reader, `yaml::parse` says so; in the body it is text).
    pub fn decode_text(bytes: &[u8]) -> FileText {
        if let Some(decoded) = decode_utf16(bytes) {
            return decoded;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => FileText::Utf8 {
                text: text.to_owned(),
                has_bom: text.starts_with('\u{feff}'),
            },
            Err(err) => FileText::Lossy {
                text: String::from_utf8_lossy(bytes).into_owned(),
                bad_offset: err.valid_up_to(),
            },
        }
    }

    /// The text, if the file is text.
    pub fn text(&self) -> Option<&str> {
        match self {
            FileText::Utf8 { text, .. }
            | FileText::Lossy { text, .. }
            | FileText::Utf16 { text, .. } => Some(text),
            FileText::Binary => None,
        }
    }
}

/// A token count that stopped past a limit, `(limit, count)`, packed in one atomic (both fit 32
/// bits: a file is at most `MAX_FILE_BYTES`), raised when a higher limit is counted.
#[derive(Debug, Default)]
struct OverCount(std::sync::atomic::AtomicU64);

impl OverCount {
    fn get(&self) -> Option<(usize, usize)> {
        let v = self.0.load(std::sync::atomic::Ordering::Relaxed);
        (v != 0).then_some(((v >> 32) as usize, (v & 0xFFFF_FFFF) as usize))
    }

    fn raise(&self, limit: usize, count: usize) {
        let (Ok(limit), Ok(count)) = (u32::try_from(limit), u32::try_from(count)) else {
            return;
        };
        self.0.fetch_max(
            (u64::from(limit) << 32) | u64::from(count),
            std::sync::atomic::Ordering::Relaxed,
        );
    }
}

impl Clone for OverCount {
    fn clone(&self) -> OverCount {
        OverCount(std::sync::atomic::AtomicU64::new(
            self.0.load(std::sync::atomic::Ordering::Relaxed),
        ))
    }
}

/// One file of the folder, read.
#[derive(Debug, Clone)]
pub struct FileFacts {
    /// Path relative to the skill folder.
    pub path: String,
    /// Size in bytes.
    pub n_bytes: usize,
    /// The decoded text; `Binary` for binary files and for files over the size limit.
    pub text: FileText,
    /// Over [`MAX_FILE_BYTES`]: neither decoded nor counted.
    pub too_large: bool,
    /// Whether the file counts whole (SKILL.md counts by level instead).
    pub counted: bool,
    /// o200k_base tokens, counted on first use: a check needs only the files that a size bound
    /// cannot rule out.
    tokens: std::sync::OnceLock<usize>,
    /// The count that stopped past the highest limit asked so far, so that the same question
    /// under another client is not counted again.
    over: OverCount,
}

impl FileFacts {
    /// A file read: `counted` is false for SKILL.md, which counts by level.
    pub fn new(
        path: String,
        n_bytes: usize,
        text: FileText,
        too_large: bool,
        counted: bool,
    ) -> FileFacts {
        FileFacts {
            path,
            n_bytes,
            text,
            too_large,
            counted,
            tokens: std::sync::OnceLock::new(),
            over: OverCount::default(),
        }
    }

    /// A file whose count is already known (the links tests).
    #[cfg(test)]
    pub(crate) fn with_tokens(path: &str, text: FileText, tokens: usize) -> FileFacts {
        let f = FileFacts::new(
            path.to_owned(),
            text.text().map(str::len).unwrap_or(0),
            text,
            false,
            true,
        );
        let _ = f.tokens.set(tokens);
        f
    }

    /// o200k_base tokens of the file (0 for SKILL.md, binary files and files over the size
    /// limit), counted on first use.
    pub fn tokens(&self) -> usize {
        *self.tokens.get_or_init(|| {
            if self.counted {
                self.text
                    .text()
                    .map(skillpg_tokens::count_cached)
                    .unwrap_or(0)
            } else {
                0
            }
        })
    }

    /// The file's tokens when they are at most `limit`; otherwise some number over `limit` (the
    /// count stops there unless the exact count is known already).
    pub fn tokens_up_to(&self, limit: usize) -> usize {
        if let Some(&n) = self.tokens.get() {
            return n;
        }
        if !self.counted {
            return 0;
        }
        if let Some((stopped_at, n)) = self.over.get()
            && stopped_at >= limit
        {
            return n;
        }
        let Some(text) = self.text.text() else {
            return 0;
        };
        let n = skillpg_tokens::count_at_most(text, limit);
        if n <= limit {
            let _ = self.tokens.set(n);
        } else {
            self.over.raise(limit, n);
        }
        n
    }

    /// The exact count, if it has been made.
    pub fn tokens_known(&self) -> Option<usize> {
        if self.counted {
            self.tokens.get().copied()
        } else {
            Some(0)
        }
    }

    /// Whether the file may hold more than `limit` tokens: a token is at least one byte, so a
    /// file of at most `limit` bytes cannot, and is not counted.
    pub fn may_exceed(&self, limit: usize) -> bool {
        self.counted && self.n_bytes > limit && self.text.text().is_some()
    }

    /// Whether the file is binary (and so counts 0 tokens).
    pub fn is_binary(&self) -> bool {
        matches!(self.text, FileText::Binary) && !self.too_large
    }
}

/// UTF-16 text behind a byte order mark (FF FE little-endian, FE FF big-endian), decoded with
/// replacement characters for unpaired surrogates; `None` without a mark.
fn decode_utf16(bytes: &[u8]) -> Option<FileText> {
    let big_endian = match bytes {
        [0xFF, 0xFE, ..] => false,
        [0xFE, 0xFF, ..] => true,
        _ => return None,
    };
    let units = bytes[2..].chunks_exact(2).map(|pair| {
        if big_endian {
            u16::from_be_bytes([pair[0], pair[1]])
        } else {
            u16::from_le_bytes([pair[0], pair[1]])
        }
    });
    let text: String = char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    Some(FileText::Utf16 { text, big_endian })
}

/// A file is binary when it holds a NUL byte in its first 8 KiB or starts with a known magic
/// number, the way git and most editors decide.
fn looks_binary(bytes: &[u8]) -> bool {
    const MAGIC: [&[u8]; 8] = [
        b"\x89PNG",
        b"GIF8",
        b"\xff\xd8\xff",
        b"%PDF",
        b"PK\x03\x04",
        b"\x7fELF",
        b"\x00asm",
        b"RIFF",
    ];
    let head = &bytes[..bytes.len().min(8192)];
    head.contains(&0) || MAGIC.iter().any(|m| bytes.starts_with(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_classifies_text_bom_lossy_and_binary() {
        assert_eq!(
            FileText::decode(b"abc"),
            FileText::Utf8 {
                text: "abc".into(),
                has_bom: false
            }
        );
        assert!(matches!(
            FileText::decode(b"\xef\xbb\xbfabc"),
            FileText::Utf8 { has_bom: true, .. }
        ));
        assert!(matches!(
            FileText::decode(b"ab\xffc"),
            FileText::Lossy { bad_offset: 2, .. }
        ));
        assert_eq!(FileText::decode(b"\x89PNG\r\n"), FileText::Binary);
        assert_eq!(FileText::decode(b"a\0b"), FileText::Binary);
        // SKILL.md is read as text whatever it holds, as loaders read it.
        assert_eq!(
            FileText::decode_text(b"a\0b"),
            FileText::Utf8 {
                text: "a\0b".into(),
                has_bom: false
            }
        );
        assert!(matches!(
            FileText::decode_text(b"\x89PNG\r\n"),
            FileText::Lossy { bad_offset: 0, .. }
        ));
        assert_eq!(
            FileText::decode(b"\xff\xfe-\0-\0"),
            FileText::Utf16 {
                text: "--".into(),
                big_endian: false
            }
        );
        assert_eq!(
            FileText::decode(b"\xfe\xff\0-"),
            FileText::Utf16 {
                text: "-".into(),
                big_endian: true
            }
        );
    }
}
