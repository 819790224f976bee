package course;

/**
 * Counts per bucket in an `int[]`, an `int` count of events and a `long` grand total. The file
 * writes `long`, so every `int` here (array cells, fields, parameters) must still hold only what
 * a Java `int` holds and wrap at 32 bits: `counts[b]++` past `Integer.MAX_VALUE` is
 * `Integer.MIN_VALUE`, while the `long` total keeps counting.
 */
public class Tally {
    private int[] counts;   // counts[b] = amount recorded in bucket b
    private int events;     // number of calls of record and add
    private long total;     // sum of every amount added, in 64 bits

    public Tally(int buckets) {
        counts = new int[buckets];
    }

    private void validate(int b) {
        if (b < 0 || b >= counts.length) {
            throw new IllegalArgumentException("no bucket " + b);
        }
    }

    /** One more event in bucket b. */
    //@ requires this.counts != null & this.counts.length >= 1 & this.counts.length <= 2;
    public void record(int b) {
        validate(b);
        counts[b]++;
        events++;
        total++;
    }

    /** An amount added to bucket b. */
    //@ requires this.counts != null & this.counts.length >= 1 & this.counts.length <= 2;
    public void add(int b, int amount) {
        validate(b);
        counts[b] += amount;
        this.events += 1;
        total += amount;
    }

    /** Twice bucket b's count, as an `int` computes it (it wraps). */
    //@ requires this.counts != null & this.counts.length >= 1 & this.counts.length <= 2;
    public int doubled(int b) {
        validate(b);
        int x = counts[b] * 2;
        return x;
    }

    /** Whether one more event would wrap bucket b's count around. */
    //@ requires this.counts != null & this.counts.length >= 1 & this.counts.length <= 2;
    public boolean full(int b) {
        validate(b);
        if (counts[b] + 1 < counts[b]) {
            return true;
        }
        return false;
    }

    /** Bucket b's count after one more event, read in the same expression. */
    //@ requires this.counts != null & this.counts.length >= 1 & this.counts.length <= 2;
    public int bump(int b) {
        validate(b);
        events += 2;
        return ++counts[b];
    }

    /** The counts summed in 64 bits: never wraps for two buckets. */
    //@ requires this.counts != null & this.counts.length <= 2;
    public long sum() {
        long s = 0;
        for (int c : counts) {
            s += c;
        }
        return s;
    }
}
