import GraphImportMapping
import GraphImportSchema

/// How one entity is read and stored. A class, so that the record walk reads it without copying.
package final class EntityPlan: Sendable {
    package let name: String
    package let table: String
    /// The map's attributes, then the `extras` attribute when the entity keeps unmapped keys.
    package let attributes: [AttributePlan]
    /// Indexes into `attributes` of the unique key, in key order.
    package let keyAttributes: [Int]
    package let toOne: [ToOnePlan]
    package let toMany: [ToManyPlan]
    /// The attribute that keeps unmapped JSON keys, if any.
    package let extrasAttribute: Int?
    /// Top-level JSON keys the map reads, so that the rest can go to `extras`.
    let mappedKeys: Set<String>
    /// `delete missing [within NAME]`: which objects a complete feed's absence deletes; nil without the line.
    package let deletionScope: DeletionScope?
    /// Whether a path of the entity reads `@parent`.
    let readsParent: Bool
    /// Attributes computed by `derived` templates.
    let derivedAttributes: [Int]
    /// The attributes' names in order, as hooks address them.
    let attributeNames: [String]
    /// `Entity.member` for each attribute, to-one and to-many, as messages name them (made once,
    /// not once per object).
    let attributeMembers: [String]
    let toOneMembers: [String]
    let toManyMembers: [String]
    /// `mode …`: what an import may do to the entity's objects, before a run's `--mode` narrows it.
    package let mode: ImportMode
    /// Polymorphic relationships, checked before their branches (in `toOne`, `toMany`) are read;
    /// empty for most entities.
    let polymorphic: [PolymorphicPlan]
    /// `entity NAME owned`: keyed by its owner's key and its position, added as its last attributes.
    package let isOwned: Bool
    /// Whether a to-many of the entity is stored once, as its inverse to-one's foreign key.
    let storesListsOnce: Bool

    init(
        name: String, table: String, attributes: [AttributePlan], keyAttributes: [Int], toOne: [ToOnePlan], toMany: [ToManyPlan],
        extrasAttribute: Int?, mappedKeys: Set<String>, deletionScope: DeletionScope?, derivedAttributes: [Int], mode: ImportMode = .upsert,
        polymorphic: [PolymorphicPlan] = [], isOwned: Bool = false
    ) {
        self.isOwned = isOwned
        self.mode = mode
        self.polymorphic = polymorphic
        self.name = name
        self.table = table
        self.attributes = attributes
        self.keyAttributes = keyAttributes
        self.toOne = toOne
        self.toMany = toMany
        self.extrasAttribute = extrasAttribute
        self.mappedKeys = mappedKeys
        self.deletionScope = deletionScope
        self.derivedAttributes = derivedAttributes
        readsParent =
            attributes.contains { ($0.path?.readsParent ?? false) || $0.fallbacks.contains(where: \.readsParent) }
            || toOne.contains { $0.path.readsParent || $0.fallbacks.contains(where: \.readsParent) }
        attributeNames = attributes.map(\.name)
        attributeMembers = attributes.map { "\(name).\($0.name)" }
        toOneMembers = toOne.map { "\(name).\($0.name)" }
        toManyMembers = toMany.map { "\(name).\($0.name)" }
        storesListsOnce = toMany.contains { $0.foreignKey != nil }
    }
}

/// Which objects of an entity `delete missing` considers.
package enum DeletionScope: Sendable, Equatable {
    /// Every object of the entity.
    case all
    /// `within NAME`, a to-one of the entity: objects whose target this feed holds.
    case toOne(Int)
    /// `within NAME`, the `inverse` of to-many `toMany` of entity `owner`: objects in the lists
    /// of the owners this feed holds.
    case parentList(owner: Int, toMany: Int)

    init(_ rule: DeletionRule, toOne: [ToOnePlan], entity: String, context: PlanContext) {
        guard let name = rule.scope else {
            self = .all
            return
        }
        if let index = toOne.firstIndex(where: { $0.name == name }) {
            self = .toOne(index)
            return
        }
        // The validator accepts no other name: the inverse of a to-many into this entity.
        for (owner, other) in context.mapping.entities.enumerated() {
            let toManys = other.relationships.filter(\.isToMany)
            if let index = toManys.firstIndex(where: { $0.target == entity && $0.inverse == name }) {
                self = .parentList(owner: owner, toMany: index)
                return
            }
        }
        self = .all
    }
}

