//! `card-contradicted` over the run: each file's cards and claims taken in as the file
//! is done, kept compact (each distinct card once, each claim by number), and judged at
//! the end of the run.

use std::collections::HashMap;

use super::cards::Card;
use super::judge::{CardFacts, Read, Verdict, judge};
use super::{Authority, Claimed};
use crate::finding::run_level::{Places, RunClaims, RunFinding, Spot};

/// What a claim is judged by: the verdict depends on nothing else.
type ClaimKey = (Claimed, Authority, Option<String>);

/// The run's cards and claims.
#[derive(Debug, Default)]
pub struct RunCards {
    /// Each distinct card with the first file that held it: a card repeated word for
    /// word says nothing new, and messages name the first.
    cards: Vec<(usize, Card)>,
    /// Every file's claims, in file order.
    claims: RunClaims<ClaimKey>,
}

impl RunCards {
    /// Takes in what file `file` left; says whether it kept anything of it (a card, a
    /// claim).
    pub fn add(&mut self, file: usize, facts: CardFacts) -> bool {
        let mut kept = !facts.claims.is_empty();
        for card in facts.cards {
            if !self.cards.iter().any(|(_, c)| c.promises_as(&card)) {
                self.cards.push((file, card));
                kept = true;
            }
        }
        for ((claimed, authority), claim) in facts.claims {
            let key = (claimed, authority, claim.declared);
            self.claims.push(file, key, claim.more, claim.at);
        }
        kept
    }

    /// Judges every claim by the cards of the whole run.
    pub fn check(&self, places: &mut dyn Places) -> Vec<RunFinding> {
        let read: Vec<Read<'_>> = (self.cards.iter())
            .map(|(file, card)| Read { file: *file, card })
            .collect();
        if read.is_empty() {
            return Vec::new();
        }
        // The run's claims name few agents and repeat across files: the cards governing
        // an authority, and the verdict on a claim, are found once each.
        let mut governing_of: HashMap<&Authority, Vec<&Read<'_>>> = HashMap::new();
        let mut verdicts: Vec<Option<Option<Verdict>>> = vec![None; self.claims.keys()];
        let mut contradicted: Vec<((usize, Spot, usize), Verdict)> = Vec::new();
        for claim in self.claims.iter() {
            let verdict = verdicts[claim.key].get_or_insert_with(|| {
                let (claimed, authority, declared) = self.claims.key(claim.key);
                let governing = governing_of
                    .entry(authority)
                    .or_insert_with(|| read.iter().filter(|r| r.card.governs(authority)).collect());
                judge(claimed, authority, declared.as_deref(), governing)
            });
            if let Some(verdict) = verdict {
                let at = (claim.file, claim.at, claim.more);
                contradicted.push((at, verdict.clone()));
            }
        }
        let wanted: Vec<(usize, Spot)> = (contradicted.iter())
            .map(|(_, v)| (v.card_file, v.card_at))
            .collect();
        let cards_at = places.places(&wanted);
        (contradicted.into_iter().zip(cards_at))
            .map(|((at, verdict), card_at)| verdict.finding(at, card_at, &*places))
            .collect()
    }
}
