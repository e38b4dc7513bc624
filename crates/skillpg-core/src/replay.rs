//! A client's loader replayed whole, where its reading of SKILL.md is not YAML's and its checks
//! run on that reading: the profile names the replay ([`crate::Profile::replay`]), the rule
//! `loader-replay-refuses` reports its refusal, and the listing shows the name and description
//! it reads. Each replay is held to the client's own code by `tests/client_oracles.rs`.
//!
//! Three today: Qwen Code ([`qwen_code`]), OpenClaw ([`openclaw`], its doc says what it
//! replays) and Kimi Code CLI ([`kimi_cli`], in `replay/kimi.rs`).
//!
//! Qwen Code (`QwenLM/qwen-code` `packages/core/src/skills/skill-manager.ts`,
//! `parseSkillContent`, and `packages/core/src/utils/yaml-parser.ts`, as bundled in
//! `@qwen-code/qwen-code` 0.24.4): the BOM is dropped and line ends made `\n`; the frontmatter
//! must match `^---\n([\s\S]*?)\n---(?:\n|$)`; it is read with the `yaml` package's core schema,
//! and when that throws (a syntax error, a repeated key) or gives no mapping, with its own
//! line-by-line `parseSimple`; null values are dropped; then `name` and `description` must be
//! there and not `""`, `String(name)` must match `^[\p{L}\p{N}_:.-]+$`, `allowedTools` and
//! `paths` must be arrays and `model` a string, and the trimmed `String(description)` must not
//! be empty.

use crate::yaml::{self, LenientType, Node, YamlIssueKind};

mod kimi;
pub use kimi::kimi_cli;

/// What a replayed loader lists for a skill it loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientReading {
    /// The name it lists.
    pub name: String,
    /// The description it lists.
    pub description: String,
}

/// A loader's replay: SKILL.md's text and its folder's name in, what it lists or its refusal
/// (in its words) out.
pub type Replay = fn(&str, &str) -> Result<ClientReading, String>;

/// A JavaScript value, as a YAML reader gives it to a loader.
#[derive(Debug, Clone, PartialEq)]
enum Js {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Js>),
    Obj(Vec<(String, Js)>),
}

impl Js {
    /// JavaScript's `String(value)`. A mapping from the reader is a null-prototype object
    /// (`Object.create(null)`), which has no `toString`: `String` throws on it, and on a list
    /// that holds one.
    fn string(&self) -> Result<String, String> {
        Ok(match self {
            Js::Null => "null".to_owned(),
            Js::Bool(b) => b.to_string(),
            Js::Num(n) => js_number(*n),
            Js::Str(s) => s.clone(),
            // `Array.prototype.join`: null and undefined items are empty.
            Js::Arr(items) => items
                .iter()
                .map(|i| {
                    if *i == Js::Null {
                        Ok(String::new())
                    } else {
                        i.string()
                    }
                })
                .collect::<Result<Vec<_>, _>>()?
                .join(","),
            Js::Obj(_) => return Err("Cannot convert object to primitive value".to_owned()),
        })
    }

    fn get<'a>(entries: &'a [(String, Js)], key: &str) -> Option<&'a Js> {
        entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// How JavaScript prints a number (the cases a frontmatter value reaches).
fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_owned()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else if n == n.trunc() && n.abs() < 1e21 {
        format!("{}", n as i128)
    } else if n.abs() >= 1e21 {
        format!("{n:e}").replace("e", "e+").replace("e+-", "e-")
    } else {
        format!("{n}")
    }
}

/// A YAML node as the `yaml` package's core schema gives it.
fn core_value(node: &Node) -> Js {
    match node {
        Node::Scalar(s) => match s.core_type() {
            LenientType::Null => Js::Null,
            LenientType::Bool => Js::Bool(s.value.eq_ignore_ascii_case("true")),
            LenientType::Int => Js::Num(core_int(&s.value)),
            LenientType::Float => Js::Num(core_float(&s.value)),
            LenientType::Str => Js::Str(s.value.clone()),
            // The core schema has no dates.
            LenientType::Timestamp => Js::Str(s.value.clone()),
        },
        Node::Seq { items, .. } => Js::Arr(items.iter().map(core_value).collect()),
        Node::Map { entries, .. } => Js::Obj(
            entries
                .iter()
                .map(|(k, v)| (k.value.clone(), core_value(v)))
                .collect(),
        ),
    }
}

fn core_int(v: &str) -> f64 {
    let parsed = if let Some(o) = v.strip_prefix("0o") {
        i128::from_str_radix(o, 8).ok()
    } else if let Some(h) = v.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()
    } else {
        v.parse::<i128>().ok()
    };
    parsed.map_or(f64::NAN, |i| i as f64)
}

