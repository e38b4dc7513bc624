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
    /// Its explicit tag, resolved (`!!str` is `tag:yaml.org,2002:str`), if it has one.
    pub tag: Option<String>,
}

/// The type a typing loader gives a plain scalar: PyYAML's ([`Scalar::lenient_type`]), js-yaml
/// 3's or 4's, or the YAML 1.2 core schema's ([`Scalar::core_type`], the npm `yaml` package).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LenientType {
    /// A string.
    Str,
    /// A boolean (YAML 1.1's `yes`, `no`, `on`, `off` too, where the schema has them).
    Bool,
    /// An integer.
    Int,
    /// A float.
    Float,
    /// `null`, `~` or an empty value.
    Null,
    /// A date or a date and time (PyYAML's and js-yaml's timestamp type).
    Timestamp,
}

/// The implicit types of a YAML library's default schema: which plain scalars are booleans,
/// numbers, nulls and dates. Each is its library's own resolver, written out from its source
/// (PyYAML 6's `resolver.py`, js-yaml 3.14's and 4.1's `type/*.js`, the `yaml` package's
/// core schema) and held to the library itself on generated scalars
/// (`tests/yaml_libraries.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// PyYAML's YAML 1.1 resolver: `yes`/`no`/`on`/`off` are booleans (not `y`/`n`); `0x`,
    /// `0b`, a leading-zero octal, underscores and sexagesimal `12:30` are integers; a float
    /// needs a dot (`1e3` is a string); dates are timestamps.
    PyYaml,
    /// js-yaml 3's default safe schema: YAML 1.2 booleans, YAML 1.1 numbers (a leading-zero
    /// octal, `0b`, `0x`, underscores, sexagesimal; not `0o`), `1e3` a float, dates.
    JsYaml3,
    /// js-yaml 4's default schema: as js-yaml 3, but `0o` octal, a leading zero decimal, no
    /// sexagesimal.
    JsYaml4,
    /// The YAML 1.2 core schema (the npm `yaml` package): decimal, `0o` and `0x` integers
    /// without underscores, no dates.
    Core,
}

impl Scalar {
    /// The type PyYAML gives this scalar (quoted and block scalars are always strings).
    pub fn lenient_type(&self) -> LenientType {
        self.type_in(Schema::PyYaml)
    }

    /// The type the YAML 1.2 core schema gives this scalar, as the npm `yaml` package (v2, its
    /// default) reads it.
    pub fn core_type(&self) -> LenientType {
        self.type_in(Schema::Core)
    }

