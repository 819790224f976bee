; A list whose every cell holds a list of its own, two sorts of cells; the query asks for a
; non-empty outer list whose first inner list is non-empty.
(set-logic QF_SHID)
(set-info :status sat)

(declare-sort Outer 0)
(declare-sort Inner 0)
(declare-datatypes ((OCell 0) (ICell 0))
  (((ocell (onext Outer) (down Inner)))
   ((icell (inext Inner)))))
(declare-heap (Outer OCell) (Inner ICell))

(define-fun-rec ilist ((x Inner)) Bool
  (or (and (= x (as nil Inner)) (_ emp Inner ICell))
      (exists ((y Inner)) (sep (pto x (icell y)) (ilist y)))))
(define-fun-rec olist ((x Outer)) Bool
  (or (and (= x (as nil Outer)) (_ emp Outer OCell))
      (exists ((y Outer) (d Inner)) (sep (pto x (ocell y d)) (ilist d) (olist y)))))

(declare-const o Outer)
(declare-const i Inner)
(declare-const rest Outer)
(assert (and (distinct i (as nil Inner))
             (sep (pto o (ocell rest i)) (ilist i) (olist rest))))
(check-sat)
