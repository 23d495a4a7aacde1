//! `card-shape`, the skills: each `skills[]` entry is an AgentSkill with the members
//! `lf.a2a.v1.AgentSkill` marks REQUIRED: `id`, `name`, `description` and `tags` (a2a.proto;
//! A2A §5.7: required arrays are not empty).

use serde_json::Value;

use super::{Place, Problem, kind_of};

/// Checks the skill at `at`. Over gRPC an empty `tags` is not on the wire, so its absence
/// says nothing there (`wire_drops_empty`).
pub(super) fn check_skill(
    skill: &Value,
    at: &str,
    wire_drops_empty: bool,
    report: &mut dyn FnMut(Problem),
) {
    let Some(object) = skill.as_object() else {
        report(Problem {
            place: Place::Value(at.to_owned()),
            label: "not an object".to_owned(),
            message: format!("`skills` entry is {}, expected an AgentSkill object", kind_of(skill)),
            help: "write each skill as `{\"id\":...,\"name\":...,\"description\":...,\"tags\":[...]}` (A2A §8.2)"
                .to_owned(),
            warning: false,
        });
        return;
    };
    let text = |member: &str| {
        object
            .get(member)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
    };
    let mut missing: Vec<&str> = ["id", "name", "description"]
        .into_iter()
        .filter(|m| !text(m))
        .collect();
    let tags_listed = match object.get("tags") {
        Some(Value::Array(tags)) => !tags.is_empty() || wire_drops_empty,
        None | Some(Value::Null) => wire_drops_empty,
        Some(_) => false,
    };
    if !tags_listed {
        missing.push("tags");
    }
    if missing.is_empty() {
        return;
    }
    let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
    report(Problem {
        place: Place::Opening(at.to_owned()),
        label: format!("no {}", missing.join(", ")),
        message: format!(
            "`skills` entry lacks {} (`id`, `name` and `description` non-empty strings, `tags` a non-empty list)",
            names.join(", ")
        ),
        help: "every AgentSkill needs `id`, `name`, `description` and at least one of `tags` (REQUIRED in \
               `lf.a2a.v1.AgentSkill`, a2a.proto); clients list and pick skills by them"
            .to_owned(),
        warning: false,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(skill: Value, grpc: bool) -> Vec<String> {
        let mut found = Vec::new();
        check_skill(&skill, "/skills/0", grpc, &mut |p| found.push(p.message));
        found
    }

    #[test]
    fn a_skill_needs_id_name_description_and_tags() {
        let full =
            json!({"id": "plan", "name": "Plan", "description": "Plans trips", "tags": ["travel"]});
        assert!(problems(full, false).is_empty());
        let found = problems(json!({"id": "plan", "name": " ", "tags": []}), false);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].contains("lacks `name`, `description`, `tags`"),
            "{found:?}"
        );
        assert_eq!(problems(json!("plan"), false).len(), 1);
    }

    #[test]
    fn grpc_cannot_tell_empty_tags_from_none() {
        let skill = json!({"id": "plan", "name": "Plan", "description": "Plans trips"});
        assert!(problems(skill.clone(), true).is_empty());
        assert_eq!(problems(skill, false).len(), 1);
    }
}
