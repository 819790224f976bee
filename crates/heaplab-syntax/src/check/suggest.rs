//! "Did you mean …?" hints. A student who types `nxt` for `next` should be told the fix, not just
//! that `nxt` is unknown, so every unknown-name diagnostic asks this module for the closest
//! declared name. Edit distance is small (≤ 2) so that hints stay plausible.

/// The largest edit distance at which a name is still suggested.
const MAX_DISTANCE: usize = 2;

/// Levenshtein distance between two strings, counted in Unicode scalar values.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // One row of the dynamic-programming table: `row[j]` is the distance between the prefix of
    // `a` read so far and `b[..j]`.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, if one is within `MAX_DISTANCE` edits and is not a complete
/// rewrite of a very short name (`x` is not a typo of `y`). Among equally distant candidates, a
/// permutation of the same letters wins (`kye` is `key` swapped, not `y` with two edits), then
/// the earliest one, so callers pass candidates in a stable order (declaration order).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = name.chars().count();
    let letters = sorted_chars(name);
    let mut best: Option<((usize, bool), &'a str)> = None;
    for candidate in candidates {
        if candidate == name || candidate.is_empty() {
            continue;
        }
        let distance = levenshtein(name, candidate);
        let longest = len.max(candidate.chars().count());
        if distance > MAX_DISTANCE || distance >= longest {
            continue;
        }
        let rank = (distance, sorted_chars(candidate) != letters);
        match best {
            Some((r, _)) if r <= rank => {}
            _ => best = Some((rank, candidate)),
        }
    }
    best.map(|(_, c)| c)
}

fn sorted_chars(s: &str) -> Vec<char> {
    let mut chars: Vec<char> = s.chars().collect();
    chars.sort_unstable();
    chars
}

/// The note attached to an unknown-name diagnostic, if there is a close candidate.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    suggest(name, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(levenshtein("", ""), 0);
        assert_eq!(levenshtein("abc", ""), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("nxt", "next"), 1);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("lsegg", "lseg"), 1);
        assert_eq!(levenshtein("flaw", "lawn"), 2);
        assert_eq!(levenshtein("ключ", "ключи"), 1);
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("nxt", ["key", "next", "prev"]), Some("next"));
        assert_eq!(suggest("lsegg", ["list", "lseg"]), Some("lseg"));
        assert_eq!(suggest("x", ["y"]), None);
        assert_eq!(suggest("value", ["key", "next"]), None);
        assert_eq!(suggest("nod", ["Node", "node"]), Some("node"));
        assert_eq!(suggest("kye", ["y", "key"]), Some("key"));
        assert_eq!(did_you_mean("Nod", ["Node"]).as_deref(), Some("did you mean `Node`?"));
    }
}
