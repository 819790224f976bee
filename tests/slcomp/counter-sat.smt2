; A three-bit counter (nil = 0, not nil = 1) that counts from 000 to 111: satisfiable, with
; an empty heap, but only after seven unfoldings of inc; the base pairs decide it.
(set-logic QF_SHID)
(set-info :status sat)

(declare-sort Bit 0)
(declare-datatypes ((Cell 0)) (((cell (val Bit)))))
(declare-heap (Bit Cell))

(define-funs-rec (
  (zero ((x Bit)) Bool)
  (one ((x Bit)) Bool)
  (inc ((a Bit) (b Bit) (c Bit) (d Bit) (e Bit) (f Bit)) Bool)
  (count ((a Bit) (b Bit) (c Bit)) Bool)
  (full ((a Bit) (b Bit) (c Bit)) Bool))
 ((and (= x (as nil Bit)) (_ emp Bit Cell))
  (and (distinct x (as nil Bit)) (_ emp Bit Cell))
  ; (a b c) + 1 = (d e f), the least significant bit first
  (or (sep (zero a) (one d) (= b e) (= c f))
      (sep (one a) (zero d) (zero b) (one e) (= c f))
      (sep (one a) (zero d) (one b) (zero e) (zero c) (one f)))
  (or (sep (zero a) (zero b) (zero c))
      (exists ((p Bit) (q Bit) (r Bit)) (sep (count p q r) (inc p q r a b c))))
  (sep (one a) (one b) (one c) (count a b c))))

(declare-const x Bit)
(declare-const y Bit)
(declare-const z Bit)
(assert (full x y z))
(check-sat)
