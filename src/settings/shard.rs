//! `check --shard K/N`: which files one shard of a CI matrix lints, chosen before the
//! pipeline starts. A file goes to the shard its stable hash names, the hash of its path
//! from the repository root (or of its directory's, with `--shard-by directory`), so the
//! split is the same on every machine and a new file moves no other.

use clap::ValueEnum;

/// Shard `index` of `count` (1-based, as `--shard 2/4` writes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// What a shard keeps together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ShardBy {
    /// Each file on its own: the most even split.
    #[default]
    File,
    /// A directory's files in one shard, so that run-level rules (`binding-divergence`,
    /// `card-contradicted`) see a scenario's captures together.
    Directory,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let wrong = || format!("`{text}` is no shard: write K/N, for example 2/4 (1 <= K <= N)");
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let (index, count): (u64, u64) = (
            index.trim().parse().map_err(|_| wrong())?,
            count.trim().parse().map_err(|_| wrong())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(wrong());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Does this shard lint the file at `repo_path` (from the repository root, `/`-separated)?
    pub fn keeps(self, repo_path: &str, by: ShardBy) -> bool {
        let key = match by {
            ShardBy::File => repo_path,
            ShardBy::Directory => repo_path.rsplit_once('/').map_or("", |(dir, _)| dir),
        };
        fnv1a(key.as_bytes()) % self.count == self.index - 1
    }
}

/// FNV-1a, 64 bits: stable across platforms and releases, unlike the standard hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_written_k_of_n() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        for wrong in ["0/4", "5/4", "1/0", "2", "a/b", ""] {
            assert!(wrong.parse::<Shard>().is_err(), "{wrong}");
        }
    }

    #[test]
    fn every_file_is_in_exactly_one_shard_and_directories_stay_together() {
        let paths: Vec<String> = (0..200)
            .map(|i| format!("captures/d{}/f{i}.http", i % 7))
            .collect();
        for by in [ShardBy::File, ShardBy::Directory] {
            let mut sizes = Vec::new();
            for path in &paths {
                let owners: Vec<u64> = (1..=3)
                    .filter(|&k| Shard { index: k, count: 3 }.keeps(path, by))
                    .collect();
                assert_eq!(owners.len(), 1, "{path}");
                sizes.push(owners[0]);
            }
            if by == ShardBy::File {
                // Balanced enough: no shard gets less than a fifth of 200 files.
                for k in 1..=3 {
                    assert!(sizes.iter().filter(|&&s| s == k).count() > 40);
                }
            }
        }
        let dir =
            |p: &str| (1..=3).find(|&k| Shard { index: k, count: 3 }.keeps(p, ShardBy::Directory));
        assert_eq!(dir("captures/d1/a.http"), dir("captures/d1/b.http"));
        // The published FNV-1a 64 test vectors: the split must never change between releases.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
