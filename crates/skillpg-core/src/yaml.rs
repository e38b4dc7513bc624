//! A YAML tree with byte spans, built from saphyr-parser's events.
//!
//! The frontmatter is small, so the tree keeps every scalar as text plus its style, and leaves
//! typing (strictyaml's "everything is a string" or YAML 1.1's `yes` is a boolean) to the reader.
//! Constructs that strict loaders refuse (flow collections, anchors, aliases, tags, duplicate
//! keys, tabs as indentation) are recorded as [`YamlIssue`]s rather than failing the parse, so
//! each profile decides how bad they are.

use std::ops::Range;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Unquoted.
    Plain,
    /// `'...'`.
    SingleQuoted,
    /// `"..."`.
    DoubleQuoted,
    /// `|` block.
    Literal,
    /// `>` block.
    Folded,
}

/// A scalar: its value as YAML reads it, its style and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    /// The value after YAML unquoting and folding; an empty value (`key:`) is `""`.
    pub value: String,
    /// How it was written.
    pub style: Style,
    /// Byte range in the YAML text (empty for an empty value).
    pub span: Range<usize>,
}

/// The type a typing loader gives a plain scalar: YAML 1.1's ([`Scalar::lenient_type`],
/// PyYAML) or the YAML 1.2 core schema's ([`Scalar::core_type`], the npm `yaml` package and
/// js-yaml 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LenientType {
    /// A string.
    Str,
    /// `true`, `false`, `yes`, `no`, `on`, `off` in any of their YAML 1.1 spellings.
    Bool,
    /// A decimal integer.
    Int,
    /// A decimal float.
    Float,
    /// `null`, `~` or an empty value.
    Null,
}

impl Scalar {
    /// The type PyYAML gives this scalar (quoted and block scalars are always strings).
    pub fn lenient_type(&self) -> LenientType {
        if self.style != Style::Plain {
            return LenientType::Str;
        }
        let v = self.value.as_str();
        match v {
            "" | "~" | "null" | "Null" | "NULL" => LenientType::Null,
            "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "true"
            | "True" | "TRUE" | "false" | "False" | "FALSE" | "on" | "On" | "ON" | "off"
            | "Off" | "OFF" => LenientType::Bool,
            _ if is_int(v) => LenientType::Int,
            _ if is_float(v) => LenientType::Float,
            _ => LenientType::Str,
        }
    }
}

impl Scalar {
    /// The type the YAML 1.2 core schema gives this scalar, as the npm `yaml` package (v2, its
    /// default) and js-yaml 4 read it: only `true` and `false` (three spellings each) are
    /// booleans, so `yes`, `no`, `on` and `off` are strings; integers are decimal, `0o` octal or
    /// `0x` hex, without YAML 1.1's underscores.
    pub fn core_type(&self) -> LenientType {
        if self.style != Style::Plain {
            return LenientType::Str;
        }
        let v = self.value.as_str();
        let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
        let is_core_int = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
            || v.strip_prefix("0o")
                .is_some_and(|o| !o.is_empty() && o.chars().all(|c| ('0'..='7').contains(&c)))
            || v.strip_prefix("0x")
                .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()));
        match v {
            "" | "~" | "null" | "Null" | "NULL" => LenientType::Null,
            "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => LenientType::Bool,
            _ if is_core_int => LenientType::Int,
            _ if is_core_float(v) => LenientType::Float,
            _ => LenientType::Str,
        }
    }
}

/// The core schema's float: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, or an
/// infinity or NaN.
fn is_core_float(v: &str) -> bool {
    let body = v.strip_prefix(['-', '+']).unwrap_or(v);
    if matches!(body, ".inf" | ".Inf" | ".INF") || matches!(v, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let d = e.strip_prefix(['-', '+']).unwrap_or(e);
        !d.is_empty() && d.chars().all(|c| c.is_ascii_digit())
    });
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let mantissa_ok = match fraction {
        Some(f) => digits(whole) && digits(f) && !(whole.is_empty() && f.is_empty()),
        None => !whole.is_empty() && digits(whole),
    };
    mantissa_ok && exponent_ok
}

