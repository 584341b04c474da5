import GraphImportMapping
import GraphImportSchema
import Testing

@testable import GraphImport

/// The one path of convert, coerce and check, asked directly as the writer asks it for derived values.
@Suite("Value pipeline")
struct ValuePipelineTests {
    static let map = """
        records at $[*] as Site
        entity Site
          key id
          id : Int
          state : String? | lowercase check oneOf("open", "closed") "unknown state"
          stars : Int? check range(0, 5)
        """

    static func attribute(_ name: String) throws -> AttributePlan {
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        return try #require(plan.entities[0].attributes.first { $0.name == name })
    }

    @Test func convertsCoercesAndChecksInOrder() throws {
        #expect(try Self.attribute("state").storedValue(.string("Open")) == .text("open"))
        #expect(try Self.attribute("stars").storedValue(.int(3)) == .integer(3))
    }

    @Test func refusedValueIsShownAfterConversionWithTheMapsMessage() throws {
        let state = try Self.attribute("state")
        #expect(throws: ValueFailure.check(message: "unknown state", value: .text("merged"))) { try state.storedValue(.string("Merged")) }
        do {
            _ = try state.storedValue(.string("Merged"))
        } catch {
            #expect(error.message == "unknown state (value: 'merged')")
        }
    }

    @Test func valueOfTheWrongTypeIsAConversionFailureNotACheckFailure() throws {
        let stars = try Self.attribute("stars")
        do {
            _ = try stars.storedValue(.string("4"))
            Issue.record("a string was stored as an Int")
        } catch {
            guard case .conversion(let conversion) = error else {
                Issue.record("expected a conversion failure, got \(error)")
                return
            }
            #expect(error.message == conversion.message)
            #expect(conversion.hint != nil)
        }
    }
}
