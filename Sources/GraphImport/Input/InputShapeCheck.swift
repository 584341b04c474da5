import GraphImportJSON

/// Decides, once the input is read, whether the map found what it looks for: a records path that
/// fits nothing in the input, or a required `meta` value the input does not have, fails the import
/// instead of passing for an empty feed.
///
/// A records path fits when it selected a record, or met an empty array or a null on its way (the
/// feed says "none"). It misses when a key on its way is absent, or a value is of the wrong kind
/// (an object, a string, a number or a boolean where it needs an array, a scalar where it needs an
/// object). The import fails when no records path of the map fits: a map may name several roots
/// for several shapes of a feed (`data.children[*], $[*].data.children[*]`), of which one input
/// holds some. `missing empty` on a `records` line makes its absent paths an empty feed (a wrong
/// kind still misses). A required `meta` value is an error when its path misses; an empty array or
/// null on its way leaves it as it was, like an optional one.
///
/// Public so that a command that only reads a sample (`graphimport check --sample`) can give the
/// same verdict and wording: read the sample with a `JSONRecordReader` over the plan's route and
/// meta patterns, then pass `reader.outcome(ofPattern:)` for each.
package enum InputShapeCheck {
    /// The error for the outcomes of the reader's patterns (the routes' first, then the meta
    /// fields'), or nil when the input has what the map looks for.
    package static func problem(routes: [RecordRoute], meta: [MetaPlan], outcomes: [JSONPatternOutcome]) -> ImportError? {
        var firstMiss: JSONPathMiss?
        var fits = routes.isEmpty
        for (index, route) in routes.enumerated() {
            switch outcomes[index] {
            case .selected, .empty, .unreached: fits = true
            case .missed(let miss):
                if route.mayBeMissing && miss.reason == .absent { fits = true } else if firstMiss == nil { firstMiss = miss }
            }
        }
        if !fits, let firstMiss { return recordsError(firstMiss) }
        for (index, field) in meta.enumerated() where !field.isOptional {
            let path = JSONPathMiss.mapText(field.pattern)
            switch outcomes[routes.count + index] {
            case .selected, .empty, .unreached: continue
            case .missed(let miss):
                let guess = miss.suggestion.map { "did you mean `\(JSONPathMiss.mapText($0))`? " } ?? ""
                return .meta(
                    name: field.name, message: "is required but the input has no value at \(path): \(miss.foundText)",
                    hint: guess + "declare it optional (`: \(field.type.rawValue)?`) if the service may leave it out")
            }
        }
        return nil
    }

    /// "the records path `items[*]` matches nothing: the top level is an object with keys data, meta".
    package static func recordsError(_ miss: JSONPathMiss) -> ImportError {
        let path = JSONPathMiss.mapText(miss.pattern)
        var hint = miss.suggestion.map { "did you mean `\(JSONPathMiss.mapText($0))`? " } ?? ""
        switch miss.reason {
        case .absent:
            hint += "fix the `records at` line; if the feed leaves `\(path)` out when it has no records, add `missing empty` to that line"
        case .wrongKind:
            hint += "fix the `records at` line of the map"
            // `data[*]` on one object: JSON:API's single resource beside its collection (when no
            // array inside it is a better guess).
            if miss.suggestion == nil, case .object = miss.found, miss.depth == miss.pattern.components.count - 1,
                miss.pattern.components[miss.depth] == .anyIndex, miss.depth > 0
            {
                let lone = JSONPathPattern(Array(miss.pattern.components.dropLast()) + [.anyIndexOrOne])
                hint += "; if the feed sends one object when it has one record, write `\(JSONPathMiss.mapText(lone))`"
            }
        }
        return .noRecords(
            path: path, message: "the records path `\(path)` matches nothing: \(miss.foundText)", hint: hint, position: miss.position)
    }
}
