//! `card-cache-headers`: an agent card served without the caching headers A2A §8.6.1 asks
//! for: `Cache-Control` with `max-age`, and `ETag`. `Last-Modified` is only a MAY there,
//! so its absence is not reported, except under `tck`, which grades the card as the test
//! kit does (`kit_grades`).

use crate::finding::{Finding, Severity};
use crate::input::capture::Message;
use crate::protocol::classify::{Binding, ExchangeView, MessageView};
use crate::protocol::profile::Profile;
use crate::rules::{Hooks, Rule, RuleId};

pub struct CardCacheHeaders;

impl Rule for CardCacheHeaders {
    fn id(&self) -> RuleId {
        RuleId::CardCacheHeaders
    }

    fn hooks(&self) -> Hooks {
        Hooks::EXCHANGE
    }

    fn check_exchange(&self, view: &ExchangeView<'_, '_>, out: &mut Vec<Finding>) {
        let Some(response) = &view.response else {
            return;
        };
        // Only a successful discovery answer is a card (A2A §8.2); a 304 revalidation
        // carries no card, and an error page is not one.
        let status = response.message.status().unwrap_or(0);
        if view.binding != Binding::Discovery || !(200..300).contains(&status) {
            return;
        }
        if view.profile == Profile::Tck {
            return kit_grades(response, out);
        }
        let max_age = has_max_age(response.message);
        let etag = response
            .message
            .headers
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case("etag") && !h.value.trim_ascii().is_empty());
        let (label, message, help) = match (max_age, etag) {
            (true, true) => return,
            (false, true) => (
                "no Cache-Control max-age",
                "agent card response has no `Cache-Control` with `max-age`",
                "say how long clients may keep the card, for example `Cache-Control: public, max-age=3600` \
                 (A2A §8.6.1 SHOULD)",
            ),
            (true, false) => (
                "no ETag",
                "agent card response has no `ETag`",
                "send a validator, for example `ETag: \"card-v2\"`, so clients can revalidate the card with \
                 `If-None-Match` (A2A §8.6.1 SHOULD)",
            ),
            (false, false) => (
                "no Cache-Control max-age, no ETag",
                "agent card response has neither a `Cache-Control` with `max-age` nor an `ETag`",
                "send `Cache-Control: public, max-age=3600` and `ETag: \"card-v2\"` with the card (A2A §8.6.1 \
                 SHOULD both), so clients neither refetch it on every call nor keep a stale copy",
            ),
        };
        out.push(Finding::new(self.id(), response.start_line_label(label), message).help(help));
    }
}

/// The a2a-tck 1.0-dev card caching tests (`test_agent_card_caching.py`), which fail the
/// run with a plain assertion though the headers are SHOULD and MAY in A2A §8.6.1: a
/// `Cache-Control` field (CARD-CACHE-001), `max-age` anywhere in it, compared as a
/// substring (CARD-CACHE-001), an `ETag` (CARD-CACHE-002), a `Last-Modified`
/// (CARD-CACHE-003).
fn kit_grades(response: &MessageView<'_, '_>, out: &mut Vec<Finding>) {
    let field = |name: &str| response.message.header(name).and_then(|h| h.value_str());
    let cache_control = field("cache-control");
    let mut missing = Vec::new();
    match cache_control {
        None => missing.push("`Cache-Control` (CARD-CACHE-001 test_cache_control_present)"),
        Some(value) if !value.to_ascii_lowercase().contains("max-age") => missing
            .push("`max-age` in `Cache-Control` (CARD-CACHE-001 test_cache_control_has_max_age)"),
        Some(_) => {}
    }
    if field("etag").is_none() {
        missing.push("`ETag` (CARD-CACHE-002 test_etag_present)");
    }
    if field("last-modified").is_none() {
        missing.push("`Last-Modified` (CARD-CACHE-003 test_last_modified_present)");
    }
    if missing.is_empty() {
        return;
    }
    let message = format!(
        "agent card response lacks {}: each is a failing a2a-tck test",
        missing.join(", ")
    );
    out.push(
        Finding::new(RuleId::CardCacheHeaders, response.start_line_label("caching headers"), message)
            .severity(Severity::Warning)
            .help(
                "the kit asserts every caching header of A2A §8.6.1, the MAY as hard as the SHOULDs: send \
                 `Cache-Control: public, max-age=3600`, an `ETag` and a `Last-Modified` with the card",
            ),
    );
}

/// Whether any `Cache-Control` field of the message holds a `max-age=<seconds>` directive
/// (RFC 9111 §5.2.2.1). Directive names are case-insensitive; several fields are one list.
fn has_max_age(message: &Message<'_>) -> bool {
    message
        .headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("cache-control"))
        .filter_map(|h| h.value_str())
        .flat_map(|v| v.split(','))
        .any(is_max_age)
}

fn is_max_age(directive: &str) -> bool {
    let Some((name, value)) = directive.split_once('=') else {
        return false;
    };
    let value = value.trim().trim_matches('"');
    name.trim().eq_ignore_ascii_case("max-age")
        && !value.is_empty()
        && value.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::is_max_age;

    #[test]
    fn reads_max_age_directives() {
        assert!(is_max_age("max-age=3600"));
        assert!(is_max_age(" Max-Age=0"));
        assert!(is_max_age("max-age=\"60\""));
        assert!(!is_max_age("s-maxage=3600"));
        assert!(!is_max_age("max-age"));
        assert!(!is_max_age("max-age="));
        assert!(!is_max_age("max-age=soon"));
        assert!(!is_max_age("no-cache"));
    }
}
