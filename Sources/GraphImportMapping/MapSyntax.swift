/// What the parser read, before names are resolved: like the `Mapping` AST, but every name keeps
/// the byte offset of its token so the validator can point at the exact word it rejects.
struct MapSyntax: Sendable {
    var records: [RecordsSyntax] = []
    var entities: [EntitySyntax] = []
    /// True when any `entity` line was seen, even one with a syntax error.
    var sawEntityLine = false
    /// Entities whose `entity` line named them but then had a syntax error: references to them
    /// are not reported again.
    var brokenEntityNames: Set<String> = []
}

/// A name or value and the offset of the token it came from.
struct Located<Value: Sendable & Equatable>: Sendable, Equatable {
    var value: Value
    var offset: Int
}

/// `records at PATH {, PATH} [as NAME]`
struct RecordsSyntax: Sendable {
    var paths: [KeyPath]
    var entity: Located<String>?
    var offset: Int
}

/// `entity NAME [table NAME]` and the member and key lines below it.
struct EntitySyntax: Sendable {
    var name: Located<String>
    var table: Located<String>?
    var keys: [KeySyntax] = []
    var members: [MemberSyntax] = []
    /// Members and key lines that had a syntax error, so the validator does not add a second,
    /// misleading error about them (a missing key, a key naming an unknown attribute).
    var brokenMemberNames: Set<String> = []
    var hasBrokenKeyLine = false
}

/// `key NAME {, NAME}`
struct KeySyntax: Sendable {
    var names: [Located<String>]
    var offset: Int
}

/// `NAME [<- PATH] : TYPE`: an attribute or a relationship, told apart by the type's name.
struct MemberSyntax: Sendable {
    var name: Located<String>
    /// nil for the shorthand `id : Int`, whose path is the name.
    var path: KeyPath?
    var typeName: Located<String>
    /// `[Entity]`
    var isList: Bool
    var isOptional: Bool
    var converters: [ConverterSyntax]
    var inverse: Located<String>?

    /// The built-in type this member names, or nil when it names an entity.
    var valueType: ValueType? { isList ? nil : ValueType(rawValue: typeName.value) }
}

/// `| name` or `| name(arg, …)`
struct ConverterSyntax: Sendable {
    var name: Located<String>
    var arguments: [Located<Literal>]
}
