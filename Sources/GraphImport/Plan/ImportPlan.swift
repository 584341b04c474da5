import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// A mapping compiled for importing: SQL names chosen, converters, validators and templates
/// compiled, entities linked by index.
///
/// Built once per run; everything the record walk needs is looked up here by index, never by name.
public struct ImportPlan: Sendable {
    package let mapping: Mapping
    package let entities: [EntityPlan]
    /// Where the records are and which entity each becomes.
    package let routes: [RecordRoute]
    /// The routes that start a choice after an earlier route of their path ended one: the reader
    /// gives them their own records (`ownRecords`).
    package let routesTakingTheirOwnRecords: Set<Int>
    /// Response-level values saved as metadata.
    package let meta: [MetaPlan]
    /// The values `@root` paths read that no `meta` line reads too: the reader keeps them after
    /// the `meta` ones (`captures`).
    package let rootPatterns: [JSONPathPattern]
    /// Whether a path of the map reads `@root`: only then are the response's values handed to the drafts.
    let readsRoot: Bool
    /// The capture indexes `@root` paths start at, each with its path from the document's root (for messages).
    let rootCapturePaths: [Int: JSONPathPattern]
    /// Whether a path of the map reads `@parent`: only then do drafts keep their ancestors.
    let readsParent: Bool
    /// Where every content digest of this map starts (`ContentHasher(seed:)`): the digest's
    /// format and the map's whole text, includes too, so that a digest stored under another map,
    /// or another version of this one, never matches.
    let digestSeed: ContentDigest
    /// Whether a converter the map names is not a built-in one: a library's converter may read
    /// the same bytes differently from one run to the next (its code changed), which no digest
    /// of the bytes would see, so such a map's objects are compared value by value.
    let namesCustomConverters: Bool
    /// Per entity: whether its objects may take a content digest, as far as the map can tell
    /// (`takesDigests`).
    let takesDigests: [Bool]

    /// The patterns of the values the reader keeps: `meta` lines', then those only `@root` reads.
    package var captures: [JSONPathPattern] { meta.map(\.pattern) + rootPatterns }

    /// The tables the store must have.
    package var schema: SchemaDescription { ImportPlan.schema(for: entities) }

    /// How many entities and tables the plan has, the tables worked out: for Fuzz/, a package of
    /// its own that `package` does not reach (`@_spi(Fuzzing) import GraphImport`).
    @_spi(Fuzzing) public var entityAndTableCounts: (entities: Int, tables: Int) { (entities.count, schema.tables.count) }

    /// Parses and compiles a map's text: the one way from a `.map` file to a runnable plan. The
    /// catalogs are given once: the parser checks the map's converter and check names against
    /// their signatures, the plan compiles their functions. Syntax and plan problems alike come
    /// back as `MappingErrors`.
    public static func compile(
        text: String, fileName: String, includes: IncludeResolver = .none, converters: ConverterCatalog = .standard,
        validators: ValidatorCatalog = .standard
    ) throws(MappingErrors) -> ImportPlan {
        let mapping = try MapParser.parse(
            text, fileName: fileName, includes: includes, converters: converters.signatures, validators: validators.signatures)
        return try ImportPlan(mapping: mapping, converters: converters, validators: validators)
    }