/// A value the map states: a literal already coerced to the column's type, the import's time, or its run id.
enum PlanValue: Sendable, Equatable {
    case sql(SQLValue)
    case now
    case run
}

/// An attribute: where it is read, how it is converted and checked, where it is stored.
package final class AttributePlan: Sendable {
    package let name: String
    package let column: String
    package let sourceDescription: String
    /// Where the value is read; nil for an attribute the map computes (default, derived, extras).
    let path: [PathStep]?
    package let type: ValueType
    package let isOptional: Bool
    let converters: [CompiledConverter]
    /// The converters read straight from a slot of the record's table, when the first can be
    /// (see `SlotConversion`); nil when there is no converter or the first needs a `JSONValue`.
    let slotConversion: SlotConversion?
    /// What an explicit JSON null does: store NULL, keep the stored value, reject, or store a value.
    let onNull: NullAction
    /// What a missing key does.
    let onMissing: MissingAction
    let defaultValue: PlanValue?
    let always: PlanValue?
    let onChange: PlanValue?
    let checks: [CompiledCheck]
    let derived: CompiledTemplate?
    /// `<- full_name, name`: the paths after `path`, tried in order; empty for one path.
    let fallbacks: [[PathStep]]
    /// Whether `fallbacks` has paths: a flag, so that the one-path read costs no more than before.
    let readsFallbacks: Bool
    /// With fallbacks: this attribute reading only `path`, then only each fallback, in order. The
    /// path that holds the value is read by its plan, with the same rules, converters and checks.
    let singlePathPlans: [AttributePlan]

    enum NullAction: Sendable, Equatable {
        case store, keep, reject
        case value(SQLValue)
    }

    enum MissingAction: Sendable, Equatable {
        /// Keep the stored value; a new object starts with NULL (`missing keep`, an optional attribute).
        case keep
        /// Keep the stored value; a new object without one is a record error, as Core Data refuses
        /// a nil non-optional at save (a required attribute with a source and no `default`,
        /// `always`, `onchange`, `null keep` or `missing` rule).
        case requiredOnInsert
        /// Refuse the record (`missing reject`).
        case reject
        /// Store this value (`missing null`, `missing LITERAL`).
        case value(SQLValue)
    }

    init(
        name: String, column: String, sourceDescription: String, path: [PathStep]?, type: ValueType, isOptional: Bool,
        converters: [CompiledConverter], onNull: NullAction, onMissing: MissingAction, defaultValue: PlanValue?, always: PlanValue?,
        onChange: PlanValue?, checks: [CompiledCheck], derived: CompiledTemplate?, fallbacks: [[PathStep]] = [],
        slotConversion: SlotConversion? = nil
    ) {
        self.fallbacks = fallbacks
        readsFallbacks = !fallbacks.isEmpty
        singlePathPlans =
            fallbacks.isEmpty
            ? []
            : ([path] + fallbacks).map { single in
                AttributePlan(
                    name: name, column: column, sourceDescription: sourceDescription, path: single, type: type, isOptional: isOptional,
                    converters: converters, onNull: onNull, onMissing: onMissing, defaultValue: defaultValue, always: always,
                    onChange: onChange, checks: checks, derived: derived, slotConversion: slotConversion)
            }
        self.slotConversion = slotConversion
        self.name = name
        self.column = column
        self.sourceDescription = sourceDescription
        self.path = path
        self.type = type
        self.isOptional = isOptional
        self.converters = converters
        self.onNull = onNull
        self.onMissing = onMissing
        self.defaultValue = defaultValue
        self.always = always
        self.onChange = onChange
        self.checks = checks
        self.derived = derived
    }
}

/// A validator with the map's own message, if it gave one.
struct CompiledCheck: Sendable {
    let validate: CompiledValidator
    let message: String?
}

