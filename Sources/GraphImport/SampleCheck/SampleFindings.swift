import GraphImportJSON
import GraphImportMapping

/// Turns a walk's counts into warnings at the map's line and column: every message of
/// `graphimport check --sample`, in one place and the map reader's voice.
///
/// What is worth a warning: a path no object holds (the typo case, optional or not), and any
/// value, element or record that an import would refuse, with counts. A path that only some
/// objects hold stays quiet when it is optional or has a rule: an absent key keeps the stored
/// value, and nested objects are often partial (a mention holds a user's id and name only); a
/// required one is worth a warning, since an import refuses such an object when it is new. A
/// null in an optional value stays quiet too.
struct SampleFindings {
    let plan: ImportPlan
    let walker: SampleWalker
    private(set) var diagnostics: [Diagnostic] = []

    init(plan: ImportPlan, walker: SampleWalker) {
        self.plan = plan
        self.walker = walker
    }

    private var mapping: Mapping { plan.mapping }

    private mutating func warn(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        diagnostics.append(mapping.diagnostic(at: location, message, hint: hint, severity: .warning))
    }

    /// A path no object holds: a warning in this map's own entities and where the objects hold a
    /// key close to it (the typo case); a note for an optional member of an entity from an included
    /// file, which other maps share and whose optional members this map's records need not reach
    /// (an import stores them absent, and `check --strict` does not fail on it).
    private mutating func warnOrNote(_ location: SourceLocation, _ message: String, hint: String?, optional: Bool, typo: Bool) {
        var diagnostic = mapping.diagnostic(at: location, message, hint: hint, severity: .warning)
        if optional, !typo, !diagnostic.notes.isEmpty {
            diagnostic.severity = .note
            diagnostic.hint = [hint, "an optional member of an entity from an included file: an import stores it absent"].compactMap { $0 }.joined(
                separator: "; ")
        }
        diagnostics.append(diagnostic)
    }

    // MARK: Members

    /// Attributes and relationships of every entity the sample holds objects of.
    mutating func members() {
        for (index, entity) in plan.entities.enumerated() {
            let objects = walker.objects[index]
            guard objects > 0 else { continue }
            let declared = mapping.entities[index]
            for (position, attribute) in entity.attributes.enumerated() where attribute.path != nil {
                guard let written = declared.attribute(named: attribute.name), written.source != nil else { continue }
                let optional = attribute.onMissing != .requiredOnInsert && !entity.keyAttributes.contains(position)
                member(
                    walker.attributes[index][position], at: written.pathLocation, path: written.sources.written, name: "\(entity.name).\(attribute.name)",
                    entity: entity.name, objects: objects, unit: "value", type: attribute.type.rawValue, optional: optional)
            }
            // A polymorphic relationship's branches share its path: a path no object holds is said once.
            var absentReported = Set<String>()
            for (position, relationship) in entity.toOne.enumerated() {
                guard let written = declared.relationship(named: relationship.name) else { continue }
                if written.choice != nil, walker.toOne[index][position].present == 0, !absentReported.insert(written.name).inserted { continue }
                // A to-one stored once with its inverse to-many: the sample's lists set it.
                let setByList = plan.entities[relationship.target].toMany.indices.contains { list in
                    let toMany = plan.entities[relationship.target].toMany[list]
                    return toMany.target == index && toMany.foreignKey == position && walker.toMany[relationship.target][list].present > 0
                }
                if setByList && walker.toOne[index][position].present == 0 { continue }
                member(
                    walker.toOne[index][position], at: written.pathLocation, path: written.sources.written, name: "\(entity.name).\(relationship.name)",
                    entity: entity.name, objects: objects, unit: "value", type: "a \(plan.entities[relationship.target].name)",
                    optional: relationship.isOptional)
            }
            for (position, relationship) in entity.toMany.enumerated() {
                guard let written = declared.relationship(named: relationship.name) else { continue }
                let tally = walker.toMany[index][position]
                if written.choice != nil, tally.present == 0, !absentReported.insert(written.name).inserted { continue }
                member(
                    tally, at: written.pathLocation, path: written.sources.written, name: "\(entity.name).\(relationship.name)", entity: entity.name,
                    objects: objects, unit: tally.tried > 0 ? "element" : "value", type: "a \(plan.entities[relationship.target].name)", optional: true)
                // Link attributes are counted over the elements, the objects they are read from.
                for (link, attribute) in relationship.linkAttributes.enumerated() where tally.tried > 0 {
                    guard let linkWritten = written.linkAttributes.first(where: { $0.name == attribute.name }), let source = linkWritten.source
                    else { continue }
                    member(
                        walker.links[index][position][link], at: linkWritten.pathLocation, path: source.description,
                        name: relationship.linkMembers[link], entity: entity.name, objects: tally.tried, unit: "element",
                        type: attribute.type.rawValue, objectsNoun: "elements of \(entity.name).\(relationship.name)")
                }
            }
            for (position, relationship) in entity.polymorphic.enumerated() {
                let tally = walker.polymorphic[index][position]
                // The branches report a path no object holds; this reports the elements no case takes.
                guard !tally.failures.isEmpty, let written = declared.relationship(named: relationship.name) else { continue }
                member(
                    tally, at: written.choice?.location ?? written.pathLocation, path: written.sources.written, name: relationship.member,
                    entity: entity.name, objects: objects, unit: relationship.isToMany ? "element" : "value", type: relationship.typeText)
            }
        }
    }

