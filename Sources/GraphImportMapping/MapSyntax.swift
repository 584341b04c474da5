/// What the parser read, before names are resolved: like the `Mapping` AST, but every name keeps
/// the byte offset of its token so the validator can point at the exact word it rejects.
struct MapSyntax: Sendable {
    var records: [RecordsSyntax] = []
    var entities: [EntitySyntax] = []
    var meta: [MetaSyntax] = []
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

/// `records at PATH {, PATH} [as NAME | by PATH]` and, for `by`, the case lines below it.
struct RecordsSyntax: Sendable {
    var paths: [KeyPath]
    /// Where each path starts.
    var pathOffsets: [Int]
    var entity: Located<String>?
    var offset: Int
    /// The `by` path and the offset of `by`.
    var discriminator: Located<KeyPath>?
    /// `missing empty`: the paths may be absent from a feed that has no records.
    var mayBeMissing = false
    var cases: [CaseSyntax] = []
    /// A case line had a syntax error: "no case lines" would mislead.
    var hasBrokenCase = false
    /// `where CONDITION`: only the records it holds for are taken.
    var filter: FilterSyntax?
}

/// `where PATH OPERATOR …` after the path(s) of a member or a `records` line.
struct FilterSyntax: Sendable {
    /// Where `where` is.
    var offset: Int
    var field: KeyPath
    var test: ElementFilter.Test
}

/// `LITERAL -> ENTITY [at PATH]` or `LITERAL -> ignore`; `else` in place of the literal.
struct CaseSyntax: Sendable {
    /// nil for `else`.
    var value: Located<Literal?>
    /// nil for `ignore`.
    var entity: Located<String>?
    var subpath: KeyPath
}

/// `meta NAME [<- PATH] : TYPE [?] { | converter }`
struct MetaSyntax: Sendable {
    var name: Located<String>
    var path: KeyPath?
    /// Where the path after `<-` starts, when it is written.
    var pathOffset: Int?
    var typeName: Located<String>
    var isList: Bool
    var isOptional: Bool
    var converters: [ConverterSyntax]
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
    /// `extras NAME` lines (more than one is an error).
    var extras: [ExtrasSyntax] = []
    /// `delete missing [within NAME]` lines (more than one is an error).
    var deletions: [DeletionSyntax] = []
    /// `mode insert|update|upsert` lines (more than one is an error).
    var modes: [Located<ImportMode>] = []
    /// `occurrence first|last` lines (more than one is an error).
    var occurrences: [Located<Occurrence>] = []
    /// `entity NAME owned`: where `owned` is written; nil for an entity with a key of its own.
    var owned: Int? = nil
}

/// `extras NAME`
struct ExtrasSyntax: Sendable {
    var name: Located<String>
    var offset: Int
}

/// `delete missing [within NAME]`
struct DeletionSyntax: Sendable {
    var scope: Located<String>?
    var offset: Int
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
    /// Where `<-` is, when it is written.
    var arrowOffset: Int?
    /// Where the path after `<-` starts, when it is written.
    var pathOffset: Int?
    var defaultValue: ClauseSyntax<ValueExpression>?
    var always: ClauseSyntax<ValueExpression>?
    var onChange: ClauseSyntax<ValueExpression>?
    var nullRule: ClauseSyntax<NullRule>?
    var missingRule: ClauseSyntax<MissingRule>?
    var checks: [CheckSyntax] = []
    var derived: ClauseSyntax<TemplateSyntax>?
    var deleteRule: ClauseSyntax<DeleteRule>?
    var elementPath: ClauseSyntax<KeyPath>?
    /// `unkeyed skip | reject`
    var unkeyedRule: ClauseSyntax<UnkeyedRule>?
    /// `link` lines below this member (meaningful below a to-many only; the validator says so).
    var links: [LinkSyntax] = []
    /// `<- full_name, name`: the paths after the first, tried in order, each with where it starts.
    var fallbackPaths: [Located<KeyPath>] = []
    /// `<- referenced_tweets where type = "quoted"`
    var filter: FilterSyntax?
    /// Where the `merge` clause is.
    var merge: Located<String>?
    /// `link existing`: where `link` is.
    var linkExisting: Located<String>?
    /// `(Post | Comment)`, `[Photo | Video]`: the entity names after the first (see `Parser+Polymorphic`).
    var alternatives: [Located<String>] = []
    /// `(Post | Comment)`: the type was written in parentheses.
    var isGroup = false
    /// `by PATH`, and the case lines below the member.
    var choice: ClauseSyntax<KeyPath>?
    var cases: [RelationshipCaseSyntax] = []
    /// A case line below the member had a syntax error: "no case lines" would mislead.
    var hasBrokenCase = false

    /// The built-in type this member names, or nil when it names an entity.
    var valueType: ValueType? { isList ? nil : ValueType(rawValue: typeName.value) }
}

/// `| name` or `| name(arg, …)`
struct ConverterSyntax: Sendable {
    var name: Located<String>
    var arguments: [Located<Literal>]
}

/// A keyword-led clause after a member's type: where its keyword is and the value after it.
struct ClauseSyntax<Value: Sendable & Equatable>: Sendable {
    var keyword: Located<String>
    var value: Located<Value>
}

/// `check NAME [( literal, … )] [STRING]`
struct CheckSyntax: Sendable {
    var call: ConverterSyntax
    var message: String?
    var keywordOffset: Int
}

/// A `derived` template, with the offset of each attribute reference so the validator can point at it.
struct TemplateSyntax: Sendable, Equatable {
    var text: String
    var parts: [TemplatePart]
    var references: [Located<String>]
}

/// `link NAME [<- PATH] : TYPE …`: an attribute of each link of the to-many line above it.
struct LinkSyntax: Sendable {
    /// Where the word `link` is.
    var keywordOffset: Int
    var member: MemberSyntax
}
