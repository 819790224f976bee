//! Type arguments in JML spec text, blanked before heaplab-syntax parses it.

/// `s` with the type arguments of generic types blanked (`Node<Item> x` reads `Node       x`):
/// a spec names erased classes, but a teacher writes the types as the code does. A type
/// argument list is a `<` right after a capitalised name, balanced, holding only names,
/// `,`, `?`, `.`, `[]` and `extends`/`super`, and followed by a variable name; a comparison
/// (`a < b`, `N<M` with nothing after the `>`) is never that shape.
pub fn blank_type_arguments(s: &str) -> String {
    let mut b = s.as_bytes().to_vec();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut i = 0;
    while i < b.len() {
        let starts_type = b[i] == b'<' && i > 0 && is_id(b[i - 1]) && {
            let mut j = i;
            while j > 0 && is_id(b[j - 1]) {
                j -= 1;
            }
            b[j].is_ascii_uppercase() && (j == 0 || !(b[j - 1] == b'.' || is_id(b[j - 1])))
        };
        if !starts_type {
            i += 1;
            continue;
        }
        let (mut depth, mut j, mut ok) = (0i32, i, true);
        while j < b.len() {
            match b[j] {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                c if is_id(c) || matches!(c, b',' | b'?' | b'.' | b'[' | b']' | b' ') => {}
                _ => {
                    ok = false;
                    break;
                }
            }
            j += 1;
        }
        if !ok || j >= b.len() {
            i += 1;
            continue;
        }
        // What follows: optional `[]`s, blanks, then a name.
        let mut k = j + 1;
        while k + 1 < b.len() && b[k] == b'[' && b[k + 1] == b']' {
            k += 2;
        }
        let blanks = b[k..].iter().take_while(|c| **c == b' ' || **c == b'\t').count();
        let named =
            blanks > 0 && b.get(k + blanks).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
        if named {
            for x in &mut b[i..=j] {
                *x = b' ';
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    String::from_utf8(b).unwrap_or_else(|_| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::blank_type_arguments;

    #[test]
    fn type_arguments_are_blanked_in_binders_only() {
        let s = "pred list(Node<Item> x, Pair<K, V>[] es) := exists Node<Item> n. x == n";
        let out = blank_type_arguments(s);
        assert_eq!(out.len(), s.len());
        assert!(out.contains("list(Node       x"), "{out}");
        assert!(out.contains("exists Node       n."), "{out}");
        assert!(!out.contains('<'), "{out}");
        // Comparisons keep their `<` and `>`.
        for f in ["a < b & B > c", "N<M", "this.n<N && M>0", "x.size<Max> y"] {
            let kept = blank_type_arguments(f);
            assert_eq!(kept, f);
        }
    }
}
