// Generated from docs/report.schema.json by heaplab-report (tests/schema.rs); do not edit.
// The types of what the wasm engine returns and the CLI prints with --format json.

/**
 * All-heaps mode's counts.
 * @typedef {Object} AllHeapsReport
 * @property {Array<string>} cut_by The bounds that stopped them.
 * @property {number} duplicates Models isomorphic to a heap found before on the same path.
 * @property {number} heaps Distinct input heaps (each a test).
 * @property {number} model_queries Model queries asked.
 * @property {number} paths_cut Paths whose enumeration a bound stopped.
 */

/**
 * `heaplab bench --format json`: one row per (subject, strategy).
 * @typedef {Object} BenchReport
 * @property {number} k
 * @property {Array<BenchRow>} rows
 * @property {number} schema_version
 * @property {(BenchShard|null)} [shard] `heaplab bench --shard i/n`: which slice of the rows this report holds (absent from whole and merged reports).
 * @property {string} suite
 * @property {number} timeout_ms
 */

/**
 * One bench row: the run's summary and the memory it took.
 * @typedef {Object} BenchRow
 * @property {number} item The row's place among every (file, method, strategy) of the whole bench, sharded or not (a method a strategy cannot run keeps its place without a row).
 * @property {number} peak_rss_kb The process's peak resident memory after the run (monotone over the bench), in KB.
 * @property {number} peak_rss_raise_kb How much this run raised that peak, in KB.
 * @property {RunSummary} summary
 * @property {boolean} timed_out Whether the run's time bound stopped it.
 */

/**
 * One slice of a sharded bench: the rows whose `item` is `index - 1` modulo `count`.
 * @typedef {Object} BenchShard
 * @property {number} count
 * @property {number} index This slice, counted from 1.
 */

/**
 * The bounds as options: each one optional, named as users type it (0 turns off a
 * bound that can be off).
 * @typedef {Object} BoundOptions
 * @property {(number|null)} [call_depth] Deepest call nesting
 * @property {(number|null)} [depth] `sl` only: deepest predicate unfolding (JSF's max_depth)
 * @property {(number|null)} [heaps_per_path] All-heaps mode: the most models asked per path
 * @property {(number|null)} [k] Kiasan's reference-chain bound (the receiver has k, its fields k-1, ...)
 * @property {(number|null)} [loop] Loop iterations (per loop and call) that materialize no heap object
 * @property {(number|null)} [max_array_length] `concolic` only: the longest input array its phase 2 solves for
 * @property {(number|null)} [max_memory_mb] The whole run's memory bound in megabytes beyond what the process held at its start, exploration, test generation and replay together (0: no limit); exploration gets the first three quarters
 * @property {(number|null)} [max_paths] Stop after this many (non-discarded) paths
 * @property {(number|null)} [max_questions] Stop after this many questions about path conditions (0: no limit)
 * @property {(number|null)} [max_states] Stop after this many states (nodes of the exploration tree), discarded paths included
 * @property {(number|null)} [max_unfold] `concolic` only: the most predicate unfoldings along one formula of a constraint-tree node (CSF's star.max_depth); nodes are tried with 1 first, then deeper
 * @property {(number|null)} [steps_per_path] The most instructions one path may execute
 * @property {(number|null)} [timeout_ms] The whole run's time bound in milliseconds, exploration, test generation, replay and export together (0: no limit); exploration gets the first three quarters
 */

/**
 * `heaplab check --format json`: the diagnostics of each file.
 * @typedef {Object} CheckReport
 * @property {number} errors Errors in all files (0: every file checks).
 * @property {Array<CheckedFile>} files
 * @property {number} schema_version
 */

/**
 * One file's diagnostics.
 * @typedef {Object} CheckedFile
 * @property {Array<DiagnosticReport>} diagnostics
 * @property {string} file
 */

/**
 * `heaplab compare --format json`: one run summary per strategy, in the order asked.
 * @typedef {Object} CompareReport
 * @property {number} depth
 * @property {string} file
 * @property {number} k
 * @property {string} method
 * @property {number} schema_version
 * @property {Array<RunSummary>} strategies
 */