fn core_float(v: &str) -> f64 {
    let body = v.strip_prefix(['-', '+']).unwrap_or(v);
    let sign = if v.starts_with('-') { -1.0 } else { 1.0 };
    match body.to_ascii_lowercase().as_str() {
        ".inf" => sign * f64::INFINITY,
        ".nan" => f64::NAN,
        b => format!("0{b}")
            .parse::<f64>()
            .map_or(f64::NAN, |f| sign * f),
    }
}

/// `stripNullValues` / `sanitizeValue`: null values are dropped from mappings and sequences.
fn strip_nulls(value: Js) -> Js {
    match value {
        Js::Obj(entries) => Js::Obj(
            entries
                .into_iter()
                .filter(|(_, v)| *v != Js::Null)
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        Js::Arr(items) => Js::Arr(
            items
                .into_iter()
                .filter(|v| *v != Js::Null)
                .map(strip_nulls)
                .collect(),
        ),
        other => other,
    }
}

/// `parseValue` of `yaml-parser.ts`.
fn simple_value(value: &str) -> Js {
    match value {
        "true" => Js::Bool(true),
        "false" => Js::Bool(false),
        "null" => Js::Null,
        "" => Js::Str(String::new()),
        v if v.len() >= 2 && v.starts_with('"') && v.ends_with('"') => Js::Str(
            v[1..v.len() - 1]
                .replace("\\\"", "\"")
                .replace("\\\\", "\\"),
        ),
        v => match js_number_of(v) {
            Some(n) => Js::Num(n),
            None => Js::Str(v.to_owned()),
        },
    }
}

/// JavaScript's `Number(v)` where it is finite (`!isNaN(num) && isFinite(num)`), for the text
/// `parseValue` gives it (already trimmed and not empty).
fn js_number_of(v: &str) -> Option<f64> {
    let n = if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()? as f64
    } else if let Some(o) = v.strip_prefix("0o").or_else(|| v.strip_prefix("0O")) {
        u64::from_str_radix(o, 8).ok()? as f64
    } else if let Some(b) = v.strip_prefix("0b").or_else(|| v.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()? as f64
    } else {
        let ok = v
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            && v.chars().any(|c| c.is_ascii_digit());
        if !ok {
            return None;
        }
        v.parse::<f64>().ok()?
    };
    n.is_finite().then_some(n)
}

/// `parseSimple` of `yaml-parser.ts`: `key: value` lines, a `  - item` list or `  key: value`
/// map under a key with no value.
fn parse_simple(yaml: &str) -> Vec<(String, Js)> {
    let lines: Vec<&str> = yaml
        .split('\n')
        .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .collect();
    let mut result: Vec<(String, Js)> = Vec::new();
    let (mut current_key, mut current_array, mut in_array) = (String::new(), Vec::new(), false);
    let (mut current_object, mut in_object, mut object_key) = (Vec::new(), false, String::new());
    for (i, line) in lines.iter().enumerate() {
        if let Some(item) = line.strip_prefix("  - ") {
            if !in_array {
                in_array = true;
                current_array = Vec::new();
            }
            current_array.push(simple_value(item.trim()));
            continue;
        }
        if in_array {
            result.push((
                std::mem::take(&mut current_key),
                Js::Arr(std::mem::take(&mut current_array)),
            ));
            in_array = false;
        }
        if line.starts_with("  ") && in_object {
            let trimmed = line.trim();
            let (key, value) = trimmed.split_once(':').unwrap_or((trimmed, ""));
            current_object.push((key.trim().to_owned(), simple_value(value.trim())));
            continue;
        }
        if in_object {
            result.push((
                std::mem::take(&mut object_key),
                Js::Obj(std::mem::take(&mut current_object)),
            ));
            in_object = false;
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = value.trim();
            if value.is_empty() {
                current_key = key.trim().to_owned();
                if let Some(next) = lines.get(i + 1) {
                    if next.starts_with("  - ") {
                        continue;
                    } else if next.starts_with("  ") {
                        in_object = true;
                        object_key = std::mem::take(&mut current_key);
                        current_object = Vec::new();
                        continue;
                    }
                }
            } else {
                result.push((key.trim().to_owned(), simple_value(value)));
            }
        }
    }
    if in_array {
        result.push((current_key, Js::Arr(current_array)));
    }
    if in_object {
        result.push((object_key, Js::Obj(current_object)));
    }
    result
}

