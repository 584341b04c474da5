import GraphImportMapping
import Testing

@Suite struct ClosestMatchTests {
    static let types = ["String", "Int", "Double", "Bool", "Date", "URL", "Data", "JSON", "User", "Tweet"]

    @Test(arguments: [
        ("Strin", "String"), ("string", "String"), ("Usr", "User"), ("Doubel", "Double"), ("Dte", "Date"),
        ("json", "JSON"), ("Tweets", "Tweet"),
    ])
    func suggestsCloseCandidate(name: String, expected: String) {
        #expect(closestMatch(to: name, among: Self.types) == expected)
    }

    @Test(arguments: ["x", "Timestamp", "Number", "Strnigs", ""])
    func suggestsNothingWhenFar(name: String) {
        #expect(closestMatch(to: name, among: Self.types) == nil)
    }

    @Test func prefersSmallestDistanceThenEarlierCandidate() {
        #expect(closestMatch(to: "lowercse", among: ["uppercase", "lowercase"]) == "lowercase")
        #expect(closestMatch(to: "Dat", among: ["Date", "Data"]) == "Date")
    }

    @Test func suggestsNothingAmongNoCandidates() {
        #expect(closestMatch(to: "String", among: []) == nil)
    }
}
