@_spi(Fuzzing) import GraphImport
@_spi(Fuzzing) import GraphImportMapping

/// What must hold for any map text; a violation stops the fuzzer with `fatalError` (a crash).
///
/// Refusing a map is fine; trapping, refusing it without a diagnostic, or pointing a caret outside the
/// text is a bug.
enum MapInvariants {
    static let fileName = "fuzz.map"
    /// The converters the engine offers, so calls are checked as the command line checks them.
    static let converters = ConverterCatalog.standard.signatures

    static func check(_ text: String) {
        let mapping: Mapping
        do throws(MappingErrors) {
            mapping = try MapParser.parse(text, fileName: fileName, converters: converters)
        } catch {
            checkDiagnostics(error, in: text)
            return
        }
        let counts = mapping.recordsAndEntityCounts
        require(counts.records > 0, "a validated mapping without a records line")
        do throws(MappingErrors) {
            let plan = try ImportPlan(mapping: mapping)
            let planCounts = plan.entityAndTableCounts
            require(planCounts.entities == counts.entities, "a plan with \(planCounts.entities) of \(counts.entities) entities")
        } catch {
            checkDiagnostics(error, in: text)
        }
    }

    /// At least one diagnostic; each names the file, points inside the text, and renders with its caret.
    static func checkDiagnostics(_ errors: MappingErrors, in text: String) {
        require(!errors.diagnostics.isEmpty, "a map refused without a diagnostic")
        let lineCount = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        for diagnostic in errors.diagnostics {
            let location = diagnostic.location
            require(location.line >= 1 && location.line <= lineCount, "line \(location.line) of \(lineCount): \(diagnostic.headline)")
            require(location.column >= 1, "column \(location.column): \(diagnostic.headline)")
            require(location.offset >= 0 && location.offset <= text.utf8.count, "offset \(location.offset): \(diagnostic.headline)")
            require(diagnostic.description.hasPrefix("\(fileName):\(location.line):\(location.column): error: "), diagnostic.headline)
        }
        _ = errors.description
    }

    static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError(message()) }
    }
}
