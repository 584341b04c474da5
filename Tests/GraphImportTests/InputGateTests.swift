import Foundation
import GraphImportJSON
import Testing

@testable import GraphImport

/// A failed import returns while its reading thread may still be reading ahead, and its caller
/// then closes the input's descriptor: a read begun after that would read whatever file the next
/// `open` got the same number for. Found as a test that, once in many runs, read its own feed as
/// empty while another test's refused import ran beside it.
@Suite("The input after an import is over")
struct InputGateTests {
    /// A source that counts its reads and gives a byte each time.
    struct CountingSource: JSONByteSource {
        let reads: Counter
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            reads.add()
            buffer[0] = UInt8(ascii: " ")
            return 1
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func noReadOfTheSourceBeginsOnceTheGateIsClosed() throws {
        let state = InputTapState()
        let reads = Counter()
        var tap = InputTap(CountingSource(reads: reads), state: state)
        var byte: UInt8 = 0
        let read = { (tap: inout InputTap<CountingSource>) throws -> Int in
            try withUnsafeMutableBytes(of: &byte) { try tap.read(into: $0) }
        }
        #expect(try read(&tap) == 1)
        #expect(reads.value == 1)
        state.closeGate()
        // As the input's end, and the source is not touched.
        #expect(try read(&tap) == 0)
        #expect(try read(&tap) == 0)
        #expect(reads.value == 1)
    }

    /// A read under way when the gate closes (a quiet pipe) does not hold the importer up for
    /// longer than a moment.
    @Test func closingTheGateWaitsOnlyAMomentForAReadUnderWay() {
        let state = InputTapState()
        #expect(state.beginRead())
        let start = Date()
        state.closeGate()
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(!state.beginRead())
        state.endRead()
    }
}
