//! The coefficients of a linear form: `(variable, coefficient)` pairs sorted by variable, at
//! most one per variable, kept inline up to two.
//!
//! Why not a `BTreeMap`: almost every form the procedure builds has one or two variables
//! (`x = 3`, `x - y ≠ 0`, symheap's ranks and guards), and each query clones its literals many
//! times over (one copy per split branch, keys and complements for the propagation). A map
//! allocates a node per form and clones it node by node; this clones with a copy of a few
//! words. The API is the part of a map's that the procedure uses, with the same order.

use smallvec::SmallVec;

use super::rational::{add, Overflow};

/// Sorted `(variable, coefficient)` pairs, one per variable.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Coeffs(SmallVec<[(usize, i128); 2]>);

/// A copy of the slice: the derived clone goes through `SmallVec`'s generic `extend`, pair by
/// pair, and forms are cloned all the time (every literal of every theory check, every
/// branch's clauses).
impl Clone for Coeffs {
    fn clone(&self) -> Coeffs {
        Coeffs(SmallVec::from_slice(&self.0))
    }
}

/// The pairs by reference, as a map's iterator gives them.
pub type Pairs<'a> =
    std::iter::Map<std::slice::Iter<'a, (usize, i128)>, fn(&(usize, i128)) -> (&usize, &i128)>;

fn pair(p: &(usize, i128)) -> (&usize, &i128) {
    (&p.0, &p.1)
}

impl Coeffs {
    /// The pairs in variable order.
    pub fn iter(&self) -> Pairs<'_> {
        self.0.iter().map(pair as fn(&(usize, i128)) -> (&usize, &i128))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &usize> + '_ {
        self.0.iter().map(|(x, _)| x)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &i128> + '_ {
        self.0.iter().map(|(_, c)| c)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut i128> + '_ {
        self.0.iter_mut().map(|(_, c)| c)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The pairs as a slice, in variable order.
    pub fn as_slice(&self) -> &[(usize, i128)] {
        &self.0
    }

    /// Removes `x`'s pair, returning its coefficient.
    pub fn remove(&mut self, x: &usize) -> Option<i128> {
        let i = self.0.binary_search_by_key(x, |p| p.0).ok()?;
        Some(self.0.remove(i).1)
    }

    /// Adds `c` to `x`'s coefficient; a coefficient that becomes zero leaves.
    pub fn add(&mut self, x: usize, c: i128) -> Result<(), Overflow> {
        match self.0.binary_search_by_key(&x, |p| p.0) {
            Ok(i) => {
                let sum = add(self.0[i].1, c)?;
                if sum == 0 {
                    self.0.remove(i);
                } else {
                    self.0[i].1 = sum;
                }
            }
            Err(i) if c != 0 => self.0.insert(i, (x, c)),
            Err(_) => {}
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Coeffs {
    type Item = (&'a usize, &'a i128);
    type IntoIter = Pairs<'a>;
    fn into_iter(self) -> Pairs<'a> {
        self.iter()
    }
}

/// As a map collects: sorted by variable, the last pair of a variable wins.
impl FromIterator<(usize, i128)> for Coeffs {
    fn from_iter<I: IntoIterator<Item = (usize, i128)>>(iter: I) -> Coeffs {
        let mut pairs: SmallVec<[(usize, i128); 2]> = iter.into_iter().collect();
        // A stable sort keeps a variable's pairs in their order; the last of each run wins.
        pairs.sort_by_key(|p| p.0);
        let mut out: SmallVec<[(usize, i128); 2]> = SmallVec::with_capacity(pairs.len());
        for p in pairs {
            match out.last_mut() {
                Some(last) if last.0 == p.0 => *last = p,
                _ => out.push(p),
            }
        }
        Coeffs(out)
    }
}

impl<const N: usize> From<[(usize, i128); N]> for Coeffs {
    fn from(pairs: [(usize, i128); N]) -> Coeffs {
        pairs.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The same pairs, order and answers as a map given the same operations.
    #[test]
    fn behaves_as_a_map() {
        let ops: [(usize, i128); 9] =
            [(5, 2), (1, -1), (5, -2), (3, 7), (0, 4), (3, 1), (9, 0), (1, 1), (2, 6)];
        let mut map: BTreeMap<usize, i128> = BTreeMap::new();
        let mut coeffs = Coeffs::default();
        for (x, c) in ops {
            let e = map.entry(x).or_insert(0);
            *e += c;
            if *e == 0 {
                map.remove(&x);
            }
            assert!(coeffs.add(x, c).is_ok());
            let pairs: Vec<(usize, i128)> = coeffs.iter().map(|(&x, &c)| (x, c)).collect();
            let expected: Vec<(usize, i128)> = map.iter().map(|(&x, &c)| (x, c)).collect();
            assert_eq!(pairs, expected);
        }
        assert_eq!(coeffs.remove(&3), map.remove(&3));
        assert_eq!(coeffs.remove(&3), None);
        assert_eq!(coeffs.len(), map.len());
        let collected: Coeffs = [(4, 1), (2, 3), (4, 9)].into();
        let pairs: Vec<(usize, i128)> = collected.iter().map(|(&x, &c)| (x, c)).collect();
        assert_eq!(pairs, vec![(2, 3), (4, 9)]);
        assert_eq!(collected.keys().rev().copied().collect::<Vec<_>>(), vec![4, 2]);
        assert!(coeffs.add(7, i128::MAX).and_then(|()| coeffs.add(7, 1)).is_err());
    }
}
