/// The entry point of the `.map` language: text in, a validated `Mapping` out.
public enum MapParser {
    /// Parses and validates a map; throws every problem at once, in source order.
    ///
    /// `converters` are the converters the engine offers: calls are checked against their names and
    /// parameter kinds; `validators`, the same for `check` clauses. The returned mapping keeps
    /// `source`, so later stages can quote its lines.
    public static func parse(
        _ source: String, fileName: String, converters: [ConverterSignature], validators: [ConverterSignature] = []
    ) throws(MappingErrors) -> Mapping {
        let text = SourceText(source)
        var parser = Parser(text)
        let syntax = parser.parseMap()
        var validator = Validator(syntax: syntax, source: text, converters: converters, validators: validators)
        let (records, entities, meta) = validator.validate()
        // Stable: problems at one offset keep the order they were found in.
        let problems = (parser.problems + validator.problems).enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        guard problems.isEmpty else {
            throw MappingErrors(problems.map { $0.diagnostic(in: text, fileName: fileName) })
        }
        return Mapping(fileName: fileName, records: records, entities: entities, meta: meta, source: source)
    }
}