/// A to-one relationship, stored as a foreign-key column of the owner's table.
///
/// A class, as `AttributePlan` is: drafting walks an entity's relationships for every object, and
/// a struct's copy retained each of its texts and paths.
package final class ToOnePlan: Sendable {
    package let name: String
    package let column: String
    package let sourceDescription: String
    let path: [PathStep]
    package let target: Int
    package let isOptional: Bool
    package let deleteRule: DeleteRule
    /// The paths after `path`, tried in order; empty for one path.
    let fallbacks: [[PathStep]]
    /// `where …`: of an array, the first element it holds for is the object.
    let filter: FilterPlan?
    /// `each id` with `where`: where the object, or its key, sits inside the element taken.
    let elementPath: [PathStep]
    /// One path and no `where`: read as before either existed, with nothing to test.
    let isPlain: Bool
    /// `link existing`: a key links only an object that exists; no stub is made.
    let linksExistingOnly: Bool
    /// `unkeyed skip`: an object without its key leaves the link null, counted, instead of refusing the record.
    let skipsUnkeyed: Bool
    /// The target is an owned entity: its object belongs to this one (replaced with it, deleted with it).
    package let ownsTarget: Bool

    init(
        name: String, column: String, sourceDescription: String, path: [PathStep], target: Int, isOptional: Bool, deleteRule: DeleteRule,
        fallbacks: [[PathStep]] = [], filter: FilterPlan? = nil, elementPath: [PathStep] = [], linksExistingOnly: Bool = false,
        skipsUnkeyed: Bool = false, ownsTarget: Bool = false
    ) {
        self.ownsTarget = ownsTarget
        self.linksExistingOnly = linksExistingOnly
        self.skipsUnkeyed = skipsUnkeyed
        self.elementPath = elementPath
        isPlain = fallbacks.isEmpty && filter == nil
        self.fallbacks = fallbacks
        self.filter = filter
        self.name = name
        self.column = column
        self.sourceDescription = sourceDescription
        self.path = path
        self.target = target
        self.isOptional = isOptional
        self.deleteRule = deleteRule
    }
}

/// A to-many relationship, stored as a join table that keeps the feed's order (a class, as
/// `ToOnePlan` is); or, when its target's to-one is its inverse and names it back, as that
/// to-one's foreign key (`foreignKey`): then `joinTable` is the target's table, `ownerColumn`
/// the foreign key and `targetColumn` the row id, which is how the list is read.
package final class ToManyPlan: Sendable {
    package let name: String
    package let owner: Int
    package let joinTable: String
    package let ownerColumn: String
    package let targetColumn: String
    package let sourceDescription: String
    let path: [PathStep]
    /// `each data`: where the object sits inside each element.
    let elementPath: [PathStep]
    /// `team.members{*}`: the elements are the members of the object at `path`, each with its name.
    let isKeyed: Bool
    package let target: Int
    package let deleteRule: DeleteRule
    /// `link` lines: values read from each element and stored in the join table beside
    /// `position`, in this order (empty for most to-manys).
    package let linkAttributes: [AttributePlan]
    /// `Entity.relationship.link` for each link attribute, as messages name them.
    let linkMembers: [String]
    /// The paths after `path`, tried in order; empty for one path.
    let fallbacks: [[PathStep]]
    /// `where …`: only the elements it holds for are linked.
    let filter: FilterPlan?
    /// One path and no `where`: read as before either existed, with nothing to test.
    let isPlain: Bool
    /// `merge`: the feed's targets are added after the stored ones instead of replacing them.
    package let mergesList: Bool
    /// `link existing`: a key links only an object that exists; no stub is made.
    let linksExistingOnly: Bool
    /// `unkeyed skip`: an element without its key (a null, an object without it) is left out and
    /// counted instead of refusing the record.
    let skipsUnkeyed: Bool
    /// The target is an owned entity: its objects belong to this one, in the list's order
    /// (replaced with the list, deleted with the owner).
    package let ownsTarget: Bool
    /// The index of the target's to-one that this to-many is the inverse of, when the two name
    /// each other: the list is stored once, as that to-one's foreign key (no join table, no
    /// order). nil for a to-many with a join table.
    package let foreignKey: Int?
    /// The column of `joinTable` that orders the list: the feed's position, or for a list stored
    /// once (which keeps no order) the targets' row ids.
    package var orderColumn: String { foreignKey == nil ? Naming.position : Naming.primaryKey }

    init(
        name: String, owner: Int, joinTable: String, ownerColumn: String, targetColumn: String, sourceDescription: String,
        path: [PathStep], elementPath: [PathStep], isKeyed: Bool = false, target: Int, deleteRule: DeleteRule,
        linkAttributes: [AttributePlan] = [], ownerName: String = "", fallbacks: [[PathStep]] = [], filter: FilterPlan? = nil,
        mergesList: Bool = false, linksExistingOnly: Bool = false, skipsUnkeyed: Bool = false, ownsTarget: Bool = false,
        foreignKey: Int? = nil
    ) {
        self.foreignKey = foreignKey
        self.ownsTarget = ownsTarget
        self.mergesList = mergesList
        self.linksExistingOnly = linksExistingOnly
        self.skipsUnkeyed = skipsUnkeyed
        self.isKeyed = isKeyed
        self.linkAttributes = linkAttributes
        linkMembers = linkAttributes.map { "\(ownerName).\(name).\($0.name)" }
        isPlain = fallbacks.isEmpty && filter == nil
        self.fallbacks = fallbacks
        self.filter = filter
        self.name = name
        self.owner = owner
        self.joinTable = joinTable
        self.ownerColumn = ownerColumn
        self.targetColumn = targetColumn
        self.sourceDescription = sourceDescription
        self.path = path
        self.elementPath = elementPath
        self.target = target
        self.deleteRule = deleteRule
    }
}