    private mutating func member(
        _ tally: MemberTally, at location: SourceLocation, path: String, name: String, entity: String, objects: Int, unit: String,
        type: String, objectsNoun: String? = nil, optional: Bool = false
    ) {
        let written = "'\(path)' (\(name))"
        if tally.present == 0 {
            var hint: String?
            var typo = false
            if let missed = tally.missedKey, let guess = closestMatch(to: missed, among: tally.keysBeside.sorted()) {
                hint = "did you mean '\(guess)'?"
                typo = true
            } else if tally.missedKey != nil, !tally.keysBeside.isEmpty, tally.keysBeside.count <= InputShape.maxListedKeys {
                // A short list says what the objects are (`{id, type}`: references, not resources);
                // a long one is noise.
                hint = "the objects there hold \(InputShape.listed(tally.keysBeside.sorted()))"
            }
            warnOrNote(
                location, "no record of the sample holds \(written): 0 of \(objectsNoun.map { "\(objects) \($0)" } ?? counted(objects, "\(entity) object"))",
                hint: hint, optional: optional, typo: typo)
            return
        }
        for problem in SampleProblem.allCases {
            guard let failure = tally.failures[problem] else { continue }
            let count = failure.count
            // Out of the values a converter or check saw (nulls are not), else out of those present.
            let total = unit == "element" || problem == .conversion || problem == .check ? tally.tried : tally.present
            let all = count >= total
            let message: String
            switch problem {
            case .missingKey:
                message = "\(written), the key of \(entity), is absent or null in \(count) of \(counted(objects, "\(entity) object"))"
            case .refusedNull:
                message = "\(written) is required but \(count) of \(counted(total, unit)) are null"
            case .lacksRequired:
                message = "\(written) is required but \(count) of \(counted(objects, "\(entity) object")) have no such key"
            case .conversion:
                message =
                    all
                    ? "no \(unit) of \(written) converts to \(type): \(count) of \(total) fail: \(failure.message)"
                    : "\(count) of \(counted(total, unit)) of \(written) do not convert to \(type): \(failure.message)"
            case .check:
                message =
                    all
                    ? "no \(unit) of \(written) passes its checks: \(count) of \(total) fail: \(failure.message)"
                    : "\(count) of \(counted(total, unit)) of \(written) fail its checks: \(failure.message)"
            case .shape:
                message =
                    all
                    ? "no \(unit) of \(written) fits the map: \(count) of \(total) fail: \(failure.message)"
                    : "\(count) of \(counted(total, unit)) of \(written) do not fit the map: \(failure.message)"
            }
            warn(location, message + Self.firstAt(failure), hint: failure.hint)
        }
    }

    /// ` (first: record 3 at line 4, column 1, $[3].user.created_at)`
    static func firstAt(_ failure: SampleFailure) -> String {
        " (first: record \(failure.record) at line \(failure.position.line), column \(failure.position.column), \(failure.path))"
    }

    // MARK: Meta

