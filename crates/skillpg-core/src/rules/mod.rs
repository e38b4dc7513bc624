//! The rules. One rule per file; each file starts with the rule's documentation in fixed
//! sections (what it checks, why it matters, example, fix, source) and defines `META` and
//! `check`.
//!
//! Rules read an [`Analysis`] and a [`Profile`] and push [`Diagnostic`]s through [`Cx`]; the
//! profile decides each rule's severity. A rule never panics and never fails.

use std::ops::Range;

use crate::analysis::Analysis;
pub use crate::diagnostic::RuleMeta;
pub(crate) use crate::diagnostic::sources;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::frontmatter::SkillDoc;
use crate::profile::{Profile, YamlDialect};
use crate::yaml::{LenientType, Node, Scalar};

mod allowed_tools_not_string;
mod allowed_tools_wildcard;
mod binary_file;
mod body_too_long;
mod bom;
mod broken_link;
mod claude_code_field_type;
mod compatibility_empty;
mod compatibility_not_string;
mod compatibility_too_long;
mod dashes_in_frontmatter;
mod description_empty;
mod description_missing;
mod description_no_trigger;
mod description_not_string;
mod description_too_long;
mod duplicate_key;
mod dynamic_context_injection;
mod error_code_table;
pub mod escape_hatch;
mod fallback_fields_missing;
mod file_too_large;
mod frontmatter_missing;
mod frontmatter_not_mapping;
mod frontmatter_opening_line;
mod frontmatter_opening_space;
mod frontmatter_unclosed;
mod invalid_yaml;
mod license_not_string;
mod line_read_description;
mod loader_replay_refuses;
mod skill_md_too_large;
mod skill_type_unknown;
pub use claude_code_field_type::documented_values as claude_code_values;
pub use invalid_yaml::opencode_requote;
pub use line_read_description::{LettaReading, letta_description};
pub use name_collision::folded_name;
mod invisible_unicode;
pub(crate) mod listing_budget;
mod listing_cap;
mod metadata_not_mapping;
mod metadata_not_string_map;
mod missing_skill_md;
pub(crate) mod name_collision;
mod name_consecutive_hyphens;
mod name_dir_mismatch;
mod name_hyphen_edge;
mod name_invalid_chars;
mod name_missing;
mod name_not_lowercase;
mod name_not_string;
mod name_reserved_word;
mod name_rewritten;
mod name_too_long;
mod non_string_scalar;
mod non_utf8_text;
mod reference_too_large;
mod references_too_large;
mod schema_block_invalid;
mod short_description_too_long;
mod skill_md_lowercase;
mod skill_nested;
mod stale_count;
mod unknown_field;
mod version_not_semver;
mod xml_in_field;
mod yaml_anchor_or_tag;
mod yaml_comment_in_value;
mod yaml_flow_collection;
mod yaml_tab;

/// The state of one rule run: what it reads and where findings go.
pub(crate) struct Cx<'a> {
    pub a: &'a Analysis,
    pub profile: &'a Profile,
    /// The person's listing settings, where the client's listing has them.
    pub settings: &'a crate::catalog::ListingSettings,
    pub out: Vec<Diagnostic>,
}

impl<'a> Cx<'a> {
    /// Reports a finding of `meta` unless the profile turns the rule off; returns it so the
    /// caller can attach a fix.
    pub fn report(
        &mut self,
        meta: &'static RuleMeta,
        file: &str,
        span: Option<Range<usize>>,
        message: String,
    ) -> Option<&mut Diagnostic> {
        let severity = self.profile.severity(meta.name, meta.default_severity)?;
        self.out.push(Diagnostic {
            code: meta.code,
            rule: meta.name,
            severity,
            message,
            file: file.to_owned(),
            span,
            location: None,
            fix: None,
            source: meta.source,
        });
        self.out.last_mut()
    }

    /// Reports a finding in SKILL.md.
    pub fn report_md(
        &mut self,
        meta: &'static RuleMeta,
        span: Option<Range<usize>>,
        message: String,
    ) -> Option<&mut Diagnostic> {
        let file = self
            .a
            .skill_md_path
            .clone()
            .unwrap_or_else(|| "SKILL.md".to_owned());
        self.report(meta, &file, span, message)
    }

