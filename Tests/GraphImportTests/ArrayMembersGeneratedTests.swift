import GraphImport
import GraphImportStoreTestSupport
import Testing

/// Random collections of lists keyed by name (`{"releases": {"1.0": [file, …], …}}`), rendered in
/// each shape a map reads them in; the store must hold exactly the generated graph on both
/// stores, a re-import changes nothing, and the export imports again to the same graph.
@Suite("Members whose values are arrays, generated")
struct ArrayMembersGeneratedTests {
    enum Shape: String, CaseIterable, Sendable {
        /// `releases <- releases{*} : [Release]` in the package.
        case toMany
        /// `records at releases{*} as Release` and `records at releases{*}[*] as File`.
        case records
        /// Packages keyed by name, a level above: `records at projects{*} as Package`.
        case nested
    }

    /// A package's releases: each a version and its files' numbers, in document order.
    typealias Package = (name: String, releases: [(version: String, files: [Int])])

    static func packages(seed: UInt64, shape: Shape) -> [Package] {
        var random = GraphRandom(state: seed)
        let count = shape == .nested ? 1 + random.next(2) : 1
        return (0..<count).map { index in
            // `records` needs a release to read: a feed with none is an empty feed.
            let releases = (0..<(random.next(4) + (shape == .records ? 1 : 0))).map { version in
                // Distinct files of a pool of six: one file is often under two releases, or two packages.
                let files = (0..<6).filter { _ in random.chance(1, in: 3) }.shuffled(using: &random)
                return (version: "1.\(version)", files: files)
            }
            return (name: "p\(index)", releases: releases)
        }
    }

    static func element(_ file: Int, scalars: Bool) -> String {
        scalars ? #""f\#(file)""# : #"{"filename": "f\#(file)", "size": \#(file)}"#
    }

    static func json(_ packages: [Package], shape: Shape, scalars: Bool) -> String {
        func releases(_ package: Package) -> String {
            let members = package.releases.map { release in
                #""\#(release.version)": [\#(release.files.map { element($0, scalars: scalars) }.joined(separator: ", "))]"#
            }
            return "{\(members.joined(separator: ", "))}"
        }
        switch shape {
        case .toMany, .records:
            return #"{"name": "\#(packages[0].name)", "releases": \#(releases(packages[0]))}"#
        case .nested:
            let members = packages.map { #""\#($0.name)": {"name": "\#($0.name)", "releases": \#(releases($0))}"# }
            return #"{"projects": {\#(members.joined(separator: ", "))}}"#
        }
    }

    static func map(shape: Shape, scalars: Bool) -> String {
        let file = scalars ? "entity File\n  key filename\n  filename <- $ : String" : "entity File\n  key filename\n  filename : String\n  size : Int"
        let release = """
            entity Release
              key package, version
              package <- \(shape == .records ? "@root.name" : "@parent.name") : String
              version <- $key : String
              files <- $ : [File]
            """
        switch shape {
        case .toMany, .nested:
            return """
                records at \(shape == .nested ? "projects{*}" : "$") as Package
                entity Package
                  key name
                  name : String
                  releases <- releases{*} : [Release]
                \(release)
                \(file)
                """
        case .records:
            // Each release scoped by the response's package (`@root.name`), which export writes back at the root.
            return """
                records at releases{*} as Release
                records at releases{*}[*] as File
                \(release)
                \(file)
                """
        }
    }

    /// The rows the generated graph is: releases, their files' links, and the files.
    static func expected(_ packages: [Package], shape: Shape, scalars: Bool) -> (releases: [String], links: [String], files: [String]) {
        var releases: [String] = []
        var links: [String] = []
        var files = Set<Int>()
        for package in packages {
            for release in package.releases {
                let key = "\(package.name)|\(release.version)"
                releases.append(key)
                for (position, file) in release.files.enumerated() {
                    links.append("\(key)|f\(file)|\(position)")
                    files.insert(file)
                }
            }
        }
        return (releases.sorted(), links.sorted(), files.map { scalars ? "f\($0)" : "f\($0)|\($0)" }.sorted())
    }

    @Test(arguments: StoreKind.testable, Shape.allCases)
    func theStoreHoldsTheGeneratedGraph(kind: StoreKind, shape: Shape) throws {
        for seed in UInt64(1)...4 {
            for scalars in [false, true] {
                let packages = Self.packages(seed: seed, shape: shape)
                let json = Self.json(packages, shape: shape, scalars: scalars)
                let plan = try ImportPlan.compile(text: Self.map(shape: shape, scalars: scalars), fileName: "test.map")
                let label = "seed \(seed), \(shape), \(scalars ? "scalars" : "objects"): \(json)"
                let store = try StoreUnderTest(kind)
                guard case .success = store.importJSON(json, plan: plan) else {
                    Issue.record("\(label): \(store.importJSON(json, plan: plan))")
                    continue
                }
                let rows = try store.rows(plan: plan)
                let expected = Self.expected(packages, shape: shape, scalars: scalars)
                #expect(ArrayMembersTests.rows("Release", in: rows, plan: plan) == expected.releases, "\(label)")
                #expect(ArrayMembersTests.rows("Release.files", in: rows, plan: plan)?.sorted() == expected.links, "\(label)")
                #expect(ArrayMembersTests.rows("File", in: rows, plan: plan) == expected.files, "\(label)")
                guard case .success(let again) = store.importJSON(json, plan: plan) else {
                    Issue.record("\(label): the re-import failed")
                    continue
                }
                #expect(!again.changed, "\(label)")
                #expect(GraphExporter(plan: plan).caveats.isEmpty, "\(label): \(GraphExporter(plan: plan).caveats)")
                let exported = try store.export(plan: plan)
                let copy = try StoreUnderTest(kind)
                let reimport = copy.importJSON(exported, plan: plan)
                guard case .success = reimport else {
                    Issue.record("\(label): the export does not import: \(reimport)\n\(exported)")
                    continue
                }
                #expect(try copy.rows(plan: plan) == rows, "\(label): \(exported)")
            }
        }
    }
}
