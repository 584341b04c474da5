/// A parsed and validated `.map` file: where the records are and how each entity is built.
public struct Mapping: Sendable {
    /// The name the map was read from, as used in diagnostics (`Mappings/tweets.map`).
    package var fileName: String
    /// Where the records sit in the feed; never empty after validation
    /// (a map without a `records` line gets `records at $[*] as <first entity>`).
    package var records: [RecordSource]
    /// Entities in declaration order.
    package var entities: [Entity]
    /// How many records lines and entities the map has: for Fuzz/, a package of its own that
    /// `package` does not reach (`@_spi(Fuzzing) import GraphImportMapping`).
    @_spi(Fuzzing) public var recordsAndEntityCounts: (records: Int, entities: Int) { (records.count, entities.count) }
    /// `meta` lines in declaration order: values read once per document, from its root.
    package var meta: [MetaField]
    /// The map's text, so that later stages can quote a line in a diagnostic.
    package var source: String
    /// The files the map includes, directly or not, in the order they were first included.
    package var includedFiles: [MapFile] = []
    /// With includes, the text of every file spliced as the parser read it, to place a location in its file.
    var splicedText: SourceText?

    package init(fileName: String, records: [RecordSource], entities: [Entity], meta: [MetaField] = [], source: String = "") {
        self.fileName = fileName
        self.records = records
        self.entities = entities
        self.meta = meta
        self.source = source
    }

    /// A diagnostic at `location` in this map, quoting its source line.
    package func diagnostic(
        at location: SourceLocation, _ message: String, hint: String? = nil, severity: Diagnostic.Severity = .error
    ) -> Diagnostic {
        if let splicedText {
            return splicedText.diagnostic(at: location.offset, fileName: fileName, message: message, hint: hint, severity: severity)
        }
        // Lines are counted at "\n" bytes, as the parser counts them ("\r\n" is one Character).
        let line = SourceText(source).line(location.line)
        return Diagnostic(fileName: fileName, location: location, message: message, hint: hint, sourceLine: line, severity: severity)
    }

    /// The map's text followed by that of each file it includes, under a comment line naming it:
    /// what the store records as the map, and hashes, so that a change in an included file is a
    /// change of the map. Just the map's text when it includes nothing.
    package var textWithIncludes: String {
        includedFiles.reduce(source) { text, file in
            text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + "# included: \(file.name)\n" + file.text
        }
    }

    /// The entity with exactly this name.
    package func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}

/// `records at statuses[*], data.children[*].data as Tweet`, or `records at data.children[*] by kind`
/// and its case lines.
package struct RecordSource: Sendable, Equatable {
    /// One or more paths into the document; `$` is the whole document, `$[*]` each element of a top-level array.
    package var paths: [KeyPath]
    /// The entity each record becomes; with `by`, the first case's entity ("" when every case is `ignore`).
    package var entity: String
    package var location: SourceLocation
    /// The `by` form: each record's entity is chosen by a value inside it; nil for the `as` form.
    package var choice: RecordChoice?
    /// Where each of `paths` is written, for diagnostics about one path (the line's location for
    /// the default `$[*]`).
    package var pathLocations: [SourceLocation]
    /// `missing empty`: a feed that leaves these paths out has no records (an empty feed), instead
    /// of not fitting the map.
    package var mayBeMissing: Bool
    /// `where CONDITION`: only the records it holds for are taken by this line; a record no line
    /// of its path takes is passed over, counted as ignored.
    package var filter: ElementFilter?

    package init(
        paths: [KeyPath], entity: String, location: SourceLocation, choice: RecordChoice? = nil, pathLocations: [SourceLocation]? = nil,
        mayBeMissing: Bool = false, filter: ElementFilter? = nil
    ) {
        self.filter = filter
        self.paths = paths
        self.entity = entity
        self.location = location
        self.choice = choice
        self.pathLocations = pathLocations ?? Array(repeating: location, count: paths.count)
        self.mayBeMissing = mayBeMissing
    }
}