    /// The type `schema` gives this scalar: a quoted or block scalar, or one tagged `!!str`,
    /// is a string.
    pub fn type_in(&self, schema: Schema) -> LenientType {
        if self.style != Style::Plain || self.tag.as_deref() == Some("tag:yaml.org,2002:str") {
            return LenientType::Str;
        }
        let v = self.value.as_str();
        let is_null = matches!(v, "" | "~" | "null" | "Null" | "NULL");
        let is_bool = matches!(v, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
            || (schema == Schema::PyYaml
                && matches!(
                    v,
                    "yes"
                        | "Yes"
                        | "YES"
                        | "no"
                        | "No"
                        | "NO"
                        | "on"
                        | "On"
                        | "ON"
                        | "off"
                        | "Off"
                        | "OFF"
                ));
        let (is_int, is_float, is_timestamp) = match schema {
            Schema::PyYaml => (pyyaml_int(v), pyyaml_float(v), is_timestamp(v)),
            Schema::JsYaml3 => (
                js_yaml_int(v, false),
                js_yaml_float(v, false),
                is_timestamp(v),
            ),
            Schema::JsYaml4 => (
                js_yaml_int(v, true),
                js_yaml_float(v, true),
                is_timestamp(v),
            ),
            Schema::Core => (core_int(v), is_core_float(v), false),
        };
        if is_null {
            LenientType::Null
        } else if is_bool {
            LenientType::Bool
        } else if is_int {
            LenientType::Int
        } else if is_float {
            LenientType::Float
        } else if is_timestamp {
            LenientType::Timestamp
        } else {
            LenientType::Str
        }
    }
}

/// `v` without one leading sign.
fn unsigned(v: &str) -> &str {
    v.strip_prefix(['-', '+']).unwrap_or(v)
}

/// Whether `s` is one or more characters of `digit` or `_`, with at least one digit.
fn digits_underscored(s: &str, digit: impl Fn(char) -> bool) -> bool {
    s.chars().all(|c| c == '_' || digit(c)) && s.chars().any(digit)
}

/// `(:[0-5]?[0-9])+`: sexagesimal parts after the first.
fn sexagesimal_tail(s: &str) -> bool {
    !s.is_empty()
        && s.strip_prefix(':').is_some_and(|rest| {
            rest.split(':').all(|part| {
                matches!(part.len(), 1 | 2)
                    && part.chars().all(|c| c.is_ascii_digit())
                    && (part.len() == 1 || part.as_bytes()[0] <= b'5')
            })
        })
}

/// PyYAML's int: `[-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(?:0|[1-9][0-9_]*) |
/// [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+`.
fn pyyaml_int(v: &str) -> bool {
    let u = unsigned(v);
    if let Some(b) = u.strip_prefix("0b") {
        return !b.is_empty() && b.chars().all(|c| matches!(c, '0' | '1' | '_'));
    }
    if let Some(h) = u.strip_prefix("0x") {
        return !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit() || c == '_');
    }
    if let Some(o) = u.strip_prefix('0') {
        return o.is_empty() || o.chars().all(|c| ('0'..='7').contains(&c) || c == '_');
    }
    if !u.starts_with(|c: char| ('1'..='9').contains(&c)) {
        return false;
    }
    match u.find(':') {
        None => u.chars().all(|c| c.is_ascii_digit() || c == '_'),
        Some(i) => {
            u[..i].chars().all(|c| c.is_ascii_digit() || c == '_') && sexagesimal_tail(&u[i..])
        }
    }
}

/// `[eE][-+][0-9]+` (PyYAML: a sign is required) or `[eE][-+]?[0-9]+` (js-yaml).
fn exponent(e: &str, sign_required: bool) -> bool {
    let rest = match e.strip_prefix(['-', '+']) {
        Some(r) => r,
        None if sign_required => return false,
        None => e,
    };
    !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit())
}

/// A float's text as every resolver reads it first: `Err(true)` for an infinity or NaN,
/// `Err(false)` for an exponent the resolver refuses (`sign_required`: PyYAML's
/// `[eE][-+][0-9]+`, else `[eE][-+]?[0-9]+`), else the mantissa without its sign and whether an
/// exponent followed.
fn float_split(v: &str, sign_required: bool) -> Result<(&str, bool), bool> {
    let u = unsigned(v);
    if matches!(u, ".inf" | ".Inf" | ".INF") || matches!(v, ".nan" | ".NaN" | ".NAN") {
        return Err(true);
    }
    match u.find(['e', 'E']) {
        Some(i) if exponent(&u[i + 1..], sign_required) => Ok((&u[..i], true)),
        Some(_) => Err(false),
        None => Ok((u, false)),
    }
}

