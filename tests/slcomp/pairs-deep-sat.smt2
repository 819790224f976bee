; The same lists of pairs, 300 cells long: far beyond the bounded search's depth, so the model
; is built from the base formulas (and re-checked like any other).
(set-logic QF_SHIDLIA)
(set-info :status sat)

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
(assert (and (= len 300) (pairs h len)))
(check-sat)
