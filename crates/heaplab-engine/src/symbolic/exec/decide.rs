//! Conditions over the path: which directions of a symbolic condition are feasible (decided
//! locally where possible, otherwise by the solver), and the forks that follow — branches,
//! runtime-error guards and assumptions. Owned by the executor; knows nothing of the heap.

use super::answers::Question;
use super::stack::{next, with_fact};
use super::{Cx, Succ};
use crate::symbolic::config::Bound;
use crate::symbolic::dbm;
use crate::symbolic::events::{Event, ViewAt};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::show::{negated, show_sym};
use crate::symbolic::solve::SatAnswer;
use crate::symbolic::state::State;
use crate::symbolic::term::Sym;
use heaplab_syntax::ast::{ErrorKind, NodeId};
use heaplab_syntax::Span;

impl Cx<'_> {
    /// Splits `st` on `ok`: paths where it cannot hold end with the runtime error `kind`; the
    /// states where it holds are returned (with the fact in their path condition).
    pub fn guard(
        &mut self,
        st: State,
        ok: &Sym,
        kind: ErrorKind,
        node: NodeId,
        span: Span,
        message: &str,
    ) -> Vec<State> {
        let dirs = self.feasible_directions(&st, ok);
        self.guard_decided(st, ok, dirs, kind, node, span, message)
    }

    /// [`guard`](Self::guard) where the feasible directions of `ok` are known already.
    #[allow(clippy::too_many_arguments)]
    pub fn guard_decided(
        &mut self,
        st: State,
        ok: &Sym,
        dirs: (bool, bool),
        kind: ErrorKind,
        node: NodeId,
        span: Span,
        message: &str,
    ) -> Vec<State> {
        // In a formula (`requires`, a predicate body, a pure function it calls) a failed
        // operation means the formula does not hold, as in the model checker: the path is
        // discarded, never an error of the program (`sl` unfolds predicates long after entry).
        let in_pre = st.in_pre;
        let failing = match in_pre {
            true => PathOutcome::Discarded { span, precondition: true },
            false => PathOutcome::Error { kind, node, span, message: message.to_string() },
        };
        self.split_ending(st, ok, dirs, failing, span)
    }

    /// Splits `st` on `ok`: paths where it cannot hold end as bounded by `bound` (a limit of
    /// the tool, not an error of the program); the states where it holds are returned.
    pub fn bound_guard(&mut self, st: State, ok: &Sym, bound: Bound, span: Span) -> Vec<State> {
        let dirs = self.feasible_directions(&st, ok);
        self.split_ending(st, ok, dirs, PathOutcome::Bounded { bound, span: Some(span) }, span)
    }

    /// Splits `st` on `ok`, whose feasible directions are `dirs`: the side where it fails ends
    /// with `failing`, the states where it holds are returned; when neither side is feasible
    /// the path is discarded.
    fn split_ending(
        &mut self,
        st: State,
        ok: &Sym,
        dirs: (bool, bool),
        failing: PathOutcome,
        span: Span,
    ) -> Vec<State> {
        match dirs {
            (true, false) => vec![with_fact(st, ok, true)],
            (false, true) => {
                self.end_path(with_fact(st, ok, false), failing);
                Vec::new()
            }
            (true, true) => {
                let parent = st.id;
                let shown = self.label(|| show_sym(&st, ok));
                let negation = self.label(|| negated(&shown));
                // The parent's view first, so that the last child can take the state itself.
                self.sink.snapshot(&st, ViewAt::Fork);
                let kids = vec![
                    (with_fact(st.clone(), ok, true), shown.clone()),
                    (with_fact(st, ok, false), negation),
                ];
                let mut kids = self.adopt(parent, kids);
                self.sink.event(Event::Branch {
                    state: parent,
                    site: None,
                    condition: shown,
                    children: kids.iter().zip([true, false]).map(|(k, d)| (d, k.id)).collect(),
                });
                if let Some(bad) = kids.pop() {
                    self.end_path(bad, failing);
                }
                kids
            }
            (false, false) => {
                self.end_path(st, PathOutcome::Discarded { span, precondition: false });
                Vec::new()
            }
        }
    }

    /// Adds `c` to the path condition, or discards the path when it cannot hold.
    pub fn assume(&mut self, st: State, c: Sym, span: Span, precondition: bool) -> Succ {
        let precondition = precondition || st.in_pre;
        if self.feasible(&st, &c) {
            next(with_fact(st, &c, true))
        } else {
            Succ::End(st, PathOutcome::Discarded { span, precondition })
        }
    }

    /// Forks on a boolean condition whose feasible directions are `(t, f)`
    /// ([`feasible_directions`](Self::feasible_directions)); `go` sets up each child for its
    /// direction.
    pub fn branch(
        &mut self,
        st: State,
        c: Sym,
        (t, f): (bool, bool),
        site: Option<NodeId>,
        go: impl Fn(&mut State, bool),
    ) -> Succ {
        let mut dirs = Vec::new();
        if t {
            dirs.push(true);
        }
        if f {
            dirs.push(false);
        }
        match dirs.as_slice() {
            [dir] => {
                let mut s = with_fact(st, &c, *dir);
                go(&mut s, *dir);
                Succ::Continue(s)
            }
            [] => {
                Succ::End(st, PathOutcome::Discarded { span: Span::default(), precondition: false })
            }
            _ => {
                let parent = st.id;
                // Labels name inputs as the source does (`x < o1.key`), as the views do.
                let shown = self.label(|| show_sym(&st, &c));
                let negation = self.label(|| negated(&shown));
                // The parent's view first, so that the last child can take the state itself.
                self.sink.snapshot(&st, ViewAt::Fork);
                let child = |s: State, d: bool, label: String| {
                    let mut s = with_fact(s, &c, d);
                    go(&mut s, d);
                    (s, label)
                };
                let kids = vec![child(st.clone(), true, shown.clone()), child(st, false, negation)];
                let kids = self.adopt(parent, kids);
                self.sink.event(Event::Branch {
                    state: parent,
                    site,
                    condition: shown,
                    children: dirs.iter().copied().zip(kids.iter().map(|k| k.id)).collect(),
                });
                Succ::Fork(kids)
            }
        }
    }

    /// Which of `c` / `!c` are satisfiable together with the path condition (which is, so at
    /// least one of them is).
    pub fn feasible_directions(&mut self, st: &State, c: &Sym) -> (bool, bool) {
        if let Some(b) = c.as_bool() {
            return (b, !b);
        }
        if !self.feasible(st, c) {
            self.sink.pruned(st, 1);
            return (false, true);
        }
        let f = self.feasible(st, &Sym::not(c));
        if !f {
            self.sink.pruned(st, 1);
        }
        (true, f)
    }

    /// Is `pc && c` satisfiable?
    pub fn feasible(&mut self, st: &State, c: &Sym) -> bool {
        if let Some(b) = c.as_bool() {
            return b;
        }
        match self.decide_locally(st, c) {
            Ok(answer) => answer,
            Err(slice) => self.ask(st, c, slice),
        }
    }

    /// Decides `pc && c` without the solver when possible: `c` or its negation is already in
    /// the path condition (which is satisfiable), or difference-constraint reasoning settles it
    /// (`dbm`). Undecided, the conjuncts of the path condition that share variables with `c`
    /// (only they matter: the rest is satisfiable), for the solver.
    fn decide_locally(&mut self, st: &State, c: &Sym) -> Result<bool, Question> {
        let answer = if st.pc.contains(c) {
            true
        } else if st.pc.contains(&Sym::not(c)) {
            false
        } else {
            let q = self.answers.question(&st.pc, c);
            // A question asked again costs one lookup; difference reasoning would build its
            // graph again (symheap asks each question of a slice about twice: AVL `insert` at
            // k = 3 made 84,000 graphs for 47,000 questions).
            match self.answers.repeated(&q, c) {
                Some(answer) => answer,
                None => match dbm::decide(&q.slice, c) {
                    Some(answer) => {
                        self.answers.note(&q, c, answer);
                        answer
                    }
                    None => match self.answers.known(&q, c) {
                        Some(answer) => answer,
                        None => return Err(q),
                    },
                },
            }
        };
        // Counted and reported as an answer found without the solver.
        self.solver.note_local();
        self.sink.event(Event::SolverQuery {
            state: st.id,
            query: self.query_text(st, c),
            answer: if answer { SatAnswer::Sat } else { SatAnswer::Unsat },
            local: true,
        });
        Ok(answer)
    }

    /// A question's text for its event: inputs by their source names (`lo < o2.key`), as the
    /// views and labels say them; empty where nobody reads it ([`crate::symbolic::step::Sink::query_text`]).
    fn query_text(&self, st: &State, c: &Sym) -> String {
        if self.sink.query_text() {
            show_sym(st, c)
        } else {
            String::new()
        }
    }

    /// Asks the solver whether `slice && c` is satisfiable (the question from
    /// `decide_locally`), with a model for [`Answers`] when it is.
    fn ask(&mut self, st: &State, c: &Sym, question: Question) -> bool {
        let mut q = question.slice.clone();
        q.push(c.clone());
        let (answer, model) = if self.answers.is_on() {
            self.solver.check_keeping_model(&q)
        } else {
            (self.solver.check(&q), None)
        };
        // A step the driver cannot undo keeps the branch, as for an unknown answer (sound:
        // the path's end asks again); that the driver misjudged the step is a defect.
        debug_assert!(
            self.undoable || answer != SatAnswer::Pending,
            "a step judged to ask nothing asked"
        );
        let answer = match answer {
            SatAnswer::Pending if !self.undoable => SatAnswer::Unknown,
            a => a,
        };
        match answer {
            SatAnswer::Pending => self.pending = true,
            SatAnswer::Sat => self.answers.learn(&question, c, true, model),
            SatAnswer::Unsat => self.answers.learn(&question, c, false, None),
            SatAnswer::Unknown => {}
        }
        self.sink.event(Event::SolverQuery {
            state: st.id,
            query: self.query_text(st, c),
            answer,
            local: false,
        });
        answer != SatAnswer::Unsat
    }
}
