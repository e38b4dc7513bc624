//! Kimi Code CLI (`MoonshotAI/kimi-cli` `src/kimi_cli/skill/__init__.py`, `parse_skill_text`,
//! and `src/kimi_cli/utils/frontmatter.py`, as shipped in `kimi-cli` 1.52.0): the text is split
//! into Python's `splitlines()`; the first line, stripped, must be `---`, and the frontmatter
//! ends at the next line that is `---` stripped (a BOM is no whitespace: it hides the
//! frontmatter); its lines are joined and the whole stripped before PyYAML's `safe_load` (so a
//! tab before the first key is gone, and a block scalar at the end keeps no line break); a
//! failure is `Invalid frontmatter YAML.`, a value that is no mapping `Frontmatter YAML must be
//! a mapping.`. Then `name = frontmatter.get("name") or <folder>`, a `description` that is
//! falsy gives way to the body's first meaningful line (cut at 240 characters) or `No
//! description provided.`, a `type` other than `standard` or `flow` is refused, and pydantic's
//! `Skill` wants `name` and `description` to be strings. Held to the package itself by
//! `tests/client_oracles.rs`.

use super::ClientReading;
use crate::yaml::{self, LenientType, Node, Scalar, YamlIssueKind};

/// Python's `str.isspace`, which `str.strip` strips: Unicode's white space and the four
/// information separators (U+001C to U+001F); not a BOM.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn py_strip(s: &str) -> &str {
    s.trim_matches(py_space)
}

/// Python's `str.splitlines()`: lines end at `\n`, `\r`, `\r\n`, `\v`, `\f`, U+001C to U+001E,
/// U+0085, U+2028 and U+2029; the ends are dropped.
fn py_splitlines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let ends = matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !ends {
            continue;
        }
        lines.push(&text[start..i]);
        let mut next = i + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
            chars.next();
            next += 1;
        }
        start = next;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// A value as PyYAML's `safe_load` gives it to the loader, as far as it matters here: whether
/// it is a string, and whether Python reads it as true.
enum Py {
    Str(String),
    Other {
        truthy: bool,
        type_name: &'static str,
    },
}

impl Py {
    fn truthy(&self) -> bool {
        match self {
            Py::Str(s) => !s.is_empty(),
            Py::Other { truthy, .. } => *truthy,
        }
    }
}

/// Whether PyYAML's number `v` is zero: every digit `0` (`0`, `0x0`, `0.0`, `-0_0`).
fn zero(v: &str) -> bool {
    let digits = v
        .trim_start_matches(['-', '+'])
        .trim_start_matches("0x")
        .trim_start_matches("0b");
    digits
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .all(|c| c == '0')
}

fn scalar_value(s: &Scalar) -> Py {
    match s.type_in(yaml::Schema::PyYaml) {
        LenientType::Str => Py::Str(s.value.clone()),
        LenientType::Null => Py::Other {
            truthy: false,
            type_name: "NoneType",
        },
        LenientType::Bool => Py::Other {
            truthy: matches!(
                s.value.as_str(),
                "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON"
            ),
            type_name: "bool",
        },
        LenientType::Int => Py::Other {
            truthy: !zero(&s.value),
            type_name: "int",
        },
        LenientType::Float => Py::Other {
            truthy: s.value.contains(['i', 'I', 'n', 'N']) || !zero(&s.value),
            type_name: "float",
        },
        LenientType::Timestamp => Py::Other {
            truthy: true,
            type_name: "date",
        },
    }
}

fn value(node: &Node) -> Py {
    match node {
        Node::Scalar(s) => scalar_value(s),
        Node::Seq { items, .. } => Py::Other {
            truthy: !items.is_empty(),
            type_name: "list",
        },
        Node::Map { entries, .. } => Py::Other {
            truthy: !entries.is_empty(),
            type_name: "dict",
        },
    }
}

