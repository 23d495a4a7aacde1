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
    /// Each claim key's verdict by the cards taken in so far (cleared when a card is
    /// added): a guess at what the end of the run reports, so that the engine keeps
    /// those claims' findings while their files are at hand.
    so_far: Vec<Option<bool>>,
}

/// What the run took in of one file.
#[derive(Debug, Default)]
pub struct Added {
    /// Anything at all: a card, a claim.
    pub kept: bool,
    /// A card new to the run, whose members messages may name.
    pub new_card: bool,
    /// The file's claims that the cards taken in so far contradict.
    pub likely: Vec<Spot>,
}

impl RunCards {
    /// Takes in what file `file` left.
    pub fn add(&mut self, file: usize, facts: &CardFacts) -> Added {
        let mut added = Added {
            kept: !facts.claims.is_empty(),
            ..Added::default()
        };
        for card in &facts.cards {
            if !self.cards.iter().any(|(_, c)| c.promises_as(card)) {
                self.cards.push((file, card.clone()));
                added.new_card = true;
            }
        }
        added.kept |= added.new_card;
        if added.new_card {
            self.so_far.clear();
        }
        for ((claimed, authority), claim) in &facts.claims {
            let key = (claimed.clone(), authority.clone(), claim.declared.clone());
            let key = self.claims.push(file, key, claim.more, claim.at);
            if self.contradicted_so_far(key) {
                added.likely.push(claim.at);
            }
        }
        added
    }

    /// Whether the cards taken in so far contradict claims of key `key`.
    fn contradicted_so_far(&mut self, key: usize) -> bool {
        if self.so_far.len() <= key {
            self.so_far.resize(key + 1, None);
        }
        if let Some(verdict) = self.so_far[key] {
            return verdict;
        }
        let (claimed, authority, declared) = self.claims.key(key);
        let read = self.read();
        let governing: Vec<&Read<'_>> = (read.iter())
            .filter(|r| r.card.governs(authority))
            .collect();
        let verdict = judge(claimed, authority, declared.as_deref(), &governing).is_some();
        self.so_far[key] = Some(verdict);
        verdict
    }

    /// The cards taken in, each with the file it was read in.
    fn read(&self) -> Vec<Read<'_>> {
        (self.cards.iter())
            .map(|(file, card)| Read { file: *file, card })
            .collect()
    }

    /// Judges every claim by the cards of the whole run.
    pub fn check(&self, places: &mut dyn Places) -> Vec<RunFinding> {
        let read = self.read();
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
