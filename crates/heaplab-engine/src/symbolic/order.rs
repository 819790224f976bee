//! The order keys of the built-in `Comparable` elements (digest seed-004a §4.4): Kiasan models
//! `compare(o1, o2)` by a comparison-Id per object, an uninterpreted integer, so that the
//! comparison is a linear constraint between two keys and the total-order axioms hold for free.
//! HeapLab's key of an object is its `key` field (an input field like any other); `null` has one
//! key per path (the comparator's `nullKey`); a symbolic reference δ̂ or location δ that is
//! compared before it is resolved gets a key of its own, so comparing it branches on nothing
//! but the keys (lazier# never splits an element on null, as in the thesis). When such a value
//! is resolved later, [`State::link_order_keys`] equates its key with that of what it became.

use super::state::{ObjIdx, PathState, RefResolution, SValue, VarOrigin};
use super::term::{Sort, Sym};
use heaplab_syntax::builtin::KEY;

impl PathState {
    /// The key of `null` on this path.
    pub fn null_order_key(&mut self) -> Sym {
        if let Some(k) = &self.order.null_key {
            return k.clone();
        }
        let k = self.fresh_var(Sort::Int, VarOrigin::Existential("key(null)".to_string()));
        self.order.null_key = Some(k.clone());
        k
    }

    /// Ties the key of `null` to a comparator's `nullKey` value.
    pub fn bind_null_order_key(&mut self, nk: &Sym) {
        match self.order.null_key.clone() {
            Some(k) if &k != nk => self.pc.push(Sym::eq(&k, nk)),
            Some(_) => {}
            None => self.order.null_key = Some(nk.clone()),
        }
    }

    /// The key of an object: its `key` field as the input had it (read now if it was never
    /// read), or as `new` set it. `None` when the object has no `key` field.
    fn object_order_key(&mut self, o: ObjIdx) -> Option<Sym> {
        let object = self.heap.get(o)?;
        if let Some(SValue::Int(k)) = object.input_field(KEY) {
            return Some(k.clone());
        }
        match object.field(KEY)? {
            Some(SValue::Int(k)) => Some(k.clone()),
            Some(_) => None,
            None => {
                let origin = VarOrigin::Field { obj: o, field: KEY.to_string() };
                let k = self.fresh_var(Sort::Int, origin);
                let object = self.heap.get_mut(o)?;
                if let Some(slot) = object.fields.iter_mut().find(|(f, _)| f == KEY) {
                    slot.1 = Some(SValue::Int(k.clone()));
                }
                object.input.push((KEY.to_string(), SValue::Int(k.clone())));
                self.materializations += 1;
                Some(k)
            }
        }
    }

    /// One step along the resolution table, `None` for a value that is final.
    fn resolved_once(&self, v: &SValue) -> Option<SValue> {
        match v {
            SValue::SymRef(r) => match self.symrefs.get(*r as usize)?.resolved? {
                RefResolution::Null => Some(SValue::Null),
                RefResolution::Loc(l) => Some(SValue::SymLoc(l)),
            },
            SValue::SymLoc(l) => self.symlocs.get(*l as usize)?.resolved.map(SValue::Obj),
            _ => None,
        }
    }

    /// The key of a reference value for a comparison, without resolving it. `None` for a value
    /// that is not an element (an internal error of the caller).
    pub fn order_key(&mut self, v: &SValue) -> Option<Sym> {
        self.link_order_keys();
        let v = self.normalize(v);
        match &v {
            SValue::Null => Some(self.null_order_key()),
            SValue::Obj(o) => self.object_order_key(*o),
            SValue::SymRef(r) => Some(self.pending_key(&v, &format!("key(ref{r})"))),
            SValue::SymLoc(l) => Some(self.pending_key(&v, &format!("key(loc{l})"))),
            _ => None,
        }
    }

    fn pending_key(&mut self, v: &SValue, name: &str) -> Sym {
        if let Some((_, k)) = self.order.pending.iter().find(|(p, _)| p == v) {
            return k.clone();
        }
        let k = self.fresh_var(Sort::Int, VarOrigin::Existential(name.to_string()));
        self.order.pending.push((v.clone(), k.clone()));
        k
    }

    /// After a resolution: each compared abstract value that is now resolved hands its key on
    /// (to a new δ) or is equated with the key of what it became (`null`, an object).
    pub fn link_order_keys(&mut self) {
        loop {
            let Some(i) =
                self.order.pending.iter().position(|(v, _)| self.resolved_once(v).is_some())
            else {
                return;
            };
            let (v, k) = self.order.pending.remove(i);
            let Some(next) = self.resolved_once(&v) else { return };
            match next {
                SValue::SymLoc(_) | SValue::SymRef(_) => {
                    match self.order.pending.iter().find(|(p, _)| p == &next) {
                        Some((_, k2)) => {
                            let eq = Sym::eq(&k, k2);
                            self.pc.push(eq);
                        }
                        None => self.order.pending.push((next, k)),
                    }
                }
                SValue::Null => {
                    let nk = self.null_order_key();
                    self.pc.push(Sym::eq(&k, &nk));
                }
                SValue::Obj(o) => {
                    // An object whose key was never read takes the δ's key as its input value.
                    let fresh = self
                        .heap
                        .get(o)
                        .map(|ob| ob.input_field(KEY).is_none() && ob.field(KEY) == Some(&None))
                        .unwrap_or(false);
                    if fresh {
                        if let Some(ob) = self.heap.get_mut(o) {
                            if let Some(slot) = ob.fields.iter_mut().find(|(f, _)| f == KEY) {
                                slot.1 = Some(SValue::Int(k.clone()));
                            }
                            ob.input.push((KEY.to_string(), SValue::Int(k.clone())));
                        }
                    } else if let Some(ko) = self.object_order_key(o) {
                        self.pc.push(Sym::eq(&k, &ko));
                    }
                }
                _ => {}
            }
        }
    }

    /// The key of an unresolved abstract value compared on this path (for concretization).
    pub fn pending_order_key(&self, v: &SValue) -> Option<&Sym> {
        self.order.pending.iter().find(|(p, _)| p == v).map(|(_, k)| k)
    }
}
