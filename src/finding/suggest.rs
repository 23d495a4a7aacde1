//! "Did you mean": the known ErrorInfo reason nearest to a misspelt one.

use crate::protocol::table::table;

/// The known reason closest to `reason`, if any is close enough to be a useful guess.
/// `TaskNotFound` and `TASK_NOT_FOUND_ERROR` give `TASK_NOT_FOUND`;
/// `UNSUPPORTED_CONTENT_TYPE` gives `CONTENT_TYPE_NOT_SUPPORTED`.
pub fn nearest_reason(reason: &str) -> Option<&'static str> {
    let words = words(reason);
    let joined = words.join("_");
    table()
        .known_reasons()
        .map(|known| {
            let score = similarity(&words, &self::words(known));
            // Ties go to the spelling closest to the whole reason.
            let closeness = 1.0 / (1.0 + edit_distance(&joined, known) as f64);
            (known, score, closeness)
        })
        .filter(|(_, score, _)| *score >= 0.5)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)))
        .map(|(known, ..)| known)
}

/// Upper-case words of a reason in any casing, with `UNSUPPORTED` read as `NOT SUPPORTED`
/// and the `ERROR`/`EXCEPTION` suffixes dropped.
fn words(reason: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in reason.chars() {
        let boundary = !c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && previous_lower);
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        if c.is_ascii_alphanumeric() {
            current.push(c.to_ascii_uppercase());
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    if !current.is_empty() {
        words.push(current);
    }
    let mut expanded = Vec::new();
    for word in words {
        match word.as_str() {
            "ERROR" | "EXCEPTION" => {}
            "UNSUPPORTED" => expanded.extend(["NOT".to_string(), "SUPPORTED".to_string()]),
            "CANCELLABLE" => expanded.push("CANCELABLE".into()),
            _ => expanded.push(word),
        }
    }
    expanded
}

/// Shared words over all words (Jaccard), with near-miss spellings counted as shared.
fn similarity(a: &[String], b: &[String]) -> f64 {
    let shared = a
        .iter()
        .filter(|word| {
            b.iter()
                .any(|other| edit_distance(word, other) <= usize::from(word.len() >= 4))
        })
        .count();
    let total = a.len() + b.len() - shared;
    if total == 0 {
        0.0
    } else {
        shared as f64 / total as f64
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_known_reason() {
        assert_eq!(nearest_reason("TaskNotFound"), Some("TASK_NOT_FOUND"));
        assert_eq!(
            nearest_reason("TASK_NOT_FOUND_ERROR"),
            Some("TASK_NOT_FOUND")
        );
        assert_eq!(
            nearest_reason("UNSUPPORTED_CONTENT_TYPE"),
            Some("CONTENT_TYPE_NOT_SUPPORTED")
        );
        assert_eq!(nearest_reason("TASK_NOT_FOUD"), Some("TASK_NOT_FOUND"));
        assert_eq!(
            nearest_reason("task_not_cancellable"),
            Some("TASK_NOT_CANCELABLE")
        );
        assert_eq!(nearest_reason("JSON_PARSE"), Some("PARSE_ERROR"));
        assert_eq!(nearest_reason("QUOTA_EXCEEDED"), None);
    }
}