    /// SKILL.md, split and parsed.
    pub fn doc(&self) -> Option<&'a SkillDoc> {
        self.a.doc_for(self.profile)
    }

    /// The frontmatter's entries, when it is a mapping.
    pub fn entries(&self) -> Option<&'a [(Scalar, Node)]> {
        match self.doc()?.root()? {
            Node::Map { entries, .. } => Some(entries),
            _ => None,
        }
    }

    /// The value of top-level `key` (the last one, as lenient loaders keep; strictyaml refuses
    /// duplicates, which another rule reports).
    pub fn field(&self, key: &str) -> Option<&'a Node> {
        self.entries()?
            .iter()
            .rev()
            .find(|(k, _)| k.value == key)
            .map(|(_, v)| v)
    }

    /// Converts a YAML-relative range to a SKILL.md range.
    pub fn yaml_span(&self, range: &Range<usize>) -> Option<Range<usize>> {
        self.doc().map(|d| d.yaml_span(range))
    }

    /// A field's value as a string under the profile's YAML dialect, or the Python type name a
    /// loader would report.
    pub fn as_string(&self, node: &'a Node) -> Result<&'a str, &'static str> {
        match node {
            Node::Scalar(s) => match self.profile.yaml {
                YamlDialect::StrictYaml => Ok(&s.value),
                d if d.types_scalars() => match d.type_of(s) {
                    LenientType::Str => Ok(&s.value),
                    LenientType::Bool => Err("bool"),
                    LenientType::Int => Err("int"),
                    LenientType::Float => Err("float"),
                    LenientType::Null => Err("NoneType"),
                    LenientType::Timestamp => Err("date"),
                },
                d if d.reads_string(s) => Ok(&s.value),
                _ => Err("null"),
            },
            Node::Map { .. } => Err("dict"),
            Node::Seq { .. } => Err("list"),
        }
    }
}

/// "`description` is 1,030 UTF-16 units; GitHub Copilot / VS Code allows 1,024": a length over
/// a profile's limit, in the profile's unit.
pub(crate) fn over_limit(
    rule: &str,
    field: &str,
    count: usize,
    limit: usize,
    profile: &Profile,
) -> String {
    // A verdict and its finding come from one decision: a client that loads the skill anyway
    // is not said to allow only `limit`.
    if profile.is_gate(rule) {
        format!(
            "`{field}` is {} {}; {} allows {}",
            n(count),
            profile.length_unit.noun(),
            profile.title,
            n(limit)
        )
    } else {
        format!(
            "`{field}` is {} {} as {} counts them; {} loads it, but the specification allows {} and stricter clients refuse the skill",
            n(count),
            profile.length_unit.noun(),
            profile.title,
            profile.title,
            n(limit)
        )
    }
}

/// A finding about skills installed together, with no file or place of its own: what the
/// catalog rules (`listing-budget`, `name-collision`) report.
pub(crate) fn catalog_finding(
    meta: &'static RuleMeta,
    severity: crate::diagnostic::Severity,
    message: String,
) -> Diagnostic {
    Diagnostic {
        code: meta.code,
        rule: meta.name,
        severity,
        message,
        file: String::new(),
        span: None,
        location: None,
        fix: None,
        source: meta.source,
    }
}

/// `26362` as `26,362`.
pub(crate) fn n(count: usize) -> String {
    crate::diagnostic::thousands(count as u64)
}

/// A fix of one edit.
pub(crate) fn fix(
    title: &str,
    range: Range<usize>,
    replacement: String,
    applicability: Applicability,
) -> Fix {
    Fix {
        title: title.to_owned(),
        edits: vec![Edit { range, replacement }],
        applicability,
    }
}

/// Quotes `value` as a YAML double-quoted scalar.
pub(crate) fn yaml_quote(value: &str) -> String {
    let mut res = String::with_capacity(value.len() + 2);
    res.push('"');
    for c in value.chars() {
        match c {
            '"' => res.push_str("\\\""),
            '\\' => res.push_str("\\\\"),
            '\n' => res.push_str("\\n"),
            '\t' => res.push_str("\\t"),
            c => res.push(c),
        }
    }
    res.push('"');
    res
}

/// Python's `str.isalnum` for one character: general category L* or N*.
pub(crate) fn python_isalnum(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter | GeneralCategoryGroup::Number
    )
}

/// The stripped and NFKC-normalised name, as skills-ref compares it.
pub(crate) fn normalized_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.trim().nfkc().collect()
}

/// The name when it is a non-empty string (what the name rules check); `None` otherwise.
pub(crate) fn checked_name<'a>(cx: &Cx<'a>) -> Option<(String, &'a Scalar)> {
    let node = cx.field("name")?;
    let value = cx.as_string(node).ok()?;
    if value.trim().is_empty() {
        return None;
    }
    Some((normalized_name(value), node.as_scalar()?))
}

