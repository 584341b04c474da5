import GraphImportMapping

/// A value of the response's root document that members read (`generatedAt <- @root.meta.generated_at`):
/// the document holds it once, so it is written once, where the map reads it and before the
/// records, when every object that reads it agrees on it (`ExportWalk.writeRootValue`).
struct ExportRootValue: Sendable {
    /// `@root.meta.generated_at`, as the map writes it.
    let written: String
    /// Where it is written in the document.
    let steps: [PathStep]
    /// The attributes and plain to-ones that read it, each of one entity.
    var readers: [Reader]
    /// Attributes that read a value inside it (`@root.repository.id` beside `@root.repository`),
    /// which the value written there must hold.
    var inner: [(reader: Reader, rest: [PathStep])] = []

    /// An entity's attribute or to-one that reads a root value.
    struct Reader: Sendable {
        let entity: Int
        /// `.attribute` or `.toOne`.
        let member: ExportMember
        /// `Issue.generatedAt`.
        let name: String
    }

    /// The root values `plan` reads, placed outermost first, and what cannot be written back.
    /// A value read both whole by a to-one and as an attribute at the same path, or by one
    /// entity and read inside another's attribute of a different kind, is named, not written.
    static func compile(_ plan: ImportPlan) -> (values: [ExportRootValue], caveats: [ExportCaveat]) {
        var found: [(path: KeyPath, reader: Reader)] = []
        for (index, entity) in plan.entities.enumerated() {
            let mapped = plan.mapping.entities[index]
            for (position, attribute) in entity.attributes.enumerated() where position != entity.extrasAttribute {
                guard attribute.path?.readsRoot == true, let source = mapped.attributes.first(where: { $0.name == attribute.name })?.sources.first
                else { continue }
                found.append((source, Reader(entity: index, member: .attribute(position), name: "\(entity.name).\(attribute.name)")))
            }
            for (position, relationship) in entity.toOne.enumerated() where relationship.path.readsRoot {
                guard ExportCompiler.readsRootValue(.toOne(position), of: entity),
                    let source = mapped.relationships.first(where: { $0.name == relationship.name })?.sources.first
                else { continue }
                found.append((source, Reader(entity: index, member: .toOne(position), name: "\(entity.name).\(relationship.name)")))
            }
        }
        var values: [ExportRootValue] = []
        var caveats: [ExportCaveat] = []
        // Outermost first, so that a value read inside another finds that one made.
        let outermostFirst = found.indices.sorted { (found[$0].path.components.count, $0) < (found[$1].path.components.count, $1) }
        for (path, reader) in outermostFirst.map({ found[$0] }) {
            let steps = ExportPlan.steps(KeyPath(Array(path.components.dropFirst())))
            if let same = values.firstIndex(where: { $0.steps == steps }) {
                guard values[same].readers.allSatisfy({ Self.sameKind($0.member, reader.member) }) else {
                    caveats.append(
                        ExportCaveat(
                            member: reader.name,
                            reason: "it reads \(path) as \(values[same].readers[0].name) does, one as an object, one as a value; not written"))
                    continue
                }
                values[same].readers.append(reader)
                continue
            }
            if let outer = values.firstIndex(where: { steps.count > $0.steps.count && steps.starts(with: $0.steps) }) {
                guard case .attribute = reader.member else {
                    caveats.append(ExportCaveat(member: reader.name, reason: "it reads an object inside \(values[outer].written); not written"))
                    continue
                }
                values[outer].inner.append((reader, Array(steps.dropFirst(values[outer].steps.count))))
                continue
            }
            values.append(ExportRootValue(written: path.description, steps: steps, readers: [reader]))
        }
        return (values, caveats)
    }

    private static func sameKind(_ one: ExportMember, _ other: ExportMember) -> Bool {
        switch (one, other) {
        case (.attribute, .attribute), (.toOne, .toOne): true
        default: false
        }
    }
}

extension ExportCompiler {
    /// Whether a member whose path starts at `@root` is written as a root value of the document:
    /// an attribute, or a to-one without a `where` or a choice.
    static func readsRootValue(_ member: ExportMember, of entity: EntityPlan) -> Bool {
        switch member {
        case .attribute: return true
        case .toOne(let index):
            let name = entity.toOne[index].name
            return entity.toOne[index].filter == nil && !entity.polymorphic.contains { $0.name == name }
        default: return false
        }
    }
}