fn is_int(v: &str) -> bool {
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_')
        && digits.starts_with(|c: char| c.is_ascii_digit())
}

fn is_float(v: &str) -> bool {
    let body = v.strip_prefix(['-', '+']).unwrap_or(v);
    matches!(body, ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN")
        || (body.contains('.')
            && body.chars().any(|c| c.is_ascii_digit())
            && body.parse::<f64>().is_ok())
}

/// A YAML node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A scalar.
    Scalar(Scalar),
    /// A mapping, in document order (duplicates kept, see [`YamlIssueKind::DuplicateKey`]).
    Map {
        entries: Vec<(Scalar, Node)>,
        span: Range<usize>,
    },
    /// A sequence.
    Seq {
        items: Vec<Node>,
        span: Range<usize>,
    },
}

impl Node {
    /// Where the node starts and ends in the YAML text.
    pub fn span(&self) -> Range<usize> {
        match self {
            Node::Scalar(s) => s.span.clone(),
            Node::Map { span, .. } | Node::Seq { span, .. } => span.clone(),
        }
    }

    /// The scalar, if this node is one.
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match self {
            Node::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The last value for `key` in a mapping (the one a lenient loader keeps).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map { entries, .. } => entries
                .iter()
                .rev()
                .find(|(k, _)| k.value == key)
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// A short name of the node's kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Node::Scalar(_) => "string",
            Node::Map { .. } => "mapping",
            Node::Seq { .. } => "list",
        }
    }
}

/// A construct some loaders refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlIssueKind {
    /// `[a, b]` or `{a: b}`.
    FlowCollection,
    /// `&anchor`.
    Anchor,
    /// `*alias`.
    Alias,
    /// `!!str`, `!custom`.
    Tag,
    /// The same key twice in one mapping.
    DuplicateKey,
    /// A key that is not a scalar (`? [a]`).
    ComplexKey,
    /// A tab where strictyaml's scanner refuses one (indentation, or right after `:`).
    Tab,
}

/// One such construct and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlIssue {
    /// What it is.
    pub kind: YamlIssueKind,
    /// Byte range in the YAML text.
    pub span: Range<usize>,
    /// Detail for the message (the duplicate key, the tag).
    pub detail: String,
}

/// A YAML syntax error no loader gets past.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlSyntaxError {
    /// The parser's message.
    pub message: String,
    /// Byte offset in the YAML text.
    pub offset: usize,
}

/// The outcome of parsing a YAML text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedYaml {
    /// The document's root; `None` for an empty document or a syntax error.
    pub root: Option<Node>,
    /// Constructs some loaders refuse.
    pub issues: Vec<YamlIssue>,
    /// The syntax error, if parsing stopped.
    pub error: Option<YamlSyntaxError>,
}

