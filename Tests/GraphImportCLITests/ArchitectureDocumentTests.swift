import Foundation
import Testing

/// ARCHITECTURE.md stays true to the code by name: every backticked Swift name in it (a type, a
/// module, a file as `Name+Part`, a member as `Type.member`) and every backticked path (`X.swift`,
/// `Folder/`, `Samples/file`) is in the repository, so that a rename or a removal that leaves the
/// document behind fails here.
@Suite("ARCHITECTURE.md names what exists")
struct ArchitectureDocumentTests {
    /// The repository's Swift files (Sources, Tests, Samples), by path from its root.
    static let swiftFiles: [String] = ["Sources", "Tests", "Samples"].flatMap { root -> [String] in
        let enumerator = FileManager.default.enumerator(atPath: repoFile(root))
        return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.map { "\(root)/\($0)" }
    }

    @Test func everyBacktickedNameExists() throws {
        let document = try String(contentsOfFile: repoFile("ARCHITECTURE.md"), encoding: .utf8)
        let sources = try Self.swiftFiles.map { try String(contentsOfFile: repoFile($0), encoding: .utf8) }.joined(separator: "\n")
        let fileNames = Set(Self.swiftFiles.map { String($0.split(separator: "/").last!.dropLast(".swift".count)) })
        // The targets: Sources/X and Tests/X.
        let targets = Set(
            ["Sources", "Tests"].flatMap { (try? FileManager.default.contentsOfDirectory(atPath: repoFile($0))) ?? [] })
        // Declared names: the word after `struct`, `enum`, … (types) and after `func`, `var`, … (members).
        var (types, members) = (Set<String>(), Set<String>())
        let words = sources.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        for (before, word) in zip(words, words.dropFirst()) {
            switch before {
            case "struct", "enum", "class", "protocol", "typealias", "actor": types.insert(String(word))
            case "func", "var", "let", "case": members.insert(String(word))
            default: break
            }
        }

        let names = Set(document.matches(of: #/`([^`\n]+)`/#).map { String($0.output.1) })
        var missing: [String] = []
        for name in names.sorted() where !name.contains("NAME") {  // `Stores/NAME/`: a store's folder to come
            if let match = name.wholeMatch(of: #/([A-Z][A-Za-z0-9]*)(\+[A-Z][A-Za-z0-9]*)?(?:\.(\w+).*|\(.*\))?/#) {
                let (type, part, member) = (String(match.output.1), match.output.2.map(String.init), match.output.3.map(String.init))
                var exists = part.map { fileNames.contains(type + $0) } ?? (types.contains(type) || targets.contains(type) || fileNames.contains(type))
                if exists, let member, member != "init" { exists = members.contains(member) }
                if !exists { missing.append(name) }
            } else if name.hasSuffix(".swift") {
                if !Self.swiftFiles.contains(where: { $0.hasSuffix("/" + name) }) { missing.append(name) }
            } else if name.wholeMatch(of: #/[A-Z]\w*(/[A-Z]\w*)*//#) != nil {
                // A folder of the engine (`Drafting/`, `Stores/SQLite/`) or of the repository (`Fuzz/`).
                var isDirectory: ObjCBool = false
                let exists = ["Sources/GraphImport/\(name)", name].contains {
                    FileManager.default.fileExists(atPath: repoFile($0), isDirectory: &isDirectory) && isDirectory.boolValue
                }
                if !exists { missing.append(name) }
            } else if name.wholeMatch(of: #/[A-Z]\w*/[\w./+-]+/#) != nil {
                if !FileManager.default.fileExists(atPath: repoFile(name)) { missing.append(name) }
            }
        }
        #expect(names.count > 100, "ARCHITECTURE.md names fewer things than it did: is it read?")
        #expect(missing.isEmpty, "ARCHITECTURE.md names what the repository does not have: \(missing)")
    }
}
