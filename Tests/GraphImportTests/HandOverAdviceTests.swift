import Testing

@testable import GraphImport

/// `HandOverAdvice`: when the reading thread hands records over light, from the writer's reports.
struct HandOverAdviceTests {
    static func next(_ advice: inout HandOverAdvice) -> Bool { advice.nextBatchIsLight() }

    /// A first import (every light record drafted by the writer) probes ever more rarely: at most
    /// one batch in `maxProbeInterval` once the interval has grown, never two light in a row.
    @Test func everyProbeFoundChangedSpacesTheProbes() {
        var advice = HandOverAdvice()
        var light: [Int] = []
        for batch in 0..<1000 where advice.nextBatchIsLight() {
            light.append(batch)
            advice.report(unchanged: 0, drafted: 128)
        }
        #expect(light.prefix(4) == [0, 2, 6, 14])
        let gaps = zip(light.dropFirst(), light).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 2 })
        #expect(gaps.suffix(5).allSatisfy { $0 == HandOverAdvice.maxProbeInterval })
        #expect(light.count < 1000 / HandOverAdvice.maxProbeInterval + 8)
    }

    /// A re-import: the first probe found unchanged turns every later batch light, until a report
    /// says most were drafted.
    @Test func aProbeFoundUnchangedGoesLightUntilMostAreDrafted() {
        var advice = HandOverAdvice()
        #expect(Self.next(&advice))
        advice.report(unchanged: 120, drafted: 8)
        for _ in 0..<50 { #expect(Self.next(&advice)) }
        advice.report(unchanged: 64, drafted: 64)
        #expect(Self.next(&advice))
        advice.report(unchanged: 10, drafted: 118)
        #expect(!advice.handsOverLight)
        #expect(!Self.next(&advice))
        #expect(Self.next(&advice))
    }

    /// While a probe's report is awaited (the records read ahead before the writer starts, the
    /// batches queued before it), no other batch goes light; reports of batches without light
    /// records change nothing.
    @Test func noSecondProbeWhileTheFirstIsUnreported() {
        var advice = HandOverAdvice()
        #expect(Self.next(&advice))
        for _ in 0..<200 { #expect(!Self.next(&advice)) }
        advice.report(unchanged: 0, drafted: 0)
        #expect(!Self.next(&advice))
        advice.report(unchanged: 0, drafted: 128)
        #expect(!Self.next(&advice))
        #expect(Self.next(&advice))
    }
}