    /// Compiles `mapping` (parsed with the same catalogs' signatures; `compile(text:…)` does both); map-level problems (SQL name clashes, bad converter arguments, bad
    /// templates) come back as diagnostics, all at once.
    public init(mapping: Mapping, converters: ConverterCatalog = .standard, validators: ValidatorCatalog = .standard) throws(MappingErrors) {
        var diagnostics: [Diagnostic] = []
        let indexByName = Dictionary(uniqueKeysWithValues: mapping.entities.enumerated().map { ($1.name, $0) })
        let tables = mapping.entities.map { Naming.table(entity: $0.name, explicit: $0.tableName) }
        var seenTables: [String: String] = [:]
        var entities: [EntityPlan] = []
        if mapping.entities.count > ImportLimits.maxEntities {
            let first = mapping.entities[ImportLimits.maxEntities]
            throw MappingErrors([mapping.diagnostic(.tooManyEntities(mapping.entities.count, limit: ImportLimits.maxEntities, at: first.location))])
        }
        let roots = RootCaptures(mapping: mapping)
        let context = PlanContext(
            mapping: mapping, converters: converters, validators: validators, tables: tables, indexByName: indexByName,
            rootCaptures: roots.byPath)
        for (index, entity) in mapping.entities.enumerated() {
            let table = tables[index]
            if let rule = TableName.brokenRule(table) {
                diagnostics.append(mapping.diagnostic(.unusableTableName(table, rule, at: entity.location)))
            }
            let members = entity.attributes.count + entity.relationships.count
            if members > ImportLimits.maxMembersPerEntity {
                diagnostics.append(
                    mapping.diagnostic(.tooManyMembers(entity: entity.name, members, limit: ImportLimits.maxMembersPerEntity, at: entity.location)))
            }
            if let other = seenTables[table.lowercased()] {
                diagnostics.append(mapping.diagnostic(.sharedTable(table, entity: entity.name, other: other, at: entity.location)))
            }
            seenTables[table.lowercased()] = entity.name
            entities.append(EntityPlan.compile(entity, index: index, context: context, diagnostics: &diagnostics))
        }
        for join in entities.flatMap(\.toMany) where join.foreignKey == nil {
            if let other = seenTables[join.joinTable.lowercased()] {
                diagnostics.append(
                    mapping.diagnostic(
                        .joinTableClash(
                            join.joinTable, relationship: "\(mapping.entities[join.owner].name).\(join.name)", other: other,
                            at: mapping.entities[join.owner].location)))
            }
            seenTables[join.joinTable.lowercased()] = "\(mapping.entities[join.owner].name).\(join.name)"
        }
        let meta = mapping.meta.compactMap { MetaPlan.compile($0, context: context, diagnostics: &diagnostics) }
        if !diagnostics.isEmpty { throw MappingErrors(diagnostics.sorted { $0.location < $1.location }) }
        self.mapping = mapping
        self.entities = entities
        self.meta = meta
        rootPatterns = roots.patterns
        readsRoot = !roots.byPath.isEmpty
        rootCapturePaths = roots.pathByIndex
        readsParent = entities.contains { $0.readsParent }
        var seed = ContentHasher()
        seed.add(text: ImportPlan.digestFormat)
        seed.add(text: mapping.textWithIncludes)
        digestSeed = seed.digest
        let calls = mapping.entities.flatMap { entity in
            entity.attributes.flatMap(\.converters) + entity.relationships.flatMap { $0.linkAttributes.flatMap(\.converters) }
        }
        namesCustomConverters = calls.contains { !converters.isBuiltIn($0.name) }
        takesDigests = ImportPlan.takesDigests(entities, namesCustomConverters: namesCustomConverters)
        var routes = mapping.records.flatMap { source in
            source.paths.map { RecordRoute(source: source, path: $0, indexByName: indexByName) }
        }
        for index in routes.indices where routes[index].nullIsNoRecord {
            // `$key` reads nothing there (the path ends at a key): only `$` makes `""` an object.
            if case .entity(let entity) = routes[index].target, entities[entity].readsItsValue { continue }
            routes[index].emptyTextIsNoRecord = true
        }
        // Routes of one path form choices: the first route of a choice takes the record when its
        // `where` holds, else passes it on to the later routes of the choice, which ends at a route
        // without `where`. A route after that end starts a choice of its own, which the reader
        // gives its own record: every line of a path is reached.
        var ownRecords = Set<Int>()
        for index in routes.indices {
            let later = routes.indices.filter { $0 > index && routes[$0].pattern == routes[index].pattern }
            guard routes[index].filter != nil else {
                if let next = later.first { ownRecords.insert(next) }
                continue
            }
            let end = later.firstIndex { routes[$0].filter == nil }
            routes[index].alternatives = end.map { Array(later[...$0]) } ?? later
        }
        self.routes = routes
        routesTakingTheirOwnRecords = ownRecords
    }

    /// The version of what a content digest covers and how it is taken. Change it with any change
    /// to how a draft is made from the same bytes (a converter's result, a coercion, what a
    /// digest hashes): every stored digest then differs once, and each object is compared value
    /// by value and stored with its new digest.
    static let digestFormat = "graphimport content digest 1"

    static func pattern(for path: KeyPath) -> JSONPathPattern {
        JSONPathPattern(
            path.components.map {
                switch $0 {
                case .key(let key): .key(key)
                case .index(let index): .index(index)
                case .anyIndex: .anyIndex
                case .anyIndexOrOne: .anyIndexOrOne
                case .anyMember: .anyMember
                case .memberName: .key("$key")  // the parser refuses `$key` in patterns
                case .elementIndex: .key("$index")  // and `$index`
                case .parent: .key("@parent")  // and `@parent`, `@root`
                case .root: .key("@root")
                }
            })
    }

    static func steps(_ path: KeyPath) -> [PathStep] {
        path.components.compactMap {
            switch $0 {
            case .key(let key): .key(key)
            case .index(let index): .index(index)
            case .anyIndex, .anyIndexOrOne: nil  // the parser rejects [*] outside `records`
            case .anyMember: nil  // only a to-many's last step (its plan says so), or in `records`
            case .memberName: .memberName
            case .elementIndex: .elementIndex
            case .parent: .parent
            case .root: nil  // `PlanContext.steps` gives `@root` paths their capture index
            }
        }
    }
}

/// What the plan compiler needs to see of the whole map.
struct PlanContext {
    let mapping: Mapping
    let converters: ConverterCatalog
    let validators: ValidatorCatalog
    let tables: [String]
    let indexByName: [String: Int]
    /// `@root` paths (without `@root`): the capture they are read in, and the steps inside it (`RootCaptures`).
    var rootCaptures: [KeyPath: (index: Int, rest: KeyPath)] = [:]
}

