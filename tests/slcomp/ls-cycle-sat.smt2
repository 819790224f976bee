; Two list segments closing a cycle through x and y: satisfiable when x and y differ
; (each segment then holds at least one cell).
(set-logic QF_SHLS)
(set-info :status sat)

(declare-sort Loc 0)
(declare-datatypes ((Cell 0)) (((cell (nxt Loc)))))
(declare-heap (Loc Cell))

(define-fun-rec seg ((a Loc) (b Loc)) Bool
  (or (and (= a b) (_ emp Loc Cell))
      (exists ((c Loc))
        (and (distinct a b) (sep (pto a (cell c)) (seg c b))))))

(declare-const x Loc)
(declare-const y Loc)
(assert (and (distinct x y) (sep (seg x y) (seg y x))))
(check-sat)
