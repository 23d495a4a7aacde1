//! `card-cache-headers`: an agent card served without the caching headers A2A §8.6.1 asks
//! for: `Cache-Control` with `max-age`, and `ETag`. `Last-Modified` is only a MAY there,
//! so its absence is not reported.

use crate::capture::Message;
use crate::classify::{Binding, ExchangeView};
use crate::finding::Finding;
use crate::rules::{Rule, RuleId};

pub struct CardCacheHeaders;

impl Rule for CardCacheHeaders {
    fn id(&self) -> RuleId {
        RuleId::CardCacheHeaders
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