/**
 * The concolic loop's counts (CSF, paper 001).
 * @typedef {Object} ConcolicReport
 * @property {number} deepened Times a node was put off to a larger unfolding budget (`max_unfold`).
 * @property {number} deepest_unfold The largest unfolding budget a node was tried with.
 * @property {number} diverged Runs where no successor of a fork agreed with the input.
 * @property {number} missed_target Runs on a solved input that missed the node it was solved for.
 * @property {number} phase1_calls CSF's `#Calls`: phase-1 solver calls.
 * @property {number} phase1_inputs Tests phase 1 produced.
 * @property {number} phase2_calls CSF's `#Calls`: phase-2 solver calls.
 * @property {number} phase2_inputs Tests phase 2 produced.
 * @property {number} pruned_unknown Unexplored nodes with an undecided formula.
 * @property {number} pruned_unsat Unexplored nodes whose formulas were all unsatisfiable.
 * @property {number} runs Concrete runs.
 * @property {number} unexplored_left Unexplored nodes left at the end.
 */

/**
 * One diagnostic with its place (1-based lines and columns).
 * @typedef {Object} DiagnosticReport
 * @property {number} column
 * @property {number} end_column
 * @property {number} end_line
 * @property {number} line
 * @property {string} message
 * @property {string} severity `error` or `warning`.
 */

/**
 * One branch direction, where it is.
 * @typedef {Object} DirectionReport
 * @property {number} column
 * @property {string} direction `then` (the condition holds) or `else`.
 * @property {number} line
 */

/**
 * `heaplab sat --enumerate --format json`: the models up to isomorphism.
 * @typedef {Object} EnumerationReport
 * @property {boolean} complete Every model within the bounds was found.
 * @property {number} count
 * @property {(number|null)} [exactly] `--exactly N`: only models of exactly N objects.
 * @property {number} max_depth
 * @property {number} max_objects
 * @property {(Array<ModelReport>|null)} [models] The models (left out with `--count`).
 * @property {number} schema_version
 * @property {(string|null)} [stopped_by] The bound that stopped the enumeration early, if one did.
 * @property {number} time_ms
 * @property {number} unchecked Models the model checker could not decide within the run's bounds (counted, not dropped).
 */

/**
 * `heaplab exec --format json`: how the call ended.
 * @typedef {Object} ExecReport
 * @property {string} call The call as given.
 * @property {string} file
 * @property {(string|null)} [heap] The final heap, with `--heap`.
 * @property {OutcomeReport} outcome
 * @property {number} schema_version
 * @property {(string|null)} [value] The value returned, as the interpreter prints it.
 */

/**
 * Coverage of the method's feasible branch directions (`heaplab_testgen::feasible`).
 * @typedef {Object} FeasibilityReport
 * @property {number} covered Of `directions`: covered by the tests with a valid input.
 * @property {number} directions Directions of the code the method runs: its body and what it calls, not its `ensures`, `assert`s or the functions only specifications call.
 * @property {number} feasible `directions` minus the proved-infeasible ones (an upper bound while `unknown` is not empty).
 * @property {Array<DirectionReport>} infeasible Uncovered directions proved unreachable under `requires`.
 * @property {(string|null)} [proof] How `infeasible` was proved, in words; `null` when the run proves nothing (a bound cut it), so every uncovered direction is unknown.
 * @property {Array<DirectionReport>} unknown Uncovered directions neither covered nor proved infeasible.
 */

/**
 * One test that ended in an error.
 * @typedef {Object} FindingReport
 * @property {boolean} breaks_contract A broken contract on a valid input (a failing `ensures`, or a callee's `requires`): what makes `heaplab run` exit 1.
 * @property {number} column
 * @property {string} input The counterexample: the test's input and call as HeapLab statements on one line (`SLL o1 = new SLL; Node o2 = new Node; o1.head = o2; o1.remove(0);`).
 * @property {string} kind The error's keyword (`ensures_failed`, `null_dereference`, …).
 * @property {number} line
 * @property {string} message
 * @property {string} test The generated test's name.
 * @property {boolean} valid_input Its input satisfies `requires` (checked, assumed, or there is none).
 */

/**
 * A heap model of a formula: the store and the objects.
 * @typedef {Object} ModelReport
 * @property {Array<ObjectReport>} objects
 * @property {Object<string, ValueReport>} store Each free variable's value.
 */

/**
 * One object of a model.
 * @typedef {Object} ObjectReport
 * @property {string} class
 * @property {Object<string, ValueReport>} fields
 * @property {number} id
 * @property {boolean} unclaimed Outside the formula's footprint: the formula says nothing about its fields.
 */

