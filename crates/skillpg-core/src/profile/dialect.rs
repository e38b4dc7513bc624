//! How a client's YAML library reads a frontmatter: one [`YamlDialect`] per library, named after
//! it, with what it does where the libraries differ (which scalars are booleans, where a tab
//! may stand, what a NUL or a null in a string field becomes). Each is held to the library
//! itself, run the way its client calls it, on generated frontmatter
//! (`crates/skillpg-cli/tests/yaml_oracles.rs`, through [`YamlDialect::read_fields`]).

use crate::yaml::{self, LenientType, Node, Scalar, YamlIssueKind};

/// How the frontmatter's YAML is read: the library a client parses it with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlDialect {
    /// strictyaml (on ruamel), as skills-ref reads it: every scalar is a string; flow
    /// collections, anchors, tags, duplicate keys and tabs are errors.
    StrictYaml,
    /// PyYAML 6's `safe_load`: YAML 1.1 types (`yes` is a boolean, `1_000` an integer), the
    /// last duplicate key wins, a tab as indentation or right after `key:` is refused. Also
    /// the reading assumed for the clients whose parser is not public (claude.ai, Claude Code,
    /// Copilot, Cursor, Letta Code, Augment, the Copilot CLI), as their documentation's
    /// examples and the corpus are read there.
    PyYaml,
    /// js-yaml 3.14's `safeLoad`, as gray-matter 4 calls it (Roo Code, Kilo Code, OpenCode):
    /// only `true`/`false` are booleans, a tab after `key:` is a separator, and a tab before a
    /// key is read as indentation; a repeated key is refused.
    JsYaml3,
    /// js-yaml 4.1's `load` (Cline, Gemini CLI): js-yaml 3's types, a tab after `key:` read as
    /// a separator, a tab as indentation refused.
    JsYaml4,
    /// The npm `yaml` package (v2)'s `parse` (pi, Qwen Code, OpenClaw): the YAML 1.2 core
    /// schema; a tab after `key:` is a separator; it reads a NUL inside a plain scalar as text
    /// where every other library stops at it.
    YamlJs,
    /// serde_yaml 0.9 (libyaml's grammar) into a Rust struct of `Option<String>` fields
    /// (Goose): any scalar but a null reads as its text (`name: 123` is "123"); a tab after
    /// `key:` is a separator.
    SerdeYaml,
    /// serde_yaml_ng 0.10 into a struct of `String` fields (Zed): as [`YamlDialect::SerdeYaml`],
    /// but every scalar, a null too, is its text (`null` is "null", `~` is "~", nothing is "").
    SerdeYamlNg,
}

/// What a client's fields get from its YAML library: `name` or `description`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldReading {
    /// No such key.
    Absent,
    /// A null (`~`, `null`, nothing).
    Null,
    /// A string, with its text.
    Str(String),
    /// A boolean.
    Bool,
    /// An integer.
    Int,
    /// A float.
    Float,
    /// A list.
    Seq,
    /// A mapping.
    Map,
    /// A date, or a date and time.
    Timestamp,
}

/// What a YAML library makes of a whole frontmatter, for the two fields every client reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontmatterReading {
    /// The library refuses it (a syntax error, a refused tab, a repeated key where it refuses
    /// one, a field of a type its struct cannot take).
    Error,
    /// A document that is not a mapping (a scalar, a list).
    NotMapping,
    /// A mapping (an empty document reads as an empty one).
    Fields {
        /// `name`.
        name: FieldReading,
        /// `description`.
        description: FieldReading,
    },
}

impl YamlDialect {
    /// Every dialect, for the tests that hold each to its library.
    pub const ALL: [YamlDialect; 7] = [
        YamlDialect::StrictYaml,
        YamlDialect::PyYaml,
        YamlDialect::JsYaml3,
        YamlDialect::JsYaml4,
        YamlDialect::YamlJs,
        YamlDialect::SerdeYaml,
        YamlDialect::SerdeYamlNg,
    ];