    /// `meta` lines: a value some document holds and that converts as the map says.
    mutating func meta(captured: [Int: JSONValue]) {
        for (index, field) in plan.meta.enumerated() {
            let written = mapping.meta[index]
            let name = "'\(written.source)' (meta \(field.name))"
            guard let raw = captured[index] else {
                warn(written.pathLocation, "no document of the sample holds \(name)")
                continue
            }
            do throws(ConversionError) {
                _ = try field.metaValue(raw)
            } catch {
                warn(written.pathLocation, "the sample's value of \(name) does not fit the map: \(error.message)", hint: error.hint)
            }
        }
    }

    /// `@root` paths some record had no value at although its document holds one: after the
    /// records, where an import, reading front to back, has not met it yet. `documents`: the
    /// document of each captured value (the last one that held it).
    mutating func rootValuesAfterRecords(documents: [Int: Int]) {
        guard !walker.rootMisses.isEmpty else { return }
        let roots = RootCaptures(mapping: mapping)
        var reported = Set<Int>()
        for entity in mapping.entities {
            let members: [(name: String, sources: [KeyPath], location: SourceLocation)] =
                entity.attributes.map { ($0.name, $0.sources, $0.pathLocation) }
                + entity.relationships.filter { !$0.isToMany }.map { ($0.name, $0.sources, $0.pathLocation) }
            for member in members {
                for path in member.sources where path.components.first == .root {
                    guard let index = roots.byPath[KeyPath(Array(path.components.dropFirst()))]?.index, let document = documents[index],
                        walker.rootMisses[index]?.contains(document) == true, reported.insert(index).inserted
                    else { continue }
                    warn(
                        member.location, "the sample holds '\(path)' (\(entity.name).\(member.name)) only after records that read it",
                        hint: "an import reads the response once, front to back: `@root` values are those that come before the records")
                }
            }
        }
    }

    // MARK: Records

    /// Whether `records` reported a path that matches nothing.
    private var missReported = false

    /// A sample none of whose records the map reads, when no records path was reported as a
    /// miss (it met only `[]` or `null`): nothing of the map was checked against it, which
    /// `--strict` must not pass.
    mutating func noRecords(read count: Int) {
        guard count == 0, !missReported else { return }
        let location = mapping.records.first?.location ?? mapping.entities.first?.location ?? SourceLocation(line: 1, column: 1, offset: 0)
        warn(
            location, "the map reads no record of the sample: it is an empty feed (only empty arrays or null where the records are)",
            hint: "check the map against a sample that holds records")
    }

    /// A `records` line none of whose paths matches anything, described by `describe`; and records
    /// that do not fit their route.
    /// `describe` says, for a route's index, what the sample holds where its path stops matching,
    /// and the path it probably meant; nil when the path is not to be reported.
    mutating func records(describe: (Int) -> (description: String, suggestion: String?)?) {
        var route = 0
        for source in mapping.records {
            let routes = route..<(route + source.paths.count)
            route += source.paths.count
            let matched = routes.reduce(0) { $0 + walker.routes[$1].records }
            if matched == 0 {
                for (offset, (path, location)) in zip(source.paths, source.pathLocations).enumerated() {
                    guard let found = describe(routes.lowerBound + offset) else { continue }
                    missReported = true
                    let message = "records path '\(path)' matches nothing in the sample: \(found.description)"
                    warn(location, message, hint: found.suggestion.map { "did you mean '\($0)'?" })
                }
                continue
            }
            for (offset, index) in routes.enumerated() {
                let tally = walker.routes[index]
                let location = source.choice?.location ?? source.pathLocations[offset]
                for problem in SampleProblem.allCases {
                    guard let failure = tally.failures[problem] else { continue }
                    let written = "'\(source.paths[offset])'"
                    var hint = failure.hint
                    if problem == .conversion, let choice = source.choice {
                        let values = tally.unmatched.joined(separator: ", ")
                        hint = "the sample holds \(choice.discriminator) = \(values) with no case line; add one for each (`… -> ignore` to skip such records)"
                    }
                    warn(
                        location,
                        "\(failure.count) of \(counted(tally.records, "record")) at \(written) do not fit the map: \(failure.message)" + Self.firstAt(failure),
                        hint: hint)
                }
            }
        }
    }
}