/**
 * The options of a symbolic run; every field may be left out.
 * @typedef {Object} Options
 * @property {(boolean|null)} [all_heaps] `symheap`: a test for every distinct input heap of each path. Default: false.
 * @property {BoundOptions} [bounds] The bounds given (the others keep their defaults).
 * @property {(boolean|null)} [minimize] Keep a minimal suite with the same covered directions and distinct outcomes (greedy set cover over the generated tests). Default: true for `concolic`, false otherwise.
 * @property {(OrderOption|null)} [order] Default: `dfs` (`mixed` for `concolic`).
 * @property {(PreOption|null)} [pre] Default: `assume`.
 * @property {(boolean|null)} [raise_bound] Raise `k` (and `depth`) step by step from the given values until coverage of the method's directions stops growing or the time bound ends; the summary names the k chosen. Default: false.
 * @property {(SlCompletionOption|null)} [sl_completion] `sl` only. Default: `model`.
 * @property {(string|null)} [strategy] A strategy registry name (`lazy`, `lazier`, `lazier#`, `sl`, `symheap`, `concolic`). Default: `lazier#`.
 */

/**
 * The order in which pending states (or, for `concolic`, unexplored branches) are taken.
 * @typedef {("dfs"|"bfs"|"mixed")} OrderOption
 */

/**
 * Every way a path or a run can end.
 * @typedef {("returned"|"error"|"bounded"|"discarded"|"internal")} OutcomeKind
 */

/**
 * How one path or run ended.
 * @typedef {Object} OutcomeReport
 * @property {(string|null)} [bound] `bounded`: the name of the bound that cut the path.
 * @property {(string|null)} [error] `error`: the runtime error's keyword, as a test's `expects` spells it.
 * @property {OutcomeKind} kind
 * @property {(number|null)} [line] The 1-based source line where it ended, when it did not return.
 * @property {string} text One line for a person.
 */

/**
 * What to do with the method's `requires`.
 * @typedef {("assume"|"ignore")} PreOption
 */

/**
 * What `--raise-bound` tried.
 * @typedef {Object} RaiseReport
 * @property {number} chosen_k The k of the reported run: the smallest that reached the best coverage seen.
 * @property {Array<RaiseStep>} steps Each step's k, depth and covered directions, in order.
 * @property {string} stopped Why raising stopped, in words.
 */

/**
 * One run of `--raise-bound`.
 * @typedef {Object} RaiseStep
 * @property {number} covered Directions covered by tests with a valid input (the method's, as in `feasibility`).
 * @property {number} depth
 * @property {number} k
 * @property {number} tests
 */

/**
 * What a run of one strategy on one method found (`heaplab run --format json`, a row of
 * `heaplab compare`, the wasm `Exploration.summary()` and `concolicRun`'s summary).
 * @typedef {Object} RunSummary
 * @property {(AllHeapsReport|null)} [all_heaps] All-heaps mode (`symheap`): the input heaps enumerated.
 * @property {Array<string>} bounds_hit The bounds that limited the run, each once: those that cut some path and the one that stopped the whole run (`stopped_by`), so a run that stopped early never lists none.
 * @property {number} branches_covered Branch directions the tests take.
 * @property {number} branches_covered_valid Branch directions the tests with a valid input take.
 * @property {number} branches_total Branch directions of the method and what it calls.
 * @property {(ConcolicReport|null)} [concolic] `concolic`: the loop's counts.
 * @property {(string|null)} [emitted] `heaplab run --emit`: where the tests were written.
 * @property {number} errors Tests that expect a runtime error.
 * @property {(FeasibilityReport|null)} [feasibility] Coverage of the feasible: the method's own directions (its specifications' left out), those proved infeasible and those still unknown (`null` where it was not computed: a shard, a merged summary, the page).
 * @property {string} file The program's file name.
 * @property {Array<FindingReport>} [findings] `heaplab run`: every test that ended in an error, where and why (the text output's error lines), so a script or a grader reads them without parsing text.
 * @property {number} internal_errors Paths the engine could not execute (a HeapLab bug when not 0).
 * @property {number} invalid_inputs Tests whose input violates `requires` (the model checker's verdict).
 * @property {number} k Kiasan's reference-chain bound of the run.
 * @property {boolean} k_bound_reached The k bound removed a fresh-object option somewhere.
 * @property {string} method `Class.method` or a function name.
 * @property {number} paths Every path that ended: feasible + infeasible + bounded.
 * @property {number} paths_bounded Paths a bound cut.
 * @property {number} paths_feasible Paths that returned or failed (each becomes a test).
 * @property {number} paths_infeasible Branch directions the solver pruned plus paths an `assume` or `requires` discarded.
 * @property {number} paths_precondition_discarded Of `paths_infeasible`: discarded because the precondition does not hold.
 * @property {number} paths_unknown Feasible paths the solver gave no model for (no test).
 * @property {number} paths_untested_out_of_memory Feasible paths left without a test when the run held more memory than its bound.
 * @property {number} paths_untested_out_of_time Feasible paths left without a test when the time bound passed.
 * @property {string} pre How `requires` was used: `assume` or `ignore`.
 * @property {(RaiseReport|null)} [raised] `--raise-bound`: the runs at each k and the one chosen (`null` for a run at one k).
 * @property {number} schema_version [`SCHEMA_VERSION`].
 * @property {(ShardReport|null)} [shard] `heaplab run --shard i/n`: which slice of the tree this run explored, and what `heaplab merge` needs to add the slices up (absent from whole runs and merged summaries).
 * @property {(SlReport|null)} [sl] `sl`: how paths that ended with folded instances got their input.
 * @property {SolverCallsReport} solver_calls
 * @property {number} states States created (nodes of the exploration tree).
 * @property {(string|null)} [stopped_by] The bound that stopped the run early, if one did.
 * @property {string} strategy The strategy's registry name.
 * @property {number} tests Tests generated (each replayed by the interpreter).
 * @property {(number|null)} [tests_generated] Tests generated before the suite was minimized (`tests` is what was kept); `null` when it was not minimized.
 * @property {number} time_ms Milliseconds the run took.
 * @property {(string|null)} [unknown_reason] Why those paths have no model, in words (`needs Z3, which is not available here …`).
 */