    /// The library, as its registry names it, with the version modelled.
    pub fn library(self) -> &'static str {
        match self {
            YamlDialect::StrictYaml => "strictyaml 1.7.3 (skills-ref 0.1.1)",
            YamlDialect::PyYaml => "PyYAML 6.0.3",
            YamlDialect::JsYaml3 => "js-yaml 3.14.1 (through gray-matter 4.0.3)",
            YamlDialect::JsYaml4 => "js-yaml 4.1.1",
            YamlDialect::YamlJs => "yaml 2.9.1",
            YamlDialect::SerdeYaml => "serde_yaml 0.9.34",
            YamlDialect::SerdeYamlNg => "serde_yaml_ng 0.10.0",
        }
    }

    /// Whether scalars get types (the Python and JavaScript libraries), as opposed to being
    /// strings (strictyaml) or read into `String` fields (serde).
    pub fn types_scalars(self) -> bool {
        matches!(
            self,
            YamlDialect::PyYaml | YamlDialect::JsYaml3 | YamlDialect::JsYaml4 | YamlDialect::YamlJs
        )
    }

    /// Whether this is serde reading into a struct of string fields.
    pub fn is_serde(self) -> bool {
        matches!(self, YamlDialect::SerdeYaml | YamlDialect::SerdeYamlNg)
    }

    /// Whether the library follows YAML 1.2's types (only `true`/`false` are booleans), rather
    /// than YAML 1.1's.
    pub fn yaml_1_2_types(self) -> bool {
        matches!(
            self,
            YamlDialect::JsYaml3 | YamlDialect::JsYaml4 | YamlDialect::YamlJs
        )
    }

    /// Whether the library refuses a tab of this kind (YAML's own grammar allows a tab as the
    /// separator after `key:`, never as indentation; js-yaml 3 reads it as indentation too).
    pub fn refuses_tab(self, kind: YamlIssueKind) -> bool {
        match kind {
            YamlIssueKind::TabAfterColon => {
                matches!(self, YamlDialect::StrictYaml | YamlDialect::PyYaml)
            }
            YamlIssueKind::TabIndent => self != YamlDialect::JsYaml3,
            _ => false,
        }
    }

    /// What the library reads where YAML's grammar stops: a tab after `key:` (every library
    /// but PyYAML's and strictyaml's), tabs before a key (js-yaml 3), a NUL inside a plain
    /// scalar (the `yaml` package), where the others stop at any character YAML does not print.
    pub fn leniency(self) -> yaml::Leniency {
        if self == YamlDialect::YamlJs {
            return yaml::Leniency::YAML_PACKAGE;
        }
        yaml::Leniency {
            tab_after_colon: !self.refuses_tab(YamlIssueKind::TabAfterColon),
            tab_indent: !self.refuses_tab(YamlIssueKind::TabIndent),
            nul: false,
        }
    }

    /// Whether a repeated key is refused (the JavaScript and Rust libraries, strictyaml), or
    /// the last one kept (PyYAML).
    pub fn refuses_duplicate_keys(self) -> bool {
        self != YamlDialect::PyYaml
    }

    /// Whether a JavaScript loader of this dialect reads `s` as a falsy value (null, `false`,
    /// `0`, an empty string), which `name || folder` turns into the folder's name.
    pub fn reads_falsy(self, s: &Scalar) -> bool {
        if self == YamlDialect::StrictYaml {
            return s.value.is_empty();
        }
        match self.type_of(s) {
            LenientType::Null => true,
            LenientType::Str => s.value.is_empty(),
            // YAML 1.1's false is also `no`, `off` and `n` (PyYAML only: js-yaml 3 and 4 read
            // those as strings).
            LenientType::Timestamp => false,
            LenientType::Bool | LenientType::Int | LenientType::Float => {
                matches!(
                    s.value.as_str(),
                    "false" | "False" | "FALSE" | "0" | "0.0" | "-0"
                ) || (self == YamlDialect::PyYaml
                    && matches!(
                        s.value.as_str(),
                        "no" | "No" | "NO" | "off" | "Off" | "OFF" | "n" | "N"
                    ))
            }
        }
    }

    /// Whether this dialect reads `s` into a string (strictyaml: always; serde: all but a
    /// null, serde_yaml_ng a null too; the typing loaders: a scalar of no other type).
    pub fn reads_string(self, s: &Scalar) -> bool {
        match self {
            YamlDialect::StrictYaml => true,
            YamlDialect::SerdeYaml | YamlDialect::SerdeYamlNg => {
                s.lenient_type() != LenientType::Null || self.null_as_text(s)
            }
            _ => self.type_of(s) == LenientType::Str,
        }
    }

    /// Whether this null is read into a `String` field as its text: serde_yaml_ng's are (a
    /// plain `null` is "null", `~` is "~", an empty value ""), where serde_yaml's
    /// `Option<String>` reads `None`.
    pub fn null_as_text(self, s: &Scalar) -> bool {
        self == YamlDialect::SerdeYamlNg && s.style == yaml::Style::Plain
    }

    /// The type this dialect gives a scalar (strictyaml's and serde's strings aside).
    pub fn type_of(self, s: &Scalar) -> LenientType {
        s.type_in(self.schema())
    }

    /// The implicit types of the library's default schema.
    pub fn schema(self) -> yaml::Schema {
        match self {
            YamlDialect::JsYaml3 => yaml::Schema::JsYaml3,
            YamlDialect::JsYaml4 => yaml::Schema::JsYaml4,
            YamlDialect::YamlJs => yaml::Schema::Core,
            _ => yaml::Schema::PyYaml,
        }
    }

    /// What the library makes of the frontmatter `text` for the fields `name` and
    /// `description`: the model the YAML libraries are held to.
    pub fn read_fields(self, text: &str) -> FrontmatterReading {
        let parsed = yaml::parse_with(text, self.leniency());
        if parsed.error.is_some() {
            return FrontmatterReading::Error;
        }
        let refused = parsed.issues.iter().any(|i| match i.kind {
            YamlIssueKind::TabAfterColon | YamlIssueKind::TabIndent => self.refuses_tab(i.kind),
            YamlIssueKind::DuplicateKey => self.refuses_duplicate_keys(),
            YamlIssueKind::DuplicateAnchor => self == YamlDialect::PyYaml,
            YamlIssueKind::FlowCollection
            | YamlIssueKind::Anchor
            | YamlIssueKind::Alias
            | YamlIssueKind::Tag
            | YamlIssueKind::ComplexKey => self == YamlDialect::StrictYaml,
        });
        if refused {
            return FrontmatterReading::Error;
        }
        let Some(root) = parsed.root else {
            return FrontmatterReading::Fields {
                name: FieldReading::Absent,
                description: FieldReading::Absent,
            };
        };
        match &root {
            Node::Map { .. } => {}
            Node::Scalar(s) if self.type_of(s) == LenientType::Null && !self.is_serde() => {
                return FrontmatterReading::Fields {
                    name: FieldReading::Absent,
                    description: FieldReading::Absent,
                };
            }
            _ if self.is_serde() => return FrontmatterReading::Error,
            _ => return FrontmatterReading::NotMapping,
        }
        let field = |key: &str| -> Option<FieldReading> {
            let Some(node) = root.get(key) else {
                return Some(FieldReading::Absent);
            };
            Some(match node {
                Node::Scalar(s) if self.reads_string(s) => FieldReading::Str(s.value.clone()),
                // A struct of string fields cannot take anything else: the whole read fails.
                _ if self.is_serde() => match node {
                    Node::Scalar(_) => FieldReading::Null,
                    _ => return None,
                },
                Node::Scalar(s) => match self.type_of(s) {
                    LenientType::Str => FieldReading::Str(s.value.clone()),
                    LenientType::Bool => FieldReading::Bool,
                    LenientType::Int => FieldReading::Int,
                    LenientType::Float => FieldReading::Float,
                    LenientType::Null => FieldReading::Null,
                    LenientType::Timestamp => FieldReading::Timestamp,
                },
                Node::Seq { .. } => FieldReading::Seq,
                Node::Map { .. } => FieldReading::Map,
            })
        };
        match (field("name"), field("description")) {
            (Some(name), Some(description)) => FrontmatterReading::Fields { name, description },
            _ => FrontmatterReading::Error,
        }
    }
}