/// PyYAML's float: `[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)? | \.[0-9_]+(?:[eE][-+][0-9]+)?
/// | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)`.
fn pyyaml_float(v: &str) -> bool {
    let (mantissa, has_exponent) = match float_split(v, true) {
        Ok(parts) => parts,
        Err(special) => return special,
    };
    let Some(dot) = mantissa.find('.') else {
        return false;
    };
    let (whole, fraction) = (&mantissa[..dot], &mantissa[dot + 1..]);
    let fraction_ok = fraction.chars().all(|c| c.is_ascii_digit() || c == '_');
    if whole.is_empty() {
        // `\.[0-9_]+`, unsigned only.
        return !v.starts_with(['-', '+']) && !fraction.is_empty() && fraction_ok;
    }
    if !whole.starts_with(|c: char| c.is_ascii_digit()) || !fraction_ok {
        return false;
    }
    match whole.find(':') {
        None => whole.chars().all(|c| c.is_ascii_digit() || c == '_'),
        Some(i) => {
            !has_exponent
                && whole[..i].chars().all(|c| c.is_ascii_digit() || c == '_')
                && sexagesimal_tail(&whole[i..])
        }
    }
}

/// js-yaml's `resolveYamlInteger` (3.14 without `0o` and with leading-zero octal and
/// sexagesimal; 4.1 with `0o` and a leading zero read as decimal).
fn js_yaml_int(v: &str, v4: bool) -> bool {
    let u = unsigned(v);
    if u.is_empty() || u.ends_with('_') {
        return false;
    }
    if let Some(rest) = u.strip_prefix('0') {
        if rest.is_empty() {
            return true;
        }
        if let Some(b) = rest.strip_prefix('b') {
            return digits_underscored(b, |c| matches!(c, '0' | '1'));
        }
        if let Some(h) = rest.strip_prefix('x') {
            return digits_underscored(h, |c| c.is_ascii_hexdigit());
        }
        if v4 {
            if let Some(o) = rest.strip_prefix('o') {
                return digits_underscored(o, |c| ('0'..='7').contains(&c));
            }
            // A leading zero is read as a decimal in js-yaml 4.
            return digits_underscored(rest, |c| c.is_ascii_digit());
        }
        return digits_underscored(rest, |c| ('0'..='7').contains(&c));
    }
    if u.starts_with('_') {
        return false;
    }
    match u.find(':') {
        Some(i) if !v4 => {
            digits_underscored(&u[..i], |c| c.is_ascii_digit()) && sexagesimal_tail(&u[i..])
        }
        _ => digits_underscored(u, |c| c.is_ascii_digit()),
    }
}

/// js-yaml's `YAML_FLOAT_PATTERN` (3.14 with sexagesimal floats), and no trailing `_`.
fn js_yaml_float(v: &str, v4: bool) -> bool {
    if v.ends_with('_') {
        return false;
    }
    let (mantissa, has_exponent) = match float_split(v, false) {
        Ok(parts) => parts,
        Err(special) => return special,
    };
    let (whole, fraction) = match mantissa.find('.') {
        Some(d) => (&mantissa[..d], Some(&mantissa[d + 1..])),
        None => (mantissa, None),
    };
    let fraction_ok = fraction.is_none_or(|f| f.chars().all(|c| c.is_ascii_digit() || c == '_'));
    if whole.is_empty() {
        // `\.[0-9_]+(?:[eE][-+]?[0-9]+)?`, unsigned only.
        return !v.starts_with(['-', '+'])
            && fraction.is_some_and(|f| !f.is_empty())
            && fraction_ok;
    }
    if !fraction_ok {
        return false;
    }
    if let Some(i) = whole.find(':') {
        // Sexagesimal floats (js-yaml 3 only) need a dot and no exponent.
        return !v4
            && fraction.is_some()
            && !has_exponent
            && whole.starts_with(|c: char| c.is_ascii_digit())
            && whole[..i].chars().all(|c| c.is_ascii_digit() || c == '_')
            && sexagesimal_tail(&whole[i..]);
    }
    let whole_ok = if v4 {
        whole.starts_with(|c: char| c.is_ascii_digit())
    } else {
        // `0|[1-9][0-9_]*`
        whole == "0" || whole.starts_with(|c: char| ('1'..='9').contains(&c))
    };
    whole_ok && whole.chars().all(|c| c.is_ascii_digit() || c == '_')
}

