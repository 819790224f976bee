; A segment from x to nil and another from x to y: both would own x's cell unless one is
; empty, and x is neither nil nor y, so no heap fits.
(set-logic QF_SHLS)
(set-info :status unsat)

(declare-sort Loc 0)
(declare-datatypes ((Cell 0)) (((cell (nxt Loc)))))
(declare-heap (Loc Cell))

(define-fun-rec seg ((a Loc) (b Loc)) Bool
  (or (and (= a b) (_ emp Loc Cell))
      (exists ((c Loc))
        (and (distinct a b) (sep (pto a (cell c)) (seg c b))))))

(declare-const x Loc)
(declare-const y Loc)
(assert (and (distinct x (as nil Loc)) (distinct x y)
             (sep (seg x (as nil Loc)) (seg x y))))
(check-sat)