/// A rule: what it declares about itself, and its check.
pub(crate) type Rule = (&'static RuleMeta, fn(&mut Cx));

/// Every rule, in the order it runs (the order skills-ref reports in for the spec checks).
pub(crate) static ALL: &[Rule] = &[
    (&missing_skill_md::META, missing_skill_md::check),
    (&skill_md_lowercase::META, skill_md_lowercase::check),
    (&skill_nested::META, skill_nested::check),
    (&bom::META, bom::check),
    (&frontmatter_missing::META, frontmatter_missing::check),
    (&frontmatter_unclosed::META, frontmatter_unclosed::check),
    (
        &frontmatter_opening_line::META,
        frontmatter_opening_line::check,
    ),
    (
        &frontmatter_opening_space::META,
        frontmatter_opening_space::check,
    ),
    (&invalid_yaml::META, invalid_yaml::check),
    (&yaml_flow_collection::META, yaml_flow_collection::check),
    (&yaml_anchor_or_tag::META, yaml_anchor_or_tag::check),
    (&yaml_tab::META, yaml_tab::check),
    (&duplicate_key::META, duplicate_key::check),
    (
        &frontmatter_not_mapping::META,
        frontmatter_not_mapping::check,
    ),
    (&dashes_in_frontmatter::META, dashes_in_frontmatter::check),
    (&unknown_field::META, unknown_field::check),
    (&line_read_description::META, line_read_description::check),
    (&name_missing::META, name_missing::check),
    (&name_not_string::META, name_not_string::check),
    (&name_too_long::META, name_too_long::check),
    (&name_not_lowercase::META, name_not_lowercase::check),
    (&name_hyphen_edge::META, name_hyphen_edge::check),
    (
        &name_consecutive_hyphens::META,
        name_consecutive_hyphens::check,
    ),
    (&name_invalid_chars::META, name_invalid_chars::check),
    (&name_dir_mismatch::META, name_dir_mismatch::check),
    (&name_reserved_word::META, name_reserved_word::check),
    (&name_rewritten::META, name_rewritten::check),
    (&description_missing::META, description_missing::check),
    (&description_empty::META, description_empty::check),
    (&description_not_string::META, description_not_string::check),
    (
        &fallback_fields_missing::META,
        fallback_fields_missing::check,
    ),
    (&description_too_long::META, description_too_long::check),
    (
        &short_description_too_long::META,
        short_description_too_long::check,
    ),
    (&xml_in_field::META, xml_in_field::check),
    (
        &compatibility_not_string::META,
        compatibility_not_string::check,
    ),
    (&compatibility_too_long::META, compatibility_too_long::check),
    (&license_not_string::META, license_not_string::check),
    (&loader_replay_refuses::META, loader_replay_refuses::check),
    (&skill_type_unknown::META, skill_type_unknown::check),
    (&compatibility_empty::META, compatibility_empty::check),
    (&metadata_not_mapping::META, metadata_not_mapping::check),
    (
        &metadata_not_string_map::META,
        metadata_not_string_map::check,
    ),
    (
        &allowed_tools_not_string::META,
        allowed_tools_not_string::check,
    ),
    (&non_string_scalar::META, non_string_scalar::check),
    (&yaml_comment_in_value::META, yaml_comment_in_value::check),
    (&claude_code_field_type::META, claude_code_field_type::check),
    (&listing_cap::META, listing_cap::check),
    (&file_too_large::META, file_too_large::check),
    (&skill_md_too_large::META, skill_md_too_large::check),
    (&binary_file::META, binary_file::check),
    (&non_utf8_text::META, non_utf8_text::check),
    (&body_too_long::META, body_too_long::check),
    (&reference_too_large::META, reference_too_large::check),
    (&references_too_large::META, references_too_large::check),
    (&broken_link::META, broken_link::check),
    (&escape_hatch::META, escape_hatch::check),
    (&stale_count::META, stale_count::check),
    (
        &dynamic_context_injection::META,
        dynamic_context_injection::check,
    ),
    (&allowed_tools_wildcard::META, allowed_tools_wildcard::check),
    (&invisible_unicode::META, invisible_unicode::check),
    (&description_no_trigger::META, description_no_trigger::check),
    (&schema_block_invalid::META, schema_block_invalid::check),
    (&version_not_semver::META, version_not_semver::check),
    (&error_code_table::META, error_code_table::check),
];

include!(concat!(env!("OUT_DIR"), "/rule_docs.rs"));

/// The documentation of the rule `name` (what it checks, why it matters, example, fix,
/// source), when its file has one.
pub fn rule_doc(name: &str) -> Option<&'static str> {
    RULE_DOCS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// Every rule's metadata, the catalog-level ones included.
pub fn all_rules() -> Vec<&'static RuleMeta> {
    let mut res: Vec<&'static RuleMeta> = ALL.iter().map(|(m, _)| *m).collect();
    res.push(&listing_budget::META);
    res.push(&name_collision::META);
    res.extend(crate::ingest::RULES);
    res
}