/// `entity Tweet table tweets` and the lines indented below it.
package struct Entity: Sendable, Equatable {
    package var name: String
    /// The table name when the map states one (`table tweets`); nil means the engine's naming rule.
    package var tableName: String?
    /// Names of the attributes that together identify an object (`key id`, `key owner, name`).
    package var key: [String]
    package var attributes: [Attribute]
    package var relationships: [Relationship]
    package var location: SourceLocation
    /// `extras NAME`: a JSON attribute that keeps every top-level key of the object the map does not name.
    package var extras: String?
    /// `delete missing [within RELATIONSHIP]`: objects a complete feed no longer contains are deleted.
    package var deletion: DeletionRule?
    /// `mode insert|update|upsert`: what an import may do to the entity's objects (upsert when unsaid).
    package var mode: ImportMode = .upsert
    /// `occurrence first|last`: which occurrence of an object wins in a run (the last when unsaid).
    package var occurrence: Occurrence = .last
    /// `entity NAME owned`: no key of its own; each object belongs to the one object that holds
    /// it, identified by that owner and its position in the owner's list.
    package var isOwned = false

    package init(
        name: String, tableName: String?, key: [String], attributes: [Attribute], relationships: [Relationship],
        location: SourceLocation, extras: String? = nil, deletion: DeletionRule? = nil, mode: ImportMode = .upsert
    ) {
        self.mode = mode
        self.name = name
        self.tableName = tableName
        self.key = key
        self.attributes = attributes
        self.relationships = relationships
        self.location = location
        self.extras = extras
        self.deletion = deletion
    }

    package func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
    package func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
}