/// One step of a member's path inside an object.
enum PathStep: Sendable, Hashable {
    case key(String)
    case index(Int)
    /// `$key`: the name of the member a `{*}` took the object from.
    case memberName
    /// `$index`: the position in its array of the element or record the object is.
    case elementIndex
    /// `@parent`: up to the object whose relationship reached this one (only leading steps).
    case parent
    /// `@root.PATH`: the response's value the reader kept at this capture index (only the first
    /// step; the steps after it walk inside that value).
    case root(Int)
}

/// Where records are found and which entity each becomes (`records at … as E`, or `… by kind`).
package struct RecordRoute: Sendable {
    package let pattern: JSONPathPattern
    let target: Target
    /// `missing empty`: an input without this path is an empty feed, not one that does not fit.
    package let mayBeMissing: Bool
    /// `where …`: the records this route takes; the others go to `alternatives`.
    let filter: FilterPlan?
    /// The later routes of the same path, tried in order for a record `filter` does not take.
    var alternatives: [Int] = []
    /// Where in a record's concrete path the name of its member is, when the path takes
    /// records with `{*}` (its last step): what `$key` reads. A path that goes on past its `{*}`
    /// (`users{*}.profile`) takes objects nested in the member, which have no name of their own.
    let memberNameDepth: Int?
    /// Where in a record's concrete path its position in its array is, when the path's last
    /// iteration is `[*]` or `[*?]`: what `$index` reads (0 for a lone object taken by `[*?]`).
    let elementIndexDepth: Int?
    /// Whether a record of this route that is `null` stands for no object and is passed over: its
    /// path ends at a named key (`$[*].b`), where a to-one at the same place (`b : B?`) reads
    /// `null` as no object, and where export writes a to-one without one as `null`.
    let nullIsNoRecord: Bool
    /// The same for `""`, where the route's entity does not read `$` (as a to-one reads `""`).
    var emptyTextIsNoRecord = false

    enum Target: Sendable {
        case entity(Int)
        /// The entity is chosen by the value at `discriminator`.
        case choice(discriminator: [PathStep], description: String, cases: [Case])
    }

    /// `"t3" -> Post at data`, or `"more" -> ignore` (entity nil); value nil for `else`.
    struct Case: Sendable {
        let value: Literal?
        let entity: Int?
        let subpath: [PathStep]
    }

    /// What `$index` reads for `record`: its position in the array its path's last `[*]` or `[*?]`
    /// took it from; nil when the path takes no array's elements.
    func elementIndex(of record: JSONRecord) -> Int? {
        guard let depth = elementIndexDepth else { return nil }
        guard depth < record.path.components.count, case .index(let index) = record.path.components[depth] else {
            return pattern.components[depth] == .anyIndexOrOne ? 0 : nil
        }
        return index
    }

    init(source: RecordSource, path: KeyPath, indexByName: [String: Int]) {
        pattern = ImportPlan.pattern(for: path)
        mayBeMissing = source.mayBeMissing
        filter = source.filter.map(FilterPlan.init)
        memberNameDepth = path.components.last == .anyMember ? path.components.count - 1 : nil
        let lastIteration = path.components.lastIndex { [.anyIndex, .anyIndexOrOne, .anyMember].contains($0) }
        elementIndexDepth = lastIteration.flatMap { path.components[$0] == .anyMember ? nil : $0 }
        nullIsNoRecord =
            switch path.components.last {
            case .key?: true
            default: false
            }
        if let choice = source.choice {
            target = .choice(
                discriminator: ImportPlan.steps(choice.discriminator), description: choice.discriminator.description,
                cases: choice.cases.map { Case(value: $0.value, entity: $0.entity.flatMap { indexByName[$0] }, subpath: ImportPlan.steps($0.subpath)) })
        } else {
            target = .entity(indexByName[source.entity] ?? 0)
        }
    }
}

/// `meta sinceId <- search_metadata.max_id : Int`: a value of the response saved as metadata.
package struct MetaPlan: Sendable {
    package let name: String
    package let pattern: JSONPathPattern
    package let type: ValueType
    package let isOptional: Bool
    let converters: [CompiledConverter]

    static func compile(_ field: MetaField, context: PlanContext, diagnostics: inout [Diagnostic]) -> MetaPlan? {
        if field.type == .data {
            diagnostics.append(context.mapping.diagnostic(.metadataCannotBeData(field.name, at: field.location)))
            return nil
        }
        var compiled: [CompiledConverter] = []
        for call in field.converters {
            do { compiled.append(try context.converters.compile(call)) } catch {
                diagnostics.append(context.mapping.diagnostic(.refusedArguments(error.message, hint: error.hint, at: call.location)))
            }
        }
        return MetaPlan(
            name: field.name, pattern: ImportPlan.pattern(for: field.source), type: field.type, isOptional: field.isOptional,
            converters: compiled)
    }
}