/// `^---\n([\s\S]*?)\n---(?:\n|$)`: the frontmatter block, after `normalizeContent`.
fn qwen_block(text: &str) -> Option<String> {
    let normalized = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let rest = normalized.strip_prefix("---\n")?;
    let mut from = 0;
    while let Some(at) = rest[from..].find("\n---") {
        let end = from + at;
        let after = &rest[end + 4..];
        if after.is_empty() || after.starts_with('\n') {
            return Some(rest[..end].to_owned());
        }
        from = end + 1;
    }
    None
}

/// Qwen Code's `parseSkillContent` (see the module's doc), in its own messages.
pub fn qwen_code(text: &str, _folder: &str) -> Result<ClientReading, String> {
    let block = qwen_block(text).ok_or("Invalid format: missing YAML frontmatter")?;
    let parsed = yaml::parse_with(&block, yaml::Leniency::YAML_PACKAGE);
    let threw = parsed.error.is_some()
        || parsed
            .issues
            .iter()
            .any(|i| i.kind == YamlIssueKind::DuplicateKey);
    let entries = match (&parsed.root, threw) {
        (Some(root @ Node::Map { .. }), false) => match strip_nulls(core_value(root)) {
            Js::Obj(entries) => entries,
            _ => Vec::new(),
        },
        // A throw, or a reading that is not a mapping: its simple parser.
        _ => match strip_nulls(Js::Obj(parse_simple(&block))) {
            Js::Obj(entries) => entries,
            _ => Vec::new(),
        },
    };
    let field = |key: &str| Js::get(&entries, key).filter(|v| **v != Js::Str(String::new()));
    let name = field("name").ok_or("Missing \"name\" in frontmatter")?;
    let description = field("description").ok_or("Missing \"description\" in frontmatter")?;
    let name = name.string()?;
    let name_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphabetic() || c.is_numeric() || matches!(c, '_' | ':' | '.' | '-'));
    if !name_ok {
        return Err(format!(
            "\"name\" must match /^[\\p{{L}}\\p{{N}}_:.-]+$/u (letters, digits, _, :, ., -); got \"{name}\""
        ));
    }
    // `validateSkillName` runs before `String(descriptionRaw)`.
    let description = description.string()?;
    if Js::get(&entries, "allowedTools").is_some_and(|v| !matches!(v, Js::Arr(_))) {
        return Err("\"allowedTools\" must be an array".to_owned());
    }
    if Js::get(&entries, "model").is_some_and(|v| !matches!(v, Js::Str(_))) {
        return Err("\"model\" must be a string".to_owned());
    }
    if let Some(paths) = Js::get(&entries, "paths") {
        let Js::Arr(items) = paths else {
            return Err("\"paths\" must be an array of glob patterns".to_owned());
        };
        for p in items {
            let p = p.string()?.trim().replace('\\', "/");
            let drive =
                p.len() >= 2 && p.as_bytes()[0].is_ascii_alphabetic() && p.as_bytes()[1] == b':';
            if p.starts_with('/') || drive {
                return Err(format!("\"paths\" entry \"{p}\" looks absolute"));
            }
            if p.split('/').any(|seg| seg == "..") {
                return Err(format!("\"paths\" entry \"{p}\" contains a \"..\" segment"));
            }
        }
    }
    if description.trim().is_empty() {
        return Err("Validation failed: \"description\" cannot be empty".to_owned());
    }
    Ok(ClientReading { name, description })
}