/// A path into a JSON object, relative to the object being mapped (or to the document for `records`).
/// Written `id`, `user.screen_name`, `geometry.coordinates[1]`, `data.children[*].data`, `$`, `"odd key".x`.
package struct KeyPath: Sendable, Equatable, Hashable, CustomStringConvertible {
    package enum Component: Sendable, Equatable, Hashable {
        case key(String)
        case index(Int)
        /// `[*]`: every element; allowed only in `records` paths.
        case anyIndex
        /// `[*?]`: every element of an array, or a lone object as the one element; only as the
        /// last step of a `records` path.
        case anyIndexOrOne
        /// `{*}`: every member of an object, in document order; in `records` paths, and as the
        /// last step of a to-many's path.
        case anyMember
        /// `$key`: the name of the member a keyed iteration (`{*}`) took the object from; only
        /// as the whole path of an attribute.
        case memberName
        /// `$index`: the 0-based position in its array of the element or record the object is;
        /// only as the whole path of an attribute.
        case elementIndex
        /// `@parent`: the object whose relationship reached this one (repeated, its parent);
        /// only at the start of an attribute's or a to-one's path.
        case parent
        /// `@root`: the response's root document; only at the start of an attribute's or a
        /// to-one's path.
        case root
    }

    /// Whether the path is `$key`.
    package var isMemberName: Bool { components == [.memberName] }

    /// Whether the path is `$index`.
    package var isElementIndex: Bool { components == [.elementIndex] }

    /// Whether the path starts at `@parent` or `@root` rather than at the object being mapped.
    package var isAnchored: Bool { components.first == .parent || components.first == .root }

    package var components: [Component]

    package init(_ components: [Component]) { self.components = components }

    /// The path as it would be written in a map (`user.screen_name`, `$` when empty), so that
    /// parsing the description gives the same path back.
    package var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for (position, component) in components.enumerated() {
            switch component {
            case .key(let key):
                // A key spelled like an anchor is quoted where the anchor would be read.
                let afterParents = position > 0 && components[..<position].allSatisfy { $0 == .parent }
                let anchorLike =
                    (key == "@parent" || key == "@root") && (text.isEmpty || (key == "@parent" && afterParents)) || (key == "$key" && afterParents)
                if anchorLike {
                    text += (text.isEmpty ? "" : ".") + "\"\(key)\""
                    continue
                }
                text += text.isEmpty ? KeyPath.written(key, first: true) : "." + KeyPath.written(key, first: false)
            case .index(let index): text += (text.isEmpty ? "$" : "") + "[\(index)]"
            case .anyIndex: text += (text.isEmpty ? "$" : "") + "[*]"
            case .anyIndexOrOne: text += (text.isEmpty ? "$" : "") + "[*?]"
            case .anyMember: text += (text.isEmpty ? "$" : "") + "{*}"
            case .memberName: text += text.isEmpty ? "$key" : ".$key"
            case .elementIndex: text += "$index"
            case .parent: text += text.isEmpty ? "@parent" : ".@parent"
            case .root: text += "@root"
            }
        }
        return text
    }

    /// A key as a map writes it: plain when it is `[A-Za-z0-9_@-]` (and `$` after the first
    /// character), quoted with escapes otherwise.
    static func written(_ key: String, first: Bool) -> String {
        let plain =
            !key.isEmpty && !(first && key.hasPrefix("$"))
            && key.unicodeScalars.allSatisfy { $0.isASCII && ASCII.isPathKey(UInt8($0.value)) }
        if plain { return key }
        var text = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

/// The value types an attribute can have.
public enum ValueType: String, Sendable, Equatable, CaseIterable {
    case string = "String"
    /// 64-bit, exact.
    case int = "Int"
    case double = "Double"
    case bool = "Bool"
    case date = "Date"
    case url = "URL"
    /// Bytes, given in the JSON as base64 text.
    case data = "Data"
    /// Any JSON value, stored as its JSON text.
    case json = "JSON"
}

/// `createdAt <- created_at : Date | date("EEE MMM dd HH:mm:ss Z yyyy")`, `lastSeenAt : Date always now`
package struct Attribute: Sendable, Equatable {
    package var name: String
    /// Where the JSON value is read. nil when the attribute has no JSON source: no `<-` and a
    /// `default`, `always`, `onchange` or `derived` clause (otherwise the shorthand's path is the name).
    package var source: KeyPath?
    package var type: ValueType
    /// `Date?`: the value may be null. A required attribute rejects an explicit null.
    package var isOptional: Bool
    /// Applied left to right to the JSON value before it is checked against `type`.
    package var converters: [ConverterCall]
    package var location: SourceLocation
    /// `default VALUE`: set when the object is inserted; an update never resets it.
    package var defaultValue: ValueExpression?
    /// `always VALUE`: set on every import that touches the object.
    package var always: ValueExpression?
    /// `onchange VALUE`: set when the object is inserted or one of its values actually changes.
    package var onChange: ValueExpression?
    /// `null …` as written; nil means the default (`effectiveNullRule`).
    package var nullRule: NullRule?
    /// `missing …` as written; nil means the default (`effectiveMissingRule`).
    package var missingRule: MissingRule?
    /// `check …` clauses in the order written; the value must pass them all.
    package var checks: [Check]
    /// `derived "template"`: the value is built from other attributes of the same object.
    package var derived: Template?
    /// Where `source` is written: after `<-`, or the name itself for the shorthand `id : Int`.
    package var pathLocation: SourceLocation
    /// `<- full_name, name`: the paths after `source`, tried in order when the ones before hold
    /// no value (absent or null); empty for a single path.
    package var fallbackSources: [KeyPath]

    package init(
        name: String, source: KeyPath?, type: ValueType, isOptional: Bool, converters: [ConverterCall], location: SourceLocation,
        defaultValue: ValueExpression? = nil, always: ValueExpression? = nil, onChange: ValueExpression? = nil,
        nullRule: NullRule? = nil, missingRule: MissingRule? = nil, checks: [Check] = [], derived: Template? = nil,
        pathLocation: SourceLocation? = nil, fallbackSources: [KeyPath] = []
    ) {
        self.fallbackSources = fallbackSources
        self.pathLocation = pathLocation ?? location
        self.name = name
        self.source = source
        self.type = type
        self.isOptional = isOptional
        self.converters = converters
        self.location = location
        self.defaultValue = defaultValue
        self.always = always
        self.onChange = onChange
        self.nullRule = nullRule
        self.missingRule = missingRule
        self.checks = checks
        self.derived = derived
    }

    /// What an explicit JSON null does: the written rule, else store for `T?` and reject for `T`.
    package var effectiveNullRule: NullRule { nullRule ?? (isOptional ? .store : .reject) }

    /// What an absent key does: the written rule, else keep the stored value.
    package var effectiveMissingRule: MissingRule { missingRule ?? .keep }

    /// `source` and its fallbacks, in the order they are tried (empty without a source).
    package var sources: [KeyPath] { source.map { [$0] + fallbackSources } ?? [] }
}

/// `| date("EEE MMM dd HH:mm:ss Z yyyy")`, `| lowercase`
package struct ConverterCall: Sendable, Equatable {
    package var name: String
    package var arguments: [Literal]
    package var location: SourceLocation

    package init(name: String, arguments: [Literal], location: SourceLocation) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }
}

/// A literal written in a map.
public enum Literal: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)

    public var kind: LiteralKind {
        switch self {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        }
    }

    public var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        }
    }
}

public enum LiteralKind: String, Sendable, Equatable {
    case string, int, double, bool
}