/// Whether YAML allows `c` in a stream: YAML 1.1's and 1.2's printable set (`c-printable`:
/// tab, line feed, carriage return, U+0020–U+007E, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD and
/// the planes above). Every reader a client parses frontmatter with checks it before anything
/// else and stops at the first other character: PyYAML's `Reader.check_printable`
/// ("unacceptable character #x0000: special characters are not allowed"), ruamel (strictyaml,
/// skills-ref), js-yaml ("the stream contains non-printable characters"), libyaml (serde_yaml)
/// and go-yaml ("control characters are not allowed"). saphyr-parser reads a NUL as text.
/// skills-ref 0.1.1 refuses such a skill by crashing: strictyaml re-raises ruamel's
/// `ReaderError` through an attribute it lacks (`AttributeError: 'ReaderError' object has no
/// attribute 'context_mark'`, seen 2026-12-06); a NUL in the body it validates as text.
fn yaml_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7E}' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Parses one YAML document. Never panics; a syntax error is data.
pub fn parse(text: &str) -> ParsedYaml {
    let mut res = ParsedYaml {
        root: None,
        issues: tab_issues(text),
        error: None,
    };
    if let Some((offset, c)) = text.char_indices().find(|(_, c)| !yaml_printable(*c)) {
        res.error = Some(YamlSyntaxError {
            message: format!(
                "unacceptable character #x{:04x}: special characters are not allowed",
                c as u32
            ),
            offset,
        });
        return res;
    }
    let char_to_byte = CharToByte::new(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut parser = Parser::new_from_str(text);
    let mut n_docs = 0;
    while let Some(event) = parser.next_event() {
        let (event, span) = match event {
            Ok(ok) => ok,
            Err(err) => {
                let offset = char_to_byte.at(err.marker().index());
                res.error = Some(YamlSyntaxError {
                    message: err.info().to_owned(),
                    offset,
                });
                res.root = None;
                return res;
            }
        };
        let range = char_to_byte.range(span);
        let flow = matches!(text.as_bytes().get(range.start), Some(b'[' | b'{'));
        let node = match event {
            Event::DocumentStart(_) => {
                n_docs += 1;
                if n_docs > 1 {
                    res.error = Some(YamlSyntaxError {
                        message: "expected a single document in the stream".to_owned(),
                        offset: range.start,
                    });
                    res.root = None;
                    return res;
                }
                continue;
            }
            Event::Scalar(value, style, anchor, tag) => {
                note_anchor_and_tag(&mut res.issues, anchor, tag.as_deref(), &range);
                let style = match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted => Style::SingleQuoted,
                    ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                    ScalarStyle::Literal => Style::Literal,
                    ScalarStyle::Folded => Style::Folded,
                };
                // saphyr reports an empty value as a plain `~` with an empty span.
                let value = if style == Style::Plain && range.is_empty() {
                    String::new()
                } else {
                    value.into_owned()
                };
                Node::Scalar(Scalar {
                    value,
                    style,
                    span: range,
                })
            }
            Event::Alias(_) => {
                res.issues.push(YamlIssue {
                    kind: YamlIssueKind::Alias,
                    span: range.clone(),
                    detail: text[range.clone()].to_owned(),
                });
                Node::Scalar(Scalar {
                    value: text[range.clone()].to_owned(),
                    style: Style::Plain,
                    span: range,
                })
            }
            Event::SequenceStart(anchor, tag) => {
                note_anchor_and_tag(&mut res.issues, anchor, tag.as_deref(), &range);
                if flow {
                    res.issues.push(YamlIssue {
                        kind: YamlIssueKind::FlowCollection,
                        span: range.clone(),
                        detail: "sequence".into(),
                    });
                }
                stack.push(Frame::Seq {
                    items: Vec::new(),
                    start: range.start,
                    flow,
                });
                continue;
            }
            Event::MappingStart(anchor, tag) => {
                note_anchor_and_tag(&mut res.issues, anchor, tag.as_deref(), &range);
                if flow {
                    res.issues.push(YamlIssue {
                        kind: YamlIssueKind::FlowCollection,
                        span: range.clone(),
                        detail: "mapping".into(),
                    });
                }
                stack.push(Frame::Map {
                    entries: Vec::new(),
                    pending_key: None,
                    start: range.start,
                    flow,
                });
                continue;
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq { items, start, flow }) => {
                    // A block collection ends with its last child; a flow one at its bracket.
                    let end = if flow {
                        range.end
                    } else {
                        items.last().map(|i| i.span().end).unwrap_or(range.end)
                    };
                    Node::Seq {
                        items,
                        span: start..end.max(start),
                    }
                }
                _ => continue,
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map {
                    entries,
                    start,
                    flow,
                    ..
                }) => {
                    let end = if flow {
                        range.end
                    } else {
                        entries
                            .last()
                            .map(|(k, v)| v.span().end.max(k.span.end))
                            .unwrap_or(range.end)
                    };
                    Node::Map {
                        entries,
                        span: start..end.max(start),
                    }
                }
                _ => continue,
            },
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => continue,
        };
        match stack.last_mut() {
            None => res.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                pending_key,
                ..
            }) => match pending_key.take() {
                None => match node {
                    Node::Scalar(key) => {
                        if entries.iter().any(|(k, _)| k.value == key.value) {
                            res.issues.push(YamlIssue {
                                kind: YamlIssueKind::DuplicateKey,
                                span: key.span.clone(),
                                detail: key.value.clone(),
                            });
                        }
                        *pending_key = Some(key);
                    }
                    other => {
                        res.issues.push(YamlIssue {
                            kind: YamlIssueKind::ComplexKey,
                            span: other.span(),
                            detail: String::new(),
                        });
                        *pending_key = Some(Scalar {
                            value: String::new(),
                            style: Style::Plain,
                            span: other.span(),
                        });
                    }
                },
                Some(key) => entries.push((key, node)),
            },
        }
    }
    res
}