extension EntityPlan {
    static func compile(_ entity: Entity, index owner: Int, context: PlanContext, diagnostics: inout [Diagnostic]) -> EntityPlan {
        let mapping = context.mapping
        let table = context.tables[owner]
        var columns: [String: String] = [
            Naming.primaryKey: "the primary key", Naming.insertedRun: "the run that inserted the object",
            Naming.changedRun: "the run that last changed the object", Naming.stubRun: "the run that made the object a stub",
            Naming.contentDigest: "the digest of what the map read for the object",
        ]
        func claim(_ column: String, for member: String, at location: SourceLocation) {
            if let other = columns[column.lowercased()] {
                let reserved = Naming.engineColumns.contains(column.lowercased())
                diagnostics.append(
                    mapping.diagnostic(.columnClash(member: member, column: column, table: table, usedBy: other, reserved: reserved, at: location)))
            } else {
                columns[column.lowercased()] = "'\(member)'"
            }
        }
        var attributes: [AttributePlan] = []
        for attribute in entity.attributes {
            let column = Naming.column(attribute: attribute.name)
            claim(column, for: attribute.name, at: attribute.location)
            attributes.append(AttributePlan.compile(attribute, column: column, context: context, diagnostics: &diagnostics))
        }
        var extrasAttribute: Int?
        if let extras = entity.extras {
            let column = Naming.column(attribute: extras)
            claim(column, for: extras, at: entity.location)
            extrasAttribute = attributes.count
            attributes.append(
                AttributePlan(
                    name: extras, column: column, sourceDescription: "(unmapped keys)", path: nil, type: .json, isOptional: true,
                    converters: [], onNull: .store, onMissing: .keep, defaultValue: nil, always: nil, onChange: nil, checks: [], derived: nil))
        }
        if entity.isOwned {
            for owned in ownedAttributes(of: entity, mapping: mapping) {
                claim(owned.column, for: owned.name, at: entity.location)
                attributes.append(owned)
            }
        }
        // Templates see the attributes by name; compiled once the list is complete.
        var derivedAttributes: [Int] = []
        for (position, attribute) in entity.attributes.enumerated() {
            guard let template = attribute.derived else { continue }
            do {
                let compiled = try CompiledTemplate(template) { name in
                    attributes.firstIndex { $0.name == name }.map { ($0, attributes[$0].type) }
                }
                attributes[position] = attributes[position].withDerived(compiled)
                derivedAttributes.append(position)
            } catch {
                diagnostics.append(mapping.diagnostic(.refusedArguments(error.message, hint: error.hint, at: template.location)))
            }
        }
        var toOne: [ToOnePlan] = []
        var toMany: [ToManyPlan] = []
        var polymorphic: [PolymorphicPlan] = []
        let branches = entity.relationships.flatMap {
            RelationshipBranch.branches(of: $0, owner: entity.name, indexByName: context.indexByName, polymorphic: &polymorphic)
        }
        for branch in branches {
            let relationship = branch.relationship
            guard let target = context.indexByName[relationship.target] else { continue }  // the parser reported it
            if relationship.isToMany {
                var join = Naming.joinTable(ownerTable: table, relationship: branch.sqlName)
                var (ownerColumn, targetColumn) = Naming.joinColumns(
                    ownerTable: table, targetTable: context.tables[target], relationship: branch.sqlName)
                let foreignKey = ToManyPlan.inverseToOne(of: relationship, owner: entity.name, target: mapping.entities[target])
                if foreignKey != nil, let inverse = relationship.inverse,
                    let toOne = mapping.entities[target].relationships.first(where: { $0.name.lowercased() == inverse.lowercased() })
                {
                    // Stored once: the list is read from the target's table, by its foreign key.
                    (join, ownerColumn, targetColumn) = (context.tables[target], Naming.foreignKey(relationship: toOne.name), Naming.primaryKey)
                }
                let links = ToManyPlan.compileLinks(
                    relationship, joinTable: join, ownerColumn: ownerColumn, targetColumn: targetColumn, context: context,
                    diagnostics: &diagnostics)
                toMany.append(
                    ToManyPlan(
                        name: relationship.name, owner: owner, joinTable: join, ownerColumn: ownerColumn, targetColumn: targetColumn,
                        sourceDescription: relationship.sources.written, path: ImportPlan.steps(relationship.source),
                        elementPath: relationship.elementPath.map(ImportPlan.steps) ?? [],
                        isKeyed: relationship.source.components.last == .anyMember, target: target, deleteRule: relationship.deleteRule,
                        linkAttributes: links, ownerName: entity.name, fallbacks: relationship.fallbackSources.map(ImportPlan.steps),
                        filter: branch.filter, mergesList: relationship.mergesList,
                        linksExistingOnly: relationship.linksExistingOnly, skipsUnkeyed: relationship.unkeyedRule == .skip,
                        ownsTarget: mapping.entities[target].isOwned,
                        foreignKey: foreignKey))
            } else {
                let column = Naming.foreignKey(relationship: branch.sqlName)
                claim(column, for: relationship.name, at: relationship.location)
                toOne.append(
                    ToOnePlan(
                        name: relationship.name, column: column, sourceDescription: relationship.sources.written,
                        path: context.steps(relationship.source), target: target, isOptional: relationship.isOptional,
                        deleteRule: relationship.deleteRule, fallbacks: relationship.fallbackSources.map(context.steps),
                        filter: branch.filter, elementPath: relationship.elementPath.map(ImportPlan.steps) ?? [],
                        linksExistingOnly: relationship.linksExistingOnly, skipsUnkeyed: relationship.unkeyedRule == .skip,
                        ownsTarget: mapping.entities[target].isOwned))
            }
        }
        var mappedKeys = Set<String>()
        for path in entity.attributes.flatMap(\.sources) + entity.relationships.flatMap(\.sources) {
            if case .key(let key)? = path.components.first { mappedKeys.insert(key) }
        }
        var deletionScope: DeletionScope?
        if let deletion = entity.deletion {
            deletionScope = DeletionScope(deletion, toOne: toOne, entity: entity.name, context: context)
        }
        // An owned entity is keyed by its owner's key and its position, the attributes added last.
        let keyAttributes =
            entity.isOwned
            ? Array(entity.attributes.count + (entity.extras == nil ? 0 : 1)..<attributes.count)
            : entity.key.compactMap { name in attributes.firstIndex { $0.name == name } }
        return EntityPlan(
            name: entity.name, table: table, attributes: attributes, keyAttributes: keyAttributes, toOne: toOne, toMany: toMany,
            extrasAttribute: extrasAttribute, mappedKeys: mappedKeys, deletionScope: deletionScope, derivedAttributes: derivedAttributes,
            mode: entity.mode, polymorphic: polymorphic, isOwned: entity.isOwned)
    }
}