/// A YAML 1.1 timestamp: `YYYY-MM-DD`, or a date and a time
/// (`YYYY-M-D[Tt ]h:mm:ss[.f][ ][Z|±h[:mm]]`), as PyYAML and js-yaml resolve it.
fn is_timestamp(v: &str) -> bool {
    let b = v.as_bytes();
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    if b.len() == 10
        && digits(&b[..4])
        && b[4] == b'-'
        && digits(&b[5..7])
        && b[7] == b'-'
        && digits(&b[8..])
    {
        return true;
    }
    // The date part of a date and time: four digits, then one or two, twice.
    let mut parts = v.splitn(3, '-');
    let (Some(y), Some(m), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    if y.len() != 4 || !digits(y.as_bytes()) || !matches!(m.len(), 1 | 2) || !digits(m.as_bytes()) {
        return false;
    }
    let day_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    if !matches!(day_len, 1 | 2) {
        return false;
    }
    let after = &rest[day_len..];
    let time = if let Some(t) = after.strip_prefix(['T', 't']) {
        t
    } else if after.starts_with([' ', '\t']) {
        after.trim_start_matches([' ', '\t'])
    } else {
        return false;
    };
    // h:mm:ss at least.
    let mut hms = time.splitn(3, ':');
    let (Some(h), Some(mm), Some(ss)) = (hms.next(), hms.next(), hms.next()) else {
        return false;
    };
    matches!(h.len(), 1 | 2)
        && digits(h.as_bytes())
        && mm.len() == 2
        && digits(mm.as_bytes())
        && ss.len() >= 2
        && digits(&ss.as_bytes()[..2])
}

/// The core schema's integer: `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
fn core_int(v: &str) -> bool {
    let digits = unsigned(v);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
        || v.strip_prefix("0o")
            .is_some_and(|o| !o.is_empty() && o.chars().all(|c| ('0'..='7').contains(&c)))
        || v.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The core schema's float: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, or an
/// infinity or NaN.
fn is_core_float(v: &str) -> bool {
    let mantissa = match float_split(v, false) {
        Ok((mantissa, _)) => mantissa,
        Err(special) => return special,
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    match fraction {
        Some(f) => digits(whole) && digits(f) && !(whole.is_empty() && f.is_empty()),
        None => !whole.is_empty() && digits(whole),
    }
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
    /// An anchor name defined a second time (PyYAML's composer refuses it: "found duplicate
    /// anchor"; YAML 1.2 and the JavaScript and Rust libraries let the later one win).
    DuplicateAnchor,
    /// `!!str`, `!custom`.
    Tag,
    /// The same key twice in one mapping.
    DuplicateKey,
    /// A key that is not a scalar (`? [a]`).
    ComplexKey,
    /// A tab as indentation (before a key), which YAML's grammar never allows.
    TabIndent,
    /// A tab as the separator right after `key:`, which YAML 1.2 allows and PyYAML and
    /// strictyaml refuse.
    TabAfterColon,
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
    parse_with(text, Leniency::NONE)
}

/// What a library reads where YAML's grammar (and saphyr, which follows it) stops: the
/// constructs are still reported as [`YamlIssue`]s, and each rule weighs them per dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Leniency {
    /// A tab right after `key:` is a separator (YAML 1.2's grammar allows it; saphyr does not).
    pub tab_after_colon: bool,
    /// Tabs before a key are not indentation (js-yaml 3 reads `\tkey: v` as `key: v`).
    pub tab_indent: bool,
    /// A NUL is text (the npm `yaml` package's plain scalars).
    pub nul: bool,
}

impl Leniency {
    /// YAML's grammar as saphyr reads it.
    pub const NONE: Leniency = Leniency {
        tab_after_colon: false,
        tab_indent: false,
        nul: false,
    };

    /// The npm `yaml` package's reading (pi, Qwen Code, OpenClaw): a tab after `key:`, a NUL
    /// inside a plain scalar.
    pub const YAML_PACKAGE: Leniency = Leniency {
        tab_after_colon: true,
        tab_indent: false,
        nul: true,
    };

    /// Whether reading `text` this way can differ from reading it strictly.
    pub fn matters_for(self, text: &str) -> bool {
        ((self.tab_after_colon || self.tab_indent) && text.contains('\t'))
            || (self.nul && text.contains('\0'))
    }
}

/// [`parse`], read with `leniency`: a tab after `key:` becomes a space, tabs before a key are
/// dropped (every span mapped back to `text`), a NUL is text. The issues are `text`'s own.
pub fn parse_with(text: &str, leniency: Leniency) -> ParsedYaml {
    let issues = tab_issues(text);
    if !leniency.matters_for(text) {
        return parse_text(text, issues, false);
    }
    // The text as the library sees it, and where each of its bytes was in `text`.
    let mut seen = String::with_capacity(text.len());
    let mut origin: Vec<usize> = Vec::with_capacity(text.len() + 1);
    let mut offset = 0;
    // js-yaml 3 counts only spaces as a line's indentation, except on the document's first
    // line of content, where the key's column (a tab counting one) sets the mapping's.
    let mut first_content = true;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let content = line.trim();
        let tabs_as_columns = first_content && !content.is_empty() && !content.starts_with('#');
        if tabs_as_columns {
            first_content = false;
        }
        let after_colon = tab_after_colon(&line[indent..]).map(|at| indent + at);
        for (at, c) in line.char_indices() {
            let in_indent = leniency.tab_indent && at < indent && c == '\t';
            if in_indent && !tabs_as_columns {
                continue;
            }
            let c = if in_indent || (leniency.tab_after_colon && Some(at) == after_colon) {
                ' '
            } else {
                c
            };
            seen.push(c);
            origin.extend(std::iter::repeat_n(offset + at, c.len_utf8()));
        }
        offset += line.len();
    }
    origin.push(text.len());
    let mut parsed = parse_text(&seen, Vec::new(), leniency.nul);
    let back = |r: &Range<usize>| origin[r.start.min(seen.len())]..origin[r.end.min(seen.len())];
    if let Some(root) = parsed.root.as_mut() {
        remap(root, &back);
    }
    for issue in &mut parsed.issues {
        issue.span = back(&issue.span);
    }
    if let Some(e) = parsed.error.as_mut() {
        e.offset = origin[e.offset.min(seen.len())];
    }
    parsed.issues.extend(issues);
    parsed
}

/// Every span of `node` through `back`.
fn remap(node: &mut Node, back: &impl Fn(&Range<usize>) -> Range<usize>) {
    match node {
        Node::Scalar(s) => s.span = back(&s.span),
        Node::Map { entries, span } => {
            *span = back(span);
            for (k, v) in entries {
                k.span = back(&k.span);
                remap(v, back);
            }
        }
        Node::Seq { items, span } => {
            *span = back(span);
            for item in items {
                remap(item, back);
            }
        }
    }
}

/// Parses `text` with saphyr, after `issues` (a NUL read as text where `reads_nul`).
fn parse_text(text: &str, issues: Vec<YamlIssue>, reads_nul: bool) -> ParsedYaml {
    let mut res = ParsedYaml {
        root: None,
        issues,
        error: None,
    };
    if let Some((offset, c)) = text
        .char_indices()
        .find(|(_, c)| !(yaml_printable(*c) || reads_nul && *c == '\0'))
    {
        res.error = Some(YamlSyntaxError {
            message: format!(
                "unacceptable character #x{:04x}: special characters are not allowed",
                c as u32
            ),
            offset,
        });
        return res;
    }
    // saphyr's scanner takes a NUL for the end of its input: where a NUL is text, it reads
    // U+0001 in its place (same length; a U+0001 of the text itself stopped above), and each
    // value gets its NUL back.
    let nul_free;
    let text = if reads_nul && text.contains('\0') {
        nul_free = text.replace('\0', "\u{1}");
        nul_free.as_str()
    } else {
        text
    };
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
                note_anchor_and_tag(&mut res.issues, anchor, tag.as_deref(), &range, text);
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
                } else if reads_nul && value.contains('\u{1}') {
                    value.replace('\u{1}', "\0")
                } else {
                    value.into_owned()
                };
                Node::Scalar(Scalar {
                    value,
                    style,
                    span: range,
                    tag: tag.as_deref().map(|t| format!("{}{}", t.handle, t.suffix)),
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
                    tag: None,
                })
            }
            Event::SequenceStart(anchor, tag) => {
                note_anchor_and_tag(&mut res.issues, anchor, tag.as_deref(), &range, text);
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
                note_anchor_and_tag(&mut res.issues, anchor, tag.as_deref(), &range, text);
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
                            tag: None,
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
    text: &str,
) {
    if anchor != 0 {
        // The anchor's name: the `&name` before the node on its line (saphyr gives an id).
        let start = range.start.min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        // The last `&` that opens a token on the node's line, up to the node's first byte
        // (its span starts at the anchor for some nodes, after it for others).
        let end = start + text[start..].chars().next().map_or(0, char::len_utf8);
        let region = &text[line_start..end];
        let name = region
            .char_indices()
            .rfind(|&(i, c)| {
                c == '&'
                    && region[..i]
                        .chars()
                        .next_back()
                        .is_none_or(|p| p.is_whitespace())
            })
            .map(|(i, _)| {
                text[line_start + i + 1..]
                    .split(|c: char| c.is_whitespace() || c == ',' || c == ']' || c == '}')
                    .next()
                    .unwrap_or("")
                    .to_owned()
            })
            .unwrap_or_default();
        let repeated = !name.is_empty()
            && issues
                .iter()
                .any(|i| i.kind == YamlIssueKind::Anchor && i.detail == name);
        if repeated {
            issues.push(YamlIssue {
                kind: YamlIssueKind::DuplicateAnchor,
                span: range.clone(),
                detail: name.clone(),
            });
        }
        issues.push(YamlIssue {
            kind: YamlIssueKind::Anchor,
            span: range.clone(),
            detail: name,
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
        let mut tab_at = line[..indent_end]
            .find('\t')
            .map(|at| (at, YamlIssueKind::TabIndent));
        if tab_at.is_none()
            && let Some(at) = tab_after_colon(line)
        {
            tab_at = Some((at, YamlIssueKind::TabAfterColon));
        }
        if let Some((at, kind)) = tab_at {
            res.push(YamlIssue {
                kind,
                span: offset + at..offset + at + 1,
                detail: String::new(),
            });
        }
        offset += line.len();
    }
    res
}

/// Where `key:\tvalue` in a plain key line has its tab right after the first `:`.
fn tab_after_colon(line: &str) -> Option<usize> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    let colon = line.find(":\t")?;
    (!line[..colon].contains(['"', '\'', '#'])).then_some(colon + 1)
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
        assert_eq!(issues("a:\tv\n"), vec![YamlIssueKind::TabAfterColon]);
        assert_eq!(issues("a: v\n\tb: w\n"), vec![YamlIssueKind::TabIndent]);
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
                tag: None,
            }
            .lenient_type()
        };
        assert_eq!(t("yes"), LenientType::Bool);
        // PyYAML 6's resolver: not `y`/`n`; hex, binary and sexagesimal integers; a float
        // needs a dot (held to PyYAML itself in tests/yaml_libraries.rs).
        assert_eq!(t("y"), LenientType::Str);
        assert_eq!(t("0x1F"), LenientType::Int);
        assert_eq!(t("12:30"), LenientType::Int);
        assert_eq!(t("1e3"), LenientType::Str);
        assert_eq!(t("2024-01-01"), LenientType::Timestamp);
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
                tag: None,
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