enum Frame {
    Seq {
        items: Vec<Node>,
        start: usize,
        flow: bool,
    },
    Map {
        entries: Vec<(Scalar, Node)>,
        pending_key: Option<Scalar>,
        start: usize,
        flow: bool,
    },
}

fn note_anchor_and_tag(
    issues: &mut Vec<YamlIssue>,
    anchor: usize,
    tag: Option<&saphyr_parser::Tag>,
    range: &Range<usize>,
) {
    if anchor != 0 {
        issues.push(YamlIssue {
            kind: YamlIssueKind::Anchor,
            span: range.clone(),
            detail: String::new(),
        });
    }
    if let Some(tag) = tag {
        issues.push(YamlIssue {
            kind: YamlIssueKind::Tag,
            span: range.clone(),
            detail: format!("{}{}", tag.handle, tag.suffix),
        });
    }
}

/// Tabs that strictyaml's scanner (ruamel) refuses: in indentation, and as the separator after
/// `key:`. YAML 1.2 allows the second, so saphyr does not report it.
fn tab_issues(text: &str) -> Vec<YamlIssue> {
    let mut res = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let indent_end = line.len() - line.trim_start_matches([' ', '\t']).len();
        let mut tab_at = line[..indent_end].find('\t');
        if tab_at.is_none() && !line.trim_start().starts_with('#') {
            // `key:\tvalue` in a plain key line: a tab right after the first `:`.
            if let Some(colon) = line.find(":\t") {
                let key = &line[..colon];
                if !key.contains(['"', '\'', '#']) {
                    tab_at = Some(colon + 1);
                }
            }
        }
        if let Some(at) = tab_at {
            res.push(YamlIssue {
                kind: YamlIssueKind::Tab,
                span: offset + at..offset + at + 1,
                detail: String::new(),
            });
        }
        offset += line.len();
    }
    res
}

/// Converts saphyr's character indices to byte offsets.
struct CharToByte {
    offsets: Vec<usize>,
}

impl CharToByte {
    fn new(text: &str) -> CharToByte {
        let mut offsets: Vec<usize> = text.char_indices().map(|(idx, _)| idx).collect();
        offsets.push(text.len());
        CharToByte { offsets }
    }

    fn at(&self, char_idx: usize) -> usize {
        self.offsets
            .get(char_idx)
            .copied()
            .unwrap_or_else(|| self.offsets.last().copied().unwrap_or(0))
    }

