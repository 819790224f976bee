; An entailment as SL-COMP's entailment divisions write it: does a cell followed by a segment
; entail a segment? `sat` does not decide entailment; `--lhs` asks whether the left-hand side
; (the first assertion) is satisfiable, which it is.
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
(declare-const z Loc)
(assert (and (distinct x z) (sep (pto x (cell y)) (seg y z))))
(assert (not (seg x z)))
(check-sat)
