/// Whether the reading thread hands the next batch of records over light (`LightRecord`) or
/// drafted, from what the writer reports of the light ones it got: a light record that turns out
/// changed is drafted by the writer after all, which on a first import (every object new) would
/// move the whole of drafting onto the writing thread, the slower one then.
///
/// Starts drafted, with one batch light as a probe: a first import, and the records read ahead
/// while the store's lock is awaited, pay for that one batch. Drafted, it hands over one batch
/// light now and then (after 1, 2, 4 … up to `maxProbeInterval` drafted batches, and never while
/// the last probe's report is awaited); light, it stays so while at most half of the reported
/// light records needed drafting. Both ways give the same store: only the speed depends on it.
struct HandOverAdvice {
    static let maxProbeInterval = 64
    private(set) var handsOverLight = false
    private var probeInterval = 1
    private var batchesSinceProbe = 0
    /// A probe was handed over and the writer has not reported a light batch since.
    private var awaitingReport = false

    /// Whether the next batch goes light (a probe counts as handed).
    mutating func nextBatchIsLight() -> Bool {
        if handsOverLight { return true }
        guard !awaitingReport else { return false }
        batchesSinceProbe += 1
        guard batchesSinceProbe >= probeInterval else { return false }
        batchesSinceProbe = 0
        awaitingReport = true
        return true
    }

    /// What the writer made of one batch's light records: `unchanged` were done with their keys
    /// and digests, `drafted` needed drafting.
    mutating func report(unchanged: Int, drafted: Int) {
        guard unchanged + drafted > 0 else { return }
        awaitingReport = false
        if drafted <= unchanged {
            handsOverLight = true
            probeInterval = 1
            return
        }
        if handsOverLight {
            handsOverLight = false
            batchesSinceProbe = 0
            probeInterval = 1
        }
        probeInterval = min(probeInterval * 2, Self.maxProbeInterval)
    }
}
