; Cells come in pairs, so the length n of the list is even: 13 is out of reach at any depth
; (the proof needs the base formulas' congruence n = 0 (mod 2)).
(set-logic QF_SHIDLIA)
(set-info :status unsat)

(declare-sort Ref 0)
(declare-datatypes ((Node 0)) (((node (next Ref)))))
(declare-heap (Ref Node))

(define-fun-rec pairs ((x Ref) (n Int)) Bool
  (or (and (= x (as nil Ref)) (= n 0) (_ emp Ref Node))
      (exists ((y Ref) (z Ref) (m Int))
        (and (= n (+ m 2))
             (sep (pto x (node y)) (pto y (node z)) (pairs z m))))))

(declare-const h Ref)
(declare-const len Int)
(assert (and (= len 13) (pairs h len)))
(check-sat)