/// `author <- user : User inverse tweets`, `hashtags <- entities.hashtags : [Hashtag] inverse tweets`
///
/// The JSON at `source` may be an object (a nested object, upserted by the target's own mapping)
/// or a scalar (the target's key value: a link to that object, creating a stub when it is new);
/// for a to-many, an array of either.
package struct Relationship: Sendable, Equatable {
    package var name: String
    package var source: KeyPath
    /// The target entity's name.
    package var target: String
    package var isToMany: Bool
    /// `User?`: may be null or missing. To-many relationships are always optional.
    package var isOptional: Bool
    /// The name of the relationship as seen from the target (`User.tweets`).
    package var inverse: String?
    package var location: SourceLocation
    /// `delete …`: what happens to this object when the target object is deleted.
    package var deleteRule: DeleteRule
    /// `each SUBPATH` (a to-many, or a to-one with `where`): where the object, or its key, sits
    /// inside each array element.
    package var elementPath: KeyPath?
    /// Where `source` is written: after `<-`, or the name itself for the shorthand `author : User`.
    package var pathLocation: SourceLocation
    /// `link NAME [<- path] : Type` lines below a to-many: data about each link (a mention's
    /// offsets, a membership's role), read from each array element and stored in the join table.
    package var linkAttributes: [Attribute]
    /// `<- items, items_ids`: the paths after `source`, tried in order when the ones before hold
    /// no value (absent or null); empty for a single path.
    package var fallbackSources: [KeyPath]
    /// `where type = "quoted"`: only the elements it holds for are linked. For a to-one whose
    /// JSON is an array, the first element it holds for.
    package var filter: ElementFilter?
    /// `merge` (a to-many): the feed's targets are added to those stored, not put in their place.
    package var mergesList = false
    /// `link existing`: a key links only an object already stored or met in the run; no stub is made.
    package var linksExistingOnly = false
    /// `: (Post | Comment) by $` and its case lines: each element's entity is chosen by a value in
    /// it, among `choice.targets`; nil for a relationship to one entity (`target`, which is
    /// otherwise the first of the targets).
    package var choice: RelationshipChoice?
    /// `unkeyed skip`: an element without its key is left out and counted instead of refusing the record.
    package var unkeyedRule: UnkeyedRule

    package init(
        name: String, source: KeyPath, target: String, isToMany: Bool, isOptional: Bool, inverse: String?,
        location: SourceLocation, deleteRule: DeleteRule = .nullify, elementPath: KeyPath? = nil, pathLocation: SourceLocation? = nil,
        linkAttributes: [Attribute] = [], fallbackSources: [KeyPath] = [], filter: ElementFilter? = nil, choice: RelationshipChoice? = nil,
        unkeyedRule: UnkeyedRule = .reject
    ) {
        self.choice = choice
        self.unkeyedRule = unkeyedRule
        self.fallbackSources = fallbackSources
        self.filter = filter
        self.pathLocation = pathLocation ?? location
        self.linkAttributes = linkAttributes
        self.name = name
        self.source = source
        self.target = target
        self.isToMany = isToMany
        self.isOptional = isOptional
        self.inverse = inverse
        self.location = location
        self.deleteRule = deleteRule
        self.elementPath = elementPath
    }

    /// `source` and its fallbacks, in the order they are tried.
    package var sources: [KeyPath] { [source] + fallbackSources }

    /// The entities the relationship may link to: the choice's targets, else `target`.
    package var targets: [String] { choice?.targets ?? [target] }
}

extension [KeyPath] {
    /// The paths as a map writes them after `<-` (`full_name, name`).
    package var written: String { map(\.description).joined(separator: ", ") }
}

/// A converter (or a `check` validator) the engine offers, so the parser can check names and
/// arguments without knowing what they do.
public struct ConverterSignature: Sendable, Equatable {
    public var name: String
    /// Parameter kinds in order; an `.int` parameter also accepts nothing else, a `.double` accepts an int.
    public var parameters: [LiteralKind]
    /// How many leading parameters must be given (the rest are optional).
    public var requiredCount: Int
    /// One line for `graphimport check --converters` and "did you mean" hints.
    public var summary: String
    /// The last parameter kind repeats: any number of arguments from `requiredCount` on (`oneOf(v, …)`).
    public var isVariadic: Bool

    public init(name: String, parameters: [LiteralKind], requiredCount: Int? = nil, summary: String, isVariadic: Bool = false) {
        self.name = name
        self.parameters = parameters
        self.requiredCount = requiredCount ?? parameters.count
        self.summary = summary
        self.isVariadic = isVariadic
    }

    /// The kind expected for the argument at `index`, or nil when there is no such parameter.
    func parameter(at index: Int) -> LiteralKind? {
        if index < parameters.count { return parameters[index] }
        return isVariadic ? parameters.last : nil
    }
}

/// A position in a map: 1-based line and column (in Unicode scalars), and the 0-based UTF-8 offset.
/// In a map that includes files, line and column are in the file the position is in, and the
/// offset is into the text of all the files spliced (which orders positions across files).
public struct SourceLocation: Sendable, Equatable, Hashable, Comparable {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool { lhs.offset < rhs.offset }
}
