//! The chapter's protocol as text: the system prompt a decoder sees (the instruction, then one
//! `- name: description` line a skill) and its ChatML turns, cut where the tokenizer starts
//! afresh. The decoder runs it; the page shows it without loading a model.

use crate::skills::RouteSkill;

/// The system prompt: the instruction, then one `- name: description` line a skill.
pub fn system_prompt(skills: &[RouteSkill]) -> String {
    let mut s = String::from(
        "You route a user's request to a skill. These skills are installed, one per line as `- name: description`:\n",
    );
    for RouteSkill { name, description } in skills {
        s.push_str(&format!(
            "- {name}: {}\n",
            description.split_whitespace().collect::<Vec<_>>().join(" ")
        ));
    }
    s.push_str(
        "\nAnswer with the name of the one skill that should handle the request, exactly as written above, or NONE if no skill fits. Answer with the name or NONE only.",
    );
    s
}

/// The text before the request: the system turn, and the opening of the user's turn up to its
/// special token.
pub fn prompt_prefix(system: &str) -> String {
    format!("<|im_start|>system\n{system}<|im_end|>\n<|im_start|>")
}

/// The text after the prefix: the user's turn and the opening of the assistant's.
pub fn prompt_request(request: &str) -> String {
    format!("user\n{request}<|im_end|>\n<|im_start|>assistant\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_prompt_lists_every_skill_on_one_line() {
        let skill = |name: &str, description: &str| RouteSkill {
            name: name.into(),
            description: description.into(),
        };
        let s = system_prompt(&[skill("a", "Does\n  A."), skill("b", "Does B.")]);
        assert!(s.contains("\n- a: Does A.\n- b: Does B.\n"), "{s}");
        assert!(s.ends_with("NONE only."));
    }
}
