@testable import GraphImport
import GraphImportJSON
import Testing

/// How the sample check lists keys.
@Suite struct InputShapeTests {
    @Test func listsAtMostEightKeysThenACount() {
        #expect(InputShape.listed((1...10).map { "k\($0)" }) == "'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8' and 2 more")
    }
}
