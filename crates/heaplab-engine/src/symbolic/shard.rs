//! Splitting one exploration across machines (`heaplab run --shard i/n`).
//!
//! Every shard runs the same deterministic exploration, but keeps only its slice of the tree:
//! a state is named by the child indices it took at its first [`Shard::split_depth`] forks
//! (hashed into [`ShardMark::key`]); once a state has forked that often, a shard drops it
//! unless the key is its own, and a path that ends earlier is recorded only by the shard that
//! owns its (shorter) key. The shards' paths are therefore a partition of the unsharded run's
//! paths, and their summaries add up to it (`heaplab merge`); only the shared prefix above the
//! split depth is explored by every shard.
//!
//! Forks a strategy makes when a path ends (`sl`'s completions of one path, first success
//! wins) do not count: the completions of one path stay together in one shard, so which one
//! wins is decided as in the unsharded run.

/// Shard `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// `i/n` with 1 ≤ i ≤ n (how people count shards); `None` otherwise.
    pub fn parse(text: &str) -> Option<Shard> {
        let (i, n) = text.split_once('/')?;
        let (i, n): (u32, u32) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
        (1..=n).contains(&i).then(|| Shard { index: i - 1, count: n })
    }

    /// How many forks name a slice: enough that a few dozen slices exist for each shard on a
    /// branching tree (so the hash spreads the work), few enough that the prefix every shard
    /// explores stays small.
    pub fn split_depth(&self) -> u32 {
        let bits = u32::BITS - self.count.max(1).leading_zeros();
        bits + 5
    }

    /// Whether this shard keeps a state (or records a path) with this mark.
    pub fn owns(&self, mark: ShardMark) -> bool {
        mark.key % u64::from(self.count.max(1)) == u64::from(self.index)
    }

    /// Names the children of one fork and keeps those this shard explores: a child that
    /// reaches the split depth here and is another shard's is dropped. A one-child fork names
    /// nothing.
    pub fn split<T>(
        &self,
        mut children: Vec<T>,
        mark: impl Fn(&mut T) -> &mut ShardMark,
    ) -> Vec<T> {
        if children.len() < 2 {
            return children;
        }
        let depth = self.split_depth();
        for (i, c) in children.iter_mut().enumerate() {
            let m = mark(c);
            if m.forks < depth {
                m.key = mix(m.key, i as u64);
                m.forks += 1;
            }
        }
        children.retain_mut(|c| {
            let m = *mark(c);
            m.forks < depth || self.owns(m)
        });
        children
    }
}

/// A state's name for sharding: a hash of its first fork choices and how many it has made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShardMark {
    pub key: u64,
    pub forks: u32,
}

/// SplitMix64's finalizer over the parent's key and the child's index: children of one fork,
/// and equal choice sequences at different depths, get unrelated keys.
fn mix(key: u64, child: u64) -> u64 {
    let mut z = key ^ child.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every leaf of a full tree, named as the explorer names states.
    fn leaves(shard: &Shard, branching: usize, height: u32) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut stack = vec![(Vec::new(), ShardMark::default())];
        while let Some((path, mark)) = stack.pop() {
            if path.len() as u32 == height {
                if shard.owns(mark) {
                    out.push(path);
                }
                continue;
            }
            let kids: Vec<(Vec<usize>, ShardMark)> = (0..branching)
                .map(|i| {
                    let mut p = path.clone();
                    p.push(i);
                    (p, mark)
                })
                .collect();
            stack.extend(shard.split(kids, |k| &mut k.1));
        }
        out
    }

    #[test]
    fn shards_partition_the_leaves_of_shallow_and_deep_trees() {
        for (branching, height) in [(2, 3), (2, 12), (3, 7)] {
            for count in [1, 2, 3, 5] {
                let mut all: Vec<Vec<usize>> = (0..count)
                    .flat_map(|index| leaves(&Shard { index, count }, branching, height))
                    .collect();
                all.sort();
                let whole = leaves(&Shard { index: 0, count: 1 }, branching, height);
                let mut whole_sorted = whole.clone();
                whole_sorted.sort();
                assert_eq!(all, whole_sorted, "b={branching} h={height} n={count}");
                assert_eq!(whole.len(), branching.pow(height));
            }
        }
    }

    #[test]
    fn deep_trees_spread_over_every_shard() {
        let count = 3;
        let sizes: Vec<usize> =
            (0..count).map(|index| leaves(&Shard { index, count }, 2, 12).len()).collect();
        // 4,096 leaves: a shard with under a sixth of them would mean the hash does not spread.
        assert!(sizes.iter().all(|&s| s > 4096 / 6), "{sizes:?}");
    }

    #[test]
    fn parse_counts_from_one() {
        assert_eq!(Shard::parse("1/3"), Some(Shard { index: 0, count: 3 }));
        assert_eq!(Shard::parse("3/3"), Some(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::parse("0/3"), None);
        assert_eq!(Shard::parse("4/3"), None);
        assert_eq!(Shard::parse("x"), None);
    }
}