extension AttributePlan {
    static func compile(_ attribute: Attribute, column: String, context: PlanContext, diagnostics: inout [Diagnostic]) -> AttributePlan {
        let mapping = context.mapping
        var compiled: [CompiledConverter] = []
        for call in attribute.converters {
            do { compiled.append(try context.converters.compile(call)) } catch {
                diagnostics.append(mapping.diagnostic(.refusedArguments(error.message, hint: error.hint, at: call.location)))
            }
        }
        var checks: [CompiledCheck] = []
        for check in attribute.checks {
            do { checks.append(CompiledCheck(validate: try context.validators.compile(check), message: check.message)) } catch {
                diagnostics.append(mapping.diagnostic(.refusedArguments(error.message, hint: error.hint, at: check.location)))
            }
        }
        func value(_ expression: ValueExpression?) -> PlanValue? {
            guard let expression else { return nil }
            switch expression {
            case .now: return .now
            case .run: return .run
            case .literal(let literal):
                do { return .sql(try literalValue(literal, as: attribute.type, converters: context.converters)) } catch {
                    diagnostics.append(
                        mapping.diagnostic(.literalDoesNotFit(literal, attribute: attribute.name, reason: error.message, at: attribute.location)))
                    return nil
                }
            }
        }
        let onNull: NullAction
        switch attribute.effectiveNullRule {
        case .store: onNull = .store
        case .keep: onNull = .keep
        case .reject: onNull = .reject
        case .value(let literal):
            if case .sql(let sql)? = value(.literal(literal)) { onNull = .value(sql) } else { onNull = .store }
        }
        let onMissing: AttributePlan.MissingAction
        switch attribute.effectiveMissingRule {
        case .keep:
            let required =
                attribute.missingRule == nil && !attribute.isOptional && attribute.source != nil && attribute.derived == nil
                && attribute.defaultValue == nil && attribute.always == nil && attribute.onChange == nil && onNull != .keep
            onMissing = required ? .requiredOnInsert : .keep
        case .null: onMissing = .value(.null)
        case .reject: onMissing = .reject
        case .value(let literal):
            if case .sql(let sql)? = value(.literal(literal)) { onMissing = .value(sql) } else { onMissing = .keep }
        }
        return AttributePlan(
            name: attribute.name, column: column, sourceDescription: attribute.sources.written,
            path: attribute.source.map(context.steps), type: attribute.type, isOptional: attribute.isOptional, converters: compiled,
            onNull: onNull, onMissing: onMissing, defaultValue: value(attribute.defaultValue), always: value(attribute.always),
            onChange: value(attribute.onChange), checks: checks, derived: nil, fallbacks: attribute.fallbackSources.map(context.steps),
            slotConversion: compiled.count == attribute.converters.count
                ? attribute.converters.first.flatMap { context.converters.slotReader($0) }.map {
                    SlotConversion(read: $0, rest: Array(compiled.dropFirst()))
                } : nil)
    }