/// JSON of a value, as `JSON.stringify` writes it (no spaces).
fn json(value: &Js) -> String {
    match value {
        Js::Null => "null".to_owned(),
        Js::Bool(b) => b.to_string(),
        Js::Num(n) if n.is_finite() => js_number(*n),
        Js::Num(_) => "null".to_owned(),
        Js::Str(s) => json_string(s),
        Js::Arr(items) => format!("[{}]", items.iter().map(json).collect::<Vec<_>>().join(",")),
        Js::Obj(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}:{}", json_string(k), json(v)))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// `JSON.stringify` of a string.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `^([\w-]+):\s*(.*)$` on one line (JavaScript's `\w`, ASCII), the key and the rest.
fn key_line(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    (!key.is_empty() && key.chars().all(word)).then(|| (key, line[colon + 1..].trim_start()))
}

fn strip_quotes(value: &str) -> &str {
    let quoted = value.len() >= 2
        && ((value.starts_with('"') && value.ends_with('"'))
            || (value.starts_with('\'') && value.ends_with('\'')));
    if quoted {
        &value[1..value.len() - 1]
    } else {
        value
    }
}

/// `parseLineFrontmatter` (`packages/markdown-core/src/frontmatter.ts`): `key: value` lines, a
/// key with no value taking the indented lines below it; empty values are left out.
fn line_frontmatter(block: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = block.split('\n').collect();
    let mut result: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((key, raw)) = key_line(lines[i]) {
            let mut value = raw.trim().to_owned();
            let indented = |l: &str| l.starts_with([' ', '\t']);
            if value.is_empty() && lines.get(i + 1).is_some_and(|l| indented(l)) {
                let mut taken = Vec::new();
                while let Some(next) = lines.get(i + 1) {
                    if !next.is_empty() && !indented(next) {
                        break;
                    }
                    taken.push(*next);
                    i += 1;
                }
                value = taken.join("\n").trim().to_owned();
            } else {
                value = strip_quotes(&value).to_owned();
            }
            if !value.is_empty() {
                result.retain(|(k, _)| k != key);
                result.push((key.to_owned(), value));
            }
        }
        i += 1;
    }
    result
}

/// One reading of `parseYamlFrontmatterOnce`: the values as strings (structured ones as JSON),
/// or the YAML's first problem and where it is.
fn openclaw_yaml_once(
    block: &str,
    fallback: &[(String, String)],
) -> Result<Vec<(String, String)>, (String, usize)> {
    let parsed = yaml::parse_with(block, yaml::Leniency::YAML_PACKAGE);
    if let Some(e) = &parsed.error {
        return Err((e.message.clone(), e.offset));
    }
    if let Some(dup) = parsed
        .issues
        .iter()
        .find(|i| i.kind == YamlIssueKind::DuplicateKey)
    {
        return Err((
            "DUPLICATE_KEY: Map keys must be unique".to_owned(),
            dup.span.start,
        ));
    }
    let Some(Node::Map { entries, .. }) = &parsed.root else {
        return Err((
            "INVALID_ROOT: frontmatter must be a YAML mapping".to_owned(),
            usize::MAX,
        ));
    };
    let mut result: Vec<(String, String)> = Vec::new();
    for (key, node) in entries {
        let name = key.value.trim().to_owned();
        if name.is_empty() {
            continue;
        }
        let inline_colon = block[key.span.start..]
            .split('\n')
            .next()
            .and_then(key_line)
            .is_some_and(|(_, rest)| rest.contains(':'));
        let value = match core_value(node) {
            Js::Null => continue,
            Js::Str(s) => s.trim().to_owned(),
            v @ (Js::Num(_) | Js::Bool(_)) => v.string().unwrap_or_default(),
            v => match fallback.iter().find(|(k, _)| *k == name) {
                Some((_, line_value)) if inline_colon => line_value.clone(),
                _ => json(&v),
            },
        };
        result.retain(|(k, _)| *k != name);
        result.push((name, value));
    }
    for (k, v) in fallback {
        if !result.iter().any(|(rk, _)| rk == k) {
            result.push((k.clone(), v.clone()));
        }
    }
    Ok(result)
}

/// `normalizeFreeformFieldAtError`: the top-level `description:` line (or `read_when:` or
/// `summary:` with `: ` in its value) where YAML failed, its value quoted as JSON.
fn requote_at(block: &str, at: usize) -> Option<String> {
    let at = at.min(block.len());
    let start = block[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = block[start..].find('\n').map_or(block.len(), |i| start + i);
    let line = &block[start..end];
    let (key, raw) = if let Some(rest) = line.strip_prefix('"').or_else(|| line.strip_prefix('\''))
    {
        let close = rest.find(['"', '\''])?;
        let key = &rest[..close];
        let after = rest[close + 1..].strip_prefix(':')?;
        (key, after.trim_start())
    } else {
        key_line(line)?
    };
    let raw = raw.trim();
    let freeform = matches!(key, "description" | "read_when" | "summary");
    let block_indicator = raw.starts_with(['|', '>']) && raw.len() <= 3;
    if raw.is_empty()
        || !freeform
        || (key != "description" && !raw.contains(": "))
        || block_indicator
    {
        return None;
    }
    Some(format!(
        "{}{key}: {}{}",
        &block[..start],
        json_string(strip_quotes(raw)),
        &block[end..]
    ))
}

/// OpenClaw's `loadSingleSkillDirectory` (`src/skills/loading/local-loader.ts`) and the
/// frontmatter reader it calls (`packages/markdown-core/src/frontmatter.ts`), as bundled in
/// `openclaw` 2026.9.6: the BOM dropped and line ends made `\n`; an opening `---` (spaces
/// after it allowed) and a closing one, or no frontmatter at all; YAML's core schema, and
/// where it fails, the failing `description:` line quoted and read again (up to three times);
/// every value a trimmed string (lists and maps as JSON), and `key: value` lines filling what
/// YAML left out; the name, or the folder's, and a description that is not empty.
pub fn openclaw(text: &str, folder: &str) -> Result<ClientReading, String> {
    let normalized = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let opening = normalized
        .strip_prefix("---")
        .and_then(|rest| rest.find('\n').map(|nl| (rest, nl)))
        .filter(|(rest, nl)| rest[..*nl].chars().all(|c| c.is_whitespace()))
        .map(|(rest, nl)| &rest[nl + 1..]);
    let fields: Vec<(String, String)> = match opening {
        None => Vec::new(),
        Some(tail) => {
            let mut close = None;
            let mut offset = 0;
            for line in tail.split_inclusive('\n') {
                let bare = line.strip_suffix('\n').unwrap_or(line);
                if bare
                    .strip_prefix("---")
                    .is_some_and(|r| r.chars().all(|c| c == ' ' || c == '\t'))
                {
                    close = Some(offset);
                    break;
                }
                offset += line.len();
            }
            let Some(close) = close else {
                return Err(
                    "invalid frontmatter: UNTERMINATED_FRONTMATTER: missing closing --- delimiter"
                        .to_owned(),
                );
            };
            // The block is what comes before the closing line's `\n`.
            let block = tail[..close].strip_suffix('\n').unwrap_or(&tail[..close]);
            if block.is_empty() {
                Vec::new()
            } else {
                let fallback = line_frontmatter(block);
                let mut current = block.to_owned();
                let mut reading = openclaw_yaml_once(&current, &fallback);
                for _ in 0..3 {
                    let Err((_, at)) = &reading else { break };
                    let Some(next) = requote_at(&current, *at) else {
                        break;
                    };
                    if next == current {
                        break;
                    }
                    current = next;
                    reading = openclaw_yaml_once(&current, &fallback);
                }
                reading.map_err(|(why, _)| format!("invalid frontmatter: {why}"))?
            }
        }
    };
    let get = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim());
    let name = get("name")
        .filter(|n| !n.is_empty())
        .unwrap_or(folder.trim())
        .to_owned();
    let description = get("description").unwrap_or("").to_owned();
    if name.is_empty() {
        return Err("name is required".to_owned());
    }
    if description.is_empty() {
        return Err("description is required".to_owned());
    }
    Ok(ClientReading { name, description })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(text: &str) -> Result<(String, String), String> {
        qwen_code(text, "folder").map(|r| (r.name, r.description))
    }

    #[test]
    fn qwen_reads_yaml_then_its_simple_parser() {
        let ok = |n: &str, d: &str| Ok((n.to_owned(), d.to_owned()));
        assert_eq!(reads("---\nname: a\ndescription: b\n---\n"), ok("a", "b"));
        // Numbers and booleans are stringified; a one-item list is its item.
        assert_eq!(
            reads("---\nname: 123\ndescription: true\n---"),
            ok("123", "true")
        );
        assert_eq!(
            reads("---\nname:\n  - a\ndescription: 1.0\n---\n"),
            ok("a", "1")
        );
        // A repeated key throws in `yaml`; the simple parser keeps single quotes.
        assert!(reads("---\nname: 'a'\ndescription: b\nname: 'a'\n---\n").is_err());
        assert_eq!(
            reads("---\nname: 'a'\ndescription: b\nname: c\n---\n"),
            ok("c", "b")
        );
        // `--- ` is no delimiter; nor is an empty block.
        assert!(reads("--- \nname: a\ndescription: b\n---\n").is_err());
        assert!(reads("---\nname: a\ndescription: b\n--- \n").is_err());
        assert!(reads("---\n---\n").is_err());
        // BOM and CRLF are normalized first.
        assert_eq!(
            reads("\u{feff}---\r\nname: a\r\ndescription: b\r\n---\r\n"),
            ok("a", "b")
        );
        // Capitals and any script's letters pass; `/`, spaces and quotes do not.
        assert_eq!(
            reads("---\nname: My_Skill\ndescription: b\n---\n"),
            ok("My_Skill", "b")
        );
        assert!(reads("---\nname: a/b\ndescription: b\n---\n").is_err());
        assert!(reads("---\nname: a\ndescription: '  '\n---\n").is_err());
        assert!(reads("---\nname: a\ndescription: b\nallowedTools: Read\n---\n").is_err());
        assert_eq!(js_number(1e21), "1e+21");
        assert_eq!(js_number(-0.0), "0");
    }
}