    fn range(&self, span: Span) -> Range<usize> {
        let start = self.at(span.start.index());
        start..self.at(span.end.index()).max(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issues(text: &str) -> Vec<YamlIssueKind> {
        parse(text).issues.iter().map(|i| i.kind).collect()
    }

    #[test]
    fn a_control_character_is_the_error_every_yaml_reader_gives() {
        let parsed = parse("name: a\u{0}b\ndescription: x\n");
        let error = parsed.error.expect("refused");
        assert_eq!(error.offset, 7);
        assert!(error.message.contains("#x0000"), "{}", error.message);
        assert!(parsed.root.is_none());
        for c in [
            '\u{1}', '\u{7}', '\u{b}', '\u{c}', '\u{1b}', '\u{7f}', '\u{9f}', '\u{fffe}',
        ] {
            assert!(parse(&format!("a: {c}\n")).error.is_some(), "{c:?}");
        }
        // What YAML allows stays allowed: tab, CR, NEL, NBSP, a BOM, astral characters.
        for c in ['\t', '\r', '\u{85}', '\u{a0}', '\u{feff}', '\u{1f600}'] {
            assert!(yaml_printable(c), "{c:?}");
        }
        for c in ['\t', '\u{a0}', '\u{feff}', '\u{1f600}'] {
            assert!(parse(&format!("a: 'x{c}y'\n")).error.is_none(), "{c:?}");
        }
    }

    #[test]
    fn scalars_keep_text_style_and_span() {
        let text = "name: my-skill\ndescription: 'quoted'\nempty:\n";
        let parsed = parse(text);
        let root = parsed.root.expect("a mapping");
        let name = root.get("name").and_then(Node::as_scalar).expect("name");
        assert_eq!(
            (name.value.as_str(), name.style),
            ("my-skill", Style::Plain)
        );
        assert_eq!(&text[name.span.clone()], "my-skill");
        assert_eq!(
            root.get("description")
                .and_then(Node::as_scalar)
                .map(|s| s.style),
            Some(Style::SingleQuoted)
        );
        assert_eq!(
            root.get("empty")
                .and_then(Node::as_scalar)
                .map(|s| s.value.as_str()),
            Some("")
        );
    }

    #[test]
    fn strict_constructs_are_issues_not_errors() {
        assert_eq!(issues("a: [x, y]\n"), vec![YamlIssueKind::FlowCollection]);
        assert_eq!(issues("a: {x: y}\n"), vec![YamlIssueKind::FlowCollection]);
        assert_eq!(issues("a: x\na: y\n"), vec![YamlIssueKind::DuplicateKey]);
        assert_eq!(
            issues("a: &x v\nb: *x\n"),
            vec![YamlIssueKind::Anchor, YamlIssueKind::Alias]
        );
        assert_eq!(issues("a: !!str v\n"), vec![YamlIssueKind::Tag]);
        assert_eq!(issues("a:\tv\n"), vec![YamlIssueKind::Tab]);
        assert_eq!(issues("a: x [y]\n"), vec![]);
    }

    #[test]
    fn syntax_errors_are_located() {
        let text = "name: ok\ndescription: Use when: this\n";
        let parsed = parse(text);
        let err = parsed.error.expect("an error");
        assert!(
            err.offset > text.find("description").unwrap_or(0),
            "{err:?}"
        );
    }

    #[test]
    fn lenient_types_follow_yaml_1_1() {
        let t = |v: &str| {
            Scalar {
                value: v.into(),
                style: Style::Plain,
                span: 0..0,
            }
            .lenient_type()
        };
        assert_eq!(t("yes"), LenientType::Bool);
        assert_eq!(t("123"), LenientType::Int);
        assert_eq!(t("1.5"), LenientType::Float);
        assert_eq!(t("~"), LenientType::Null);
        assert_eq!(t("1.0.0"), LenientType::Str);
    }

    #[test]
    fn core_types_follow_yaml_1_2() {
        let t = |v: &str| {
            Scalar {
                value: v.into(),
                style: Style::Plain,
                span: 0..0,
            }
            .core_type()
        };
        for s in [
            "yes", "no", "on", "off", "y", "1_000", "1.0.0", "0b1", "my-skill",
        ] {
            assert_eq!(t(s), LenientType::Str, "{s}");
        }
        for b in ["true", "False", "TRUE"] {
            assert_eq!(t(b), LenientType::Bool, "{b}");
        }
        for i in ["123", "-4", "0o17", "0x1F"] {
            assert_eq!(t(i), LenientType::Int, "{i}");
        }
        for f in ["1.5", "1.", ".5", "1e3", "-2.5E-3", ".inf", "-.Inf", ".nan"] {
            assert_eq!(t(f), LenientType::Float, "{f}");
        }
        assert_eq!(t("~"), LenientType::Null);
        assert_eq!(t(""), LenientType::Null);
    }
}