    /// A copy with its derived template compiled.
    func withDerived(_ template: CompiledTemplate) -> AttributePlan {
        AttributePlan(
            name: name, column: column, sourceDescription: sourceDescription, path: path, type: type, isOptional: isOptional,
            converters: converters, onNull: onNull, onMissing: onMissing, defaultValue: defaultValue, always: always, onChange: onChange,
            checks: checks, derived: template, fallbacks: fallbacks, slotConversion: slotConversion)
    }
}

/// A literal of the map as the column stores it (a date literal is ISO 8601 text).
func literalValue(_ literal: Literal, as type: ValueType, converters: ConverterCatalog) throws(ConversionError) -> SQLValue {
    let value: Value
    switch literal {
    case .string(let text): value = .string(text)
    case .int(let number): value = .int(number)
    case .double(let number): value = .double(number)
    case .bool(let flag): value = .bool(flag)
    }
    // A date literal is written as ISO 8601 text: read as the `iso8601` converter reads it.
    var dateConverter: [CompiledConverter] = []
    if type == .date, case .string = literal {
        dateConverter = [try converters.compile(ConverterCall(name: "iso8601", arguments: [], location: SourceLocation(line: 0, column: 0, offset: 0)))]
    }
    return try ValuePipeline.converted(value, converters: dateConverter, type: type)
}

extension ToManyPlan {
    /// The position, among `target`'s to-ones, of the to-one that names `relationship` (a to-many
    /// of `owner`) as its inverse while `relationship` names it back: the pair is one fact, stored
    /// once as the to-one's foreign key. nil when the to-many has no such partner.
    static func inverseToOne(of relationship: Relationship, owner: String, target: Entity) -> Int? {
        guard let inverse = relationship.inverse?.lowercased(), relationship.choice == nil else { return nil }
        var position = 0
        for other in target.relationships where !other.isToMany {
            if other.name.lowercased() == inverse {
                let pairs = other.target == owner && other.choice == nil && other.inverse?.lowercased() == relationship.name.lowercased()
                return pairs ? position : nil
            }
            // A polymorphic to-one is a to-one per target entity (`RelationshipBranch`).
            position += other.choice?.targets.count ?? 1
        }
        return nil
    }
}