/// `parse_frontmatter`: the mapping (`None` where there is no frontmatter), or its error.
fn frontmatter(text: &str) -> Result<Option<Node>, String> {
    let lines = py_splitlines(text);
    if lines.first().is_none_or(|l| py_strip(l) != "---") {
        return Ok(None);
    }
    let Some(end) = lines[1..].iter().position(|l| py_strip(l) == "---") else {
        return Ok(None);
    };
    let joined = lines[1..=end].join("\n");
    let yaml_text = py_strip(&joined);
    if yaml_text.is_empty() {
        return Ok(None);
    }
    let parsed = yaml::parse(yaml_text);
    let refused = parsed.error.is_some()
        || parsed.issues.iter().any(|i| {
            matches!(
                i.kind,
                YamlIssueKind::TabAfterColon
                    | YamlIssueKind::TabIndent
                    | YamlIssueKind::DuplicateAnchor
            )
        });
    if refused {
        return Err("Invalid frontmatter YAML.".to_owned());
    }
    match parsed.root {
        Some(Node::Map { mut entries, span }) => {
            // A block scalar that ends the stripped text has no line break after it, so
            // PyYAML's clipped value has none (saphyr adds one at the end of the input).
            for (_, v) in &mut entries {
                if let Node::Scalar(s) = v
                    && matches!(s.style, yaml::Style::Literal | yaml::Style::Folded)
                    && s.span.end >= yaml_text.len()
                    && s.value.ends_with('\n')
                    && !s.value.ends_with("\n\n")
                {
                    s.value.pop();
                }
            }
            Ok(Some(Node::Map { entries, span }))
        }
        // PyYAML reads an empty document as None, which is no mapping either.
        _ => Err("Frontmatter YAML must be a mapping.".to_owned()),
    }
}

/// `strip_frontmatter`: the text after the frontmatter, or all of it.
fn body(text: &str) -> &str {
    let mut at = 0;
    let mut first = true;
    for line in text.split_inclusive('\n') {
        let bare = py_strip(line);
        if first {
            if bare != "---" {
                return text;
            }
            first = false;
        } else if bare == "---" {
            return &text[at + line.len()..];
        }
        at += line.len();
    }
    text
}

/// `_first_meaningful_line` and `_truncate`: the body's first line that is not blank or `---`,
/// stripped and cut to 240 characters with `…`.
fn fallback_description(text: &str) -> String {
    const LIMIT: usize = 240;
    let Some(line) = py_splitlines(body(text))
        .into_iter()
        .map(py_strip)
        .find(|l| !l.is_empty() && *l != "---")
    else {
        return "No description provided.".to_owned();
    };
    if line.chars().count() <= LIMIT {
        return line.to_owned();
    }
    let cut: String = line.chars().take(LIMIT - 1).collect();
    format!("{}…", cut.trim_end_matches(py_space))
}

/// Kimi Code CLI's `parse_skill_text` (see the module's doc), in its own messages.
pub fn kimi_cli(text: &str, folder: &str) -> Result<ClientReading, String> {
    let fm = frontmatter(text)?;
    let get = |key: &str| fm.as_ref().and_then(|m| m.get(key)).map(value);
    let name = match get("name") {
        Some(v) if v.truthy() => v,
        _ => Py::Str(folder.to_owned()),
    };
    let description = match get("description") {
        Some(v) if v.truthy() => v,
        _ => Py::Str(fallback_description(text)),
    };
    if let Some(kind) = get("type").filter(Py::truthy) {
        let shown = match &kind {
            Py::Str(s) => s.clone(),
            Py::Other { type_name, .. } => format!("a {type_name}"),
        };
        if !matches!(&kind, Py::Str(s) if s == "standard" || s == "flow") {
            return Err(format!("Invalid skill type \"{shown}\""));
        }
    }
    let string = |field: &str, v: Py| match v {
        Py::Str(s) => Ok(s),
        Py::Other { type_name, .. } => Err(format!(
            "1 validation error for Skill: {field}: Input should be a valid string (got {type_name})"
        )),
    };
    Ok(ClientReading {
        name: string("name", name)?,
        description: string("description", description)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_strips_are_pythons() {
        assert_eq!(py_splitlines("a\r\nb\rc\u{2028}d\n"), ["a", "b", "c", "d"]);
        assert_eq!(py_strip("\u{1f} x \t"), "x");
        assert_eq!(py_strip("\u{feff}---"), "\u{feff}---", "a BOM is no space");
    }

    #[test]
    fn it_reads_as_kimi_does() {
        let read = |t: &str| kimi_cli(t, "folder");
        // A tab before the first key is stripped with the frontmatter's text.
        assert_eq!(
            read("---\n\tname: a\ndescription: b\n---\n").map(|r| r.name),
            Ok("a".into())
        );
        // A falsy name is the folder's; a falsy description the body's first line.
        let r = read("---\nname: 0\ndescription: ''\n---\n\n# Title\n").expect("loads");
        assert_eq!(
            (r.name.as_str(), r.description.as_str()),
            ("folder", "# Title")
        );
        // A BOM hides the frontmatter: its first line is the description.
        assert_eq!(
            read("\u{feff}---\nname: a\n---\n").map(|r| r.description),
            Ok("\u{feff}---".into())
        );
        assert!(
            read("---\nname: 1.5\ndescription: b\n---\n").is_err(),
            "a float name"
        );
        assert!(read("---\nname: [a\n---\n").is_err());
    }
}
