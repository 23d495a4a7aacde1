//! `card-not-modified-ignored`: an agent card request whose `If-None-Match` matches the
//! card's own `ETag`, answered with the full card (200) instead of 304 Not Modified.
//! RFC 9110 §13.1.2: when an entity tag matches (weak comparison), the condition is false
//! and an origin server answers a GET with 304; A2A §8.6.1 asks servers for the `ETag`
//! exactly so that clients can revalidate the card this way.

use crate::finding::Finding;
use crate::input::source::Label;
use crate::protocol::classify::{Binding, ExchangeView};
use crate::rules::{Hooks, Rule, RuleId};

pub struct CardNotModifiedIgnored;

impl Rule for CardNotModifiedIgnored {
    fn id(&self) -> RuleId {
        RuleId::CardNotModifiedIgnored
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let (Some(request), Some(response)) = (&view.request, &view.response) else {
            return;
        };
        if view.binding != Binding::Discovery || response.message.status() != Some(200) {
            return;
        }
        let (Some(asked), Some(etag)) = (request.header("if-none-match"), response.header("etag"))
        else {
            return;
        };
        let (Some(asked_value), Some(etag_value)) = (asked.value_str(), etag.value_str()) else {
            return;
        };
        if !matches_weakly(asked_value, etag_value) {
            return;
        }
        let finding = Finding::new(
            self.id(),
            response.start_line_label("full card sent; 304 expected"),
            format!(
                "card request's `If-None-Match: {}` matches the card's `ETag: {}`, but the server sent the \
                 whole card with 200 instead of 304 Not Modified",
                asked_value.trim(),
                etag_value.trim()
            ),
        )
        .related(
            Label::at(asked.span(), "the client already holds this version")
                .member("request/header/if-none-match"),
        )
        .related(
            Label::at(etag.span(), "the card's current entity tag")
                .member("response/header/etag"),
        )
        .help(
            "answer a GET whose `If-None-Match` matches the current `ETag` with `304 Not Modified` and no body \
             (RFC 9110 §13.1.2, §15.4.5), so a client revalidating its cached card (A2A §8.6.1) does not \
             download it again",
        );
        out.push(finding);
    }
}

/// Whether an `If-None-Match` field value matches the entity tag `etag` by weak
/// comparison (RFC 9110 §8.8.3.2): the opaque tags are equal, whether either is marked
/// weak (`W/`). `*` matches any current representation (§13.1.2).
fn matches_weakly(if_none_match: &str, etag: &str) -> bool {
    let Some(current) = opaque_tag(etag) else {
        return false;
    };
    if if_none_match.trim() == "*" {
        return true;
    }
    split_tags(if_none_match)
        .into_iter()
        .filter_map(opaque_tag)
        .any(|tag| tag == current)
}

/// The quoted opaque tag of an entity tag, `W/` prefix dropped (RFC 9110 §8.8.3).
fn opaque_tag(tag: &str) -> Option<&str> {
    let tag = tag.trim();
    let tag = tag.strip_prefix("W/").unwrap_or(tag);
    (tag.len() >= 2 && tag.starts_with('"') && tag.ends_with('"')).then_some(tag)
}

/// The entity tags of a list, split on the commas outside quotes (an opaque tag may not
/// contain `"`, but may contain `,`).
fn split_tags(list: &str) -> Vec<&str> {
    let mut tags = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (at, c) in list.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                tags.push(&list[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    tags.push(&list[start..]);
    tags
}

#[cfg(test)]
mod tests {
    use super::matches_weakly;

    #[test]
    fn compares_entity_tags_weakly() {
        assert!(matches_weakly("\"v1\"", "\"v1\""));
        assert!(matches_weakly("W/\"v1\"", "\"v1\""));
        assert!(matches_weakly("\"v1\"", "W/\"v1\""));
        assert!(matches_weakly("\"v0\", W/\"v1\"", "W/\"v1\""));
        assert!(matches_weakly("\"a,b\"", "\"a,b\""));
        assert!(matches_weakly("*", "\"v1\""));
        assert!(!matches_weakly("\"v0\"", "\"v1\""));
        // An unquoted value is no entity tag.
        assert!(!matches_weakly("v1", "v1"));
        assert!(!matches_weakly("*", "garbage"));
    }
}
