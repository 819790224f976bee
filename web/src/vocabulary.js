// Generated from the engine's bound table and strategy registry by heaplab-report
// (tests/schema.rs); do not edit.

/** Every bound, declared once in heaplab_engine::symbolic::bounds. */
export const BOUNDS = [
  {
    "default": 2,
    "help": "Kiasan's reference-chain bound (the receiver has k, its fields k-1, ...)",
    "label": "k",
    "name": "k",
    "on_page": true,
    "title": "How many objects deep the input may reach: k = 2 allows chains of two objects from each input reference",
    "zero_is_off": false
  },
  {
    "default": 10,
    "help": "Loop iterations (per loop and call) that materialize no heap object",
    "label": "loops",
    "name": "loop",
    "on_page": true,
    "title": "How many times a loop may run without reading a new input object before the path is cut",
    "zero_is_off": false
  },
  {
    "default": 32,
    "help": "Deepest call nesting",
    "label": "calls",
    "name": "call_depth",
    "on_page": false,
    "title": "How deep calls may nest (the method under test is 1)",
    "zero_is_off": false
  },
  {
    "default": 8,
    "help": "`sl` only: deepest predicate unfolding (JSF's max_depth)",
    "label": "depth",
    "name": "depth",
    "on_page": true,
    "title": "For sl: how many times a predicate of the precondition may be unfolded along one chain",
    "zero_is_off": false
  },
  {
    "default": 10000,
    "help": "Stop after this many (non-discarded) paths",
    "label": "paths",
    "name": "max_paths",
    "on_page": true,
    "title": "Stop after this many path ends (paths whose input breaks the precondition do not count)",
    "zero_is_off": false
  },
  {
    "default": 200000,
    "help": "Stop after this many states (nodes of the exploration tree), discarded paths included",
    "label": "states",
    "name": "max_states",
    "on_page": true,
    "title": "Stop after this many states (the circles of the tree)",
    "zero_is_off": false
  },
  {
    "default": 60000,
    "help": "The whole run's time bound in milliseconds, exploration, test generation, replay and export together (0: no limit); exploration gets the first three quarters",
    "label": "time (ms)",
    "name": "timeout_ms",
    "on_page": true,
    "title": "Stop after this many milliseconds of work (0: no limit); time spent paused does not count",
    "zero_is_off": true
  },
  {
    "default": 1024,
    "help": "The whole run's memory bound in megabytes beyond what the process held at its start, exploration, test generation and replay together (0: no limit); exploration gets the first three quarters",
    "label": "memory (MB)",
    "name": "max_memory_mb",
    "on_page": false,
    "title": "Stop once the run holds this many more megabytes than at its start (0: no limit)",
    "zero_is_off": true
  },
  {
    "default": 1000000,
    "help": "The most instructions one path may execute",
    "label": "steps per path",
    "name": "steps_per_path",
    "on_page": false,
    "title": "The most instructions one path may run (a last-resort guard)",
    "zero_is_off": false
  },
  {
    "default": 0,
    "help": "Stop after this many questions about path conditions (0: no limit)",
    "label": "questions",
    "name": "max_questions",
    "on_page": false,
    "title": "Stop after this many questions about path conditions (0: no limit)",
    "zero_is_off": true
  },
  {
    "default": 256,
    "help": "All-heaps mode: the most models asked per path",
    "label": "heaps per path",
    "name": "heaps_per_path",
    "on_page": false,
    "title": "Every-input-heap mode: the most models asked per path",
    "zero_is_off": false
  },
  {
    "default": 8,
    "help": "`concolic` only: the longest input array its phase 2 solves for",
    "label": "array length",
    "name": "max_array_length",
    "on_page": false,
    "title": "concolic: the longest input array its phase 2 solves for",
    "zero_is_off": false
  },
  {
    "default": 4,
    "help": "`concolic` only: the most predicate unfoldings along one formula of a constraint-tree node (CSF's star.max_depth); nodes are tried with 1 first, then deeper",
    "label": "unfold",
    "name": "max_unfold",
    "on_page": true,
    "title": "concolic: how many times a node's formula may unfold the precondition's predicates",
    "zero_is_off": false
  }
];

/** Every strategy, in menu order (heaplab_engine::symbolic::strategy::STRATEGIES). */
export const STRATEGIES = [
  {
    "all_heaps": false,
    "description": "first read of a reference: null | each compatible input object | fresh object",
    "driver": "explorer",
    "learn": "The first time the program reads a reference nobody has set, HeapLab tries every possibility: null, each object of that type seen so far, and a new object. (Khurshid, Păsăreanu and Visser 2003; Kiasan thesis, section 3.1)",
    "name": "lazy",
    "reads_requires": false,
    "source": "Khurshid, Pasareanu, Visser 2003 (JPF); Kiasan (Deng 2007) §3.1",
    "uses_depth": false
  },
  {
    "all_heaps": false,
    "description": "first read: null | symbolic location; aliasing decided at dereference or comparison",
    "driver": "explorer",
    "learn": "The first read only decides null or \"some object\"; which object it is gets decided when the program compares or follows the reference. (Kiasan thesis, section 3.1.2)",
    "name": "lazier",
    "reads_requires": false,
    "source": "Kiasan (Deng 2007) §3.1.2",
    "uses_depth": false
  },
  {
    "all_heaps": false,
    "description": "first read: symbolic reference, no branch; null split at dereference, comparison or null test",
    "driver": "explorer",
    "learn": "The first read decides nothing; whether the reference is null is decided when the program follows or tests it. Fewest cases of the three. (Kiasan thesis, section 3.1.3)",
    "name": "lazier#",
    "reads_requires": false,
    "source": "Kiasan (Deng 2007) §3.1.3",
    "uses_depth": false
  },
  {
    "all_heaps": false,
    "description": "predicates of `requires` unfold when the program first accesses a reference they cover; other references as lazier#",
    "driver": "explorer",
    "learn": "The precondition (requires) is a separation-logic formula; its predicates are unfolded when the program first touches a reference they describe, so every input satisfies requires. (Java StarFinder)",
    "name": "sl",
    "reads_requires": true,
    "source": "Java StarFinder (JSF, arXiv 1712.06025): lazy initialization with separation logic",
    "uses_depth": true
  },
  {
    "all_heaps": true,
    "description": "guarded value sets: no fork on reads, forks only on ==, null tests, null dereference and a requires' points-to",
    "driver": "explorer",
    "learn": "The input heap stays symbolic: a reference holds a set of possible objects, each under a condition, so reading a field never branches; the run splits only where the program compares references or tests for null, and where the precondition (requires) describes an object, to pick which one it is. One path stands for many input heaps. (Precise heap summaries, paper 003)",
    "name": "symheap",
    "reads_requires": false,
    "source": "Precise heap summaries (paper 003, VMCAI 2016 successor); creator-only alias rule",
    "uses_depth": false
  },
  {
    "all_heaps": false,
    "description": "inputs from models of requires (phase 1), then runs on concrete inputs, solving for the branches not yet taken (phase 2)",
    "driver": "concolic_loop",
    "learn": "Concrete runs: the first inputs are models of the precondition's unfoldings; each run follows one concrete input, and the next input is solved for a branch no run has taken yet. Every input satisfies requires. (Concolic StarFinder)",
    "name": "concolic",
    "reads_requires": true,
    "source": "Concolic StarFinder (CSF): concrete runs from models of the precondition, negating branches",
    "uses_depth": true
  }
];

/** The strategy a run uses when none is named. */
export const DEFAULT_STRATEGY = "lazier#";
