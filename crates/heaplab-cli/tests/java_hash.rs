//! `hashCode()` of an element of an unbounded type parameter (erased to `Object`): an unknown
//! `int` per object, the same on every call. `tests/data/java/HashPair.java` reads the hashes
//! of keys of type `T` (a bucket `(h & 0x7fffffff) % m`, two keys compared by hash and by
//! `equals`, one key's hash read twice). Under every strategy it explores with 0 invalid inputs,
//! the paths that need chosen hashes are found (a negative hash, two different keys in one
//! bucket, two different keys with one hash), and the emitted JUnit tests, whose keys are
//! objects of the test's own class returning the chosen hash, compile with `javac` next to the
//! unmodified class and pass on the JVM: the JVM's `hashCode`, `&`, `%` and `Object.equals` are
//! the oracle for every result the tests assert.

#![allow(clippy::unwrap_used)]

mod common;

const SOURCE: &str = "crates/heaplab-cli/tests/data/java/HashPair.java";
const METHODS: [&str; 4] = ["slot", "collide", "sameHashNotEqual", "stable"];

#[test]
fn object_keys_hash_per_object_under_every_strategy_and_the_junit_passes() {
    let check = |strategy: &str, dir: &std::path::Path| {
        let read = |class: &str| std::fs::read_to_string(dir.join("course").join(class)).unwrap();
        // A negative hash, which the mask must clear before `% m`, is an input of `slot`.
        let slot = read("HashPairSlotTest.java");
        assert!(slot.contains("new Hashed(-"), "{strategy}:\n{slot}");
        // Two different keys with the bucket, and with the hash, of each other: concolic's
        // random start seldom gives two keys one hash, so only the symbolic strategies.
        if strategy != "concolic" {
            for class in ["HashPairCollideTest.java", "HashPairSameHashNotEqualTest.java"] {
                let emitted = read(class);
                assert!(emitted.contains("assertEquals(true, result)"), "{strategy}:\n{emitted}");
            }
        }
    };
    common::course_class_under_every_strategy(
        "java-hash",
        SOURCE,
        "HashPair",
        &METHODS,
        |_, _| vec![],
        check,
    );
}
