//! SARIF: every rule described, results inside the repository, repeated findings kept apart.

use a2alint::finding::Severity;
use a2alint::output::report::Context;
use a2alint::output::report::Format;
use a2alint::rules::RuleId;
use serde_json::Value;

use super::*;

#[test]
fn sarif_describes_every_rule() {
    let text = render(Format::Sarif, &[], &Context::default());
    let sarif = parse(&text);
    assert_eq!(
        sarif["runs"].as_array().unwrap().len(),
        1,
        "exactly one run"
    );
    let driver = &sarif["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "a2alint");
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), RuleId::ALL.len());
    for (descriptor, &rule) in rules.iter().zip(RuleId::ALL) {
        assert_eq!(descriptor["id"], rule.slug());
        assert_eq!(descriptor["shortDescription"]["text"], rule.summary());
        assert_eq!(descriptor["help"]["markdown"], rule.doc());
        let full = descriptor["fullDescription"]["text"].as_str().unwrap();
        assert!(
            !full.is_empty() && full.chars().count() <= 1024,
            "{rule}: {full}"
        );
        let tags = descriptor["properties"]["tags"].as_array().unwrap();
        assert!(tags.contains(&Value::from(rule.group().as_str())));
        assert!(
            descriptor["helpUri"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/rules/{rule}.md"))
        );
        assert!(
            descriptor["name"]
                .as_str()
                .unwrap()
                .chars()
                .all(|c| c.is_ascii_alphanumeric())
        );
    }
}

#[test]
fn sarif_results_point_into_the_repository() {
    let reports = fixture_reports();
    let sarif = parse(&render(Format::Sarif, &reports, &context(&reports)));
    let run = &sarif["runs"][0];
    assert_eq!(run["automationDetails"]["id"], "a2alint/");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let results = run["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        reports.iter().map(|r| r.diagnostics.len()).sum::<usize>()
    );
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(result["ruleId"], RuleId::ALL[index].slug());
        let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert!(
            artifact["uri"]
                .as_str()
                .unwrap()
                .starts_with("tests/fixtures/")
        );
        assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    }

    // Run from a subdirectory: the URI is still relative to the repository root.
    let sub = Context {
        base_dir: root().join("tests"),
        ..context(&[])
    };
    let moved = [report(
        "fixtures/a b#c.http",
        vec![diagnostic(Severity::Error, "m", at(1, 1), at(1, 2))],
    )];
    let sarif = parse(&render(Format::Sarif, &moved, &sub));
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "tests/fixtures/a%20b%23c.http"
    );

    // Outside the repository, an absolute path becomes a file URI with no base.
    let outside = [report(
        "/elsewhere/x.http",
        vec![diagnostic(Severity::Error, "m", at(1, 1), at(1, 2))],
    )];
    let sarif = parse(&render(Format::Sarif, &outside, &context(&[])));
    let artifact =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "file:///elsewhere/x.http");
    assert!(artifact.get("uriBaseId").is_none());

    // A relative path that leads out of the repository is absolute too.
    let above = [report(
        "../../elsewhere/y z.http",
        vec![diagnostic(Severity::Error, "m", at(1, 1), at(1, 2))],
    )];
    let sarif = parse(&render(Format::Sarif, &above, &sub));
    let artifact =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    let expected = root().join("../elsewhere/y z.http");
    let expected = a2alint::input::repo_root::file_uri(
        &a2alint::input::repo_root::repo_path(&expected.to_string_lossy(), root(), root()),
        false,
    );
    assert_eq!(artifact["uri"], expected.as_str());
    assert!(!expected.contains(".."), "{expected}");
    assert!(artifact.get("uriBaseId").is_none());
    // The base id says where the root is, as an absolute directory URI (§3.14.14).
    assert_eq!(
        sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        a2alint::input::repo_root::file_uri(&root().to_string_lossy(), true).as_str()
    );
}

#[test]
fn sarif_fingerprints_keep_repeated_findings_apart() {
    let same = vec![
        diagnostic(Severity::Error, "first", at(1, 1), at(1, 2)),
        diagnostic(Severity::Error, "second", at(1, 5), at(1, 6)),
    ];
    let sarif = parse(&render(
        Format::Sarif,
        &[report("one-line.http", same)],
        &Context::default(),
    ));
    let hashes: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(hashes, ["0123456789abcdef", "0123456789abcdef:2"]);
}
