//! Exact rationals over `i128` for the simplex: every operation is checked, and an overflow is
//! an [`Overflow`] error that makes the whole query "outside the fragment" (never a guess).

use std::cmp::Ordering;

/// An arithmetic result left `i128`: the procedure gives the query to Z3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

pub type R<T> = Result<T, Overflow>;

/// A reduced fraction `n / d` with `d > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Q {
    n: i128,
    d: i128,
}

pub fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // Only gcd(i128::MIN, 0) does not fit; callers never build i128::MIN.
    i128::try_from(a).unwrap_or(i128::MAX)
}

impl Q {
    pub const ZERO: Q = Q { n: 0, d: 1 };
    pub const ONE: Q = Q { n: 1, d: 1 };

    pub fn int(n: i128) -> Q {
        Q { n, d: 1 }
    }

    /// `n / d` reduced; `d` must not be zero.
    pub fn new(n: i128, d: i128) -> R<Q> {
        if d == 0 {
            return Err(Overflow);
        }
        let g = gcd(n, d).max(1);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            n = n.checked_neg().ok_or(Overflow)?;
            d = d.checked_neg().ok_or(Overflow)?;
        }
        Ok(Q { n, d })
    }

    pub fn is_zero(self) -> bool {
        self.n == 0
    }

    pub fn is_int(self) -> bool {
        self.d == 1
    }

    pub fn signum(self) -> i128 {
        self.n.signum()
    }

    /// The integer value, if this is an integer.
    pub fn as_int(self) -> Option<i128> {
        (self.d == 1).then_some(self.n)
    }

    pub fn floor(self) -> i128 {
        self.n.div_euclid(self.d)
    }

    pub fn ceil(self) -> i128 {
        let f = self.n.div_euclid(self.d);
        if self.n.rem_euclid(self.d) == 0 {
            f
        } else {
            f + 1
        }
    }

    pub fn neg(self) -> R<Q> {
        Ok(Q { n: self.n.checked_neg().ok_or(Overflow)?, d: self.d })
    }

    pub fn add(self, o: Q) -> R<Q> {
        if self.d == 1 && o.d == 1 {
            return Ok(Q::int(self.n.checked_add(o.n).ok_or(Overflow)?));
        }
        let g = gcd(self.d, o.d);
        let (a, b) = (self.d / g, o.d / g);
        let n = mul(self.n, b)?.checked_add(mul(o.n, a)?).ok_or(Overflow)?;
        Q::new(n, mul(self.d, b)?)
    }

    pub fn sub(self, o: Q) -> R<Q> {
        self.add(o.neg()?)
    }

    pub fn mul(self, o: Q) -> R<Q> {
        if self.d == 1 && o.d == 1 {
            return Ok(Q::int(mul(self.n, o.n)?));
        }
        // Cross-reduce first so the products stay small.
        let g1 = gcd(self.n, o.d).max(1);
        let g2 = gcd(o.n, self.d).max(1);
        Q::new(mul(self.n / g1, o.n / g2)?, mul(self.d / g2, o.d / g1)?)
    }

    pub fn div(self, o: Q) -> R<Q> {
        if o.n == 0 {
            return Err(Overflow);
        }
        self.mul(Q::new(o.d, o.n)?)
    }

    /// Exact comparison (overflow of the cross products is an error, not a wrong order).
    pub fn cmp(self, o: Q) -> R<Ordering> {
        if self.d == o.d {
            return Ok(self.n.cmp(&o.n));
        }
        Ok(mul(self.n, o.d)?.cmp(&mul(o.n, self.d)?))
    }

    pub fn lt(self, o: Q) -> R<bool> {
        Ok(self.cmp(o)? == Ordering::Less)
    }

    pub fn gt(self, o: Q) -> R<bool> {
        Ok(self.cmp(o)? == Ordering::Greater)
    }
}

pub fn mul(a: i128, b: i128) -> R<i128> {
    a.checked_mul(b).ok_or(Overflow)
}

pub fn add(a: i128, b: i128) -> R<i128> {
    a.checked_add(b).ok_or(Overflow)
}

impl std::fmt::Display for Q {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.d == 1 {
            write!(f, "{}", self.n)
        } else {
            write!(f, "{}/{}", self.n, self.d)
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact_and_reduced() {
        let a = Q::new(1, 3).unwrap();
        let b = Q::new(1, 6).unwrap();
        assert_eq!(a.add(b).unwrap(), Q::new(1, 2).unwrap());
        assert_eq!(a.sub(b).unwrap(), b);
        assert_eq!(a.mul(b).unwrap(), Q::new(1, 18).unwrap());
        assert_eq!(a.div(b).unwrap(), Q::int(2));
        assert_eq!(Q::new(-7, 2).unwrap().floor(), -4);
        assert_eq!(Q::new(-7, 2).unwrap().ceil(), -3);
        assert_eq!(Q::new(7, -2).unwrap(), Q::new(-7, 2).unwrap());
        assert_eq!(Q::int(i128::MAX).add(Q::ONE), Err(Overflow));
    }
}