/**
 * `heaplab sat FILE.smt2 --format json` on an SL-COMP file with a declared status (or more
 * than one query): the status the file declares and one verdict per query.
 * @typedef {Object} SatFileReport
 * @property {Array<SatReport>} answers
 * @property {number} schema_version
 * @property {(string|null)} [status] The `:status` the file declares (`sat`, `unsat` or `unknown`).
 */

/**
 * `heaplab sat --format json`: the verdict on one formula.
 * @typedef {Object} SatReport
 * @property {(boolean|null)} [checked] `sat`: the independent model checker accepted the model (`false`: it could not decide it within the run's bounds, see `unchecked_reason`).
 * @property {(ModelReport|null)} [model] `sat`: the model.
 * @property {(string|null)} [reason] `unknown`: why (the bound that stopped the search).
 * @property {string} result `sat`, `unsat` or `unknown`.
 * @property {number} schema_version
 * @property {(string|null)} [stopped_by] The run's time or memory bound, when one stopped it.
 * @property {number} time_ms
 * @property {(string|null)} [unchecked_reason] `sat` not re-checked: why the model checker gave up.
 */

/**
 * One slice of a sharded run (see `heaplab_engine::symbolic::shard`).
 * @typedef {Object} ShardReport
 * @property {number} count How many slices the run was split into.
 * @property {Array<string>} covered The branch directions the slice's tests take (`site:then`, `site:else`), so that merged coverage is the union, not the sum.
 * @property {Array<string>} covered_valid Of `covered`: those the tests with a valid input take.
 * @property {number} index This slice, counted from 1.
 * @property {number} split_depth How many forks name a slice (every shard explores the tree above it).
 */

/**
 * How `sl` completes a path that ends with predicate instances still folded.
 * @typedef {("model"|"run")} SlCompletionOption
 */

/**
 * `sl`'s path ends with folded instances.
 * @typedef {Object} SlReport
 * @property {number} models Inputs from a model of the remaining formula.
 * @property {number} no_model Remaining formulas without a model (discarded).
 * @property {number} run_completions Paths completed by running the instances' bodies instead.
 */

/**
 * Questions the run asked about path conditions.
 * @typedef {Object} SolverCallsReport
 * @property {number} cached Answered from the cache.
 * @property {number} decided_locally Answered without the solver.
 * @property {number} failed The solver could not answer.
 * @property {number} sent Sent to the solver.
 */

/**
 * `heaplab test --format json`: each test block's result.
 * @typedef {Object} TestReport
 * @property {Array<CheckedFile>} broken_files Files that do not check (their tests did not run).
 * @property {number} failed Failed tests, plus one per file that does not check.
 * @property {number} passed
 * @property {number} schema_version
 * @property {Array<TestResultReport>} tests
 */

/**
 * One test block's result.
 * @typedef {Object} TestResultReport
 * @property {string} file
 * @property {number} line The line of the test's declaration.
 * @property {string} message Why it failed; empty when it passed.
 * @property {string} name
 * @property {(OutcomeReport|null)} [outcome] How the block ended (`None`: the interpreter could not run it).
 * @property {boolean} passed
 * @property {number} steps Interpreter steps used.
 */

/**
 * A value of a model: an integer, a boolean, `null`, or a reference to an object by id.
 * @typedef {(number|boolean|Object|null)} ValueReport
 */

export {};
