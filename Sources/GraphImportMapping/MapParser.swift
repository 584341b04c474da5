/// The entry point of the `.map` language: text in, a validated `Mapping` out.
public enum MapParser {
    /// Parses and validates a map; throws every problem at once, in source order.
    ///
    /// `converters` are the converters the engine offers: calls are checked against their names and
    /// parameter kinds; `validators`, the same for `check` clauses. `includes` reads the files the
    /// map includes (by default none can be). The returned mapping keeps `source` and the included
    /// files, so later stages can quote their lines.
    public static func parse(
        _ source: String, fileName: String, includes: IncludeResolver = .none, converters: [ConverterSignature],
        validators: [ConverterSignature] = []
    ) throws(MappingErrors) -> Mapping {
        let sources = MapSources(MapFile(name: fileName, identity: includes.identity(fileName), text: source), resolver: includes)
        // A map of one file is read as it is; with includes, as the spliced text of all its files.
        let text = sources.files.count == 1 ? SourceText(source) : SourceText(spliced: sources)
        var parser = Parser(text)
        let syntax = parser.parseMap()
        var validator = Validator(syntax: syntax, source: text, converters: converters, validators: validators)
        let (records, entities, meta) = validator.validate()
        let found = sources.problems + sources.statementsOutOfPlace(in: syntax) + parser.problems + validator.problems
        // Stable: problems at one offset keep the order they were found in.
        let problems = found.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        guard problems.isEmpty else {
            throw MappingErrors(problems.map { $0.diagnostic(in: text, fileName: fileName) })
        }
        var mapping = Mapping(fileName: fileName, records: records, entities: entities, meta: meta, source: source)
        if sources.files.count > 1 {
            mapping.includedFiles = sources.files.dropFirst().map(\.file)
            mapping.splicedText = text
        }
        return mapping
    }
}
