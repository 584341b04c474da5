extension Validator {
    /// `@parent` and `@root` start the paths of attributes and to-ones only: a to-many's list
    /// belongs to the object that holds it.
    mutating func checkAnchors(of member: MemberSyntax) {
        guard member.isList else { return }
        let paths = (member.path.map { [Located(value: $0, offset: member.pathOffset ?? member.name.offset)] } ?? []) + member.fallbackPaths
        for path in paths where path.value.isAnchored {
            report(.anchorOnToMany(member.name.value, anchor: path.value.anchorName, at: path.offset))
        }
    }

    /// An entity whose paths read `@parent` must be reached by a relationship of the map: a record
    /// has no parent, so `@parent` would never hold a value.
    mutating func checkParentsReached() {
        var reached = Set<String>()
        for entity in syntax.entities {
            for member in entity.members where member.valueType == nil { reached.insert(member.typeName.value) }
        }
        for entity in syntax.entities where !reached.contains(entity.name.value) {
            for member in entity.members {
                let paths = (member.path.map { [Located(value: $0, offset: member.pathOffset ?? member.name.offset)] } ?? []) + member.fallbackPaths
                guard let path = paths.first(where: { $0.value.components.first == .parent }) else { continue }
                report(.parentUnreached(entity.name.value, at: path.offset))
                break
            }
        }
    }

    /// The reader keeps `meta` values whole and does not walk into them for another path: a
    /// `@root` path that a `meta` line's path is nested in would never be kept.
    mutating func checkRootPaths(meta: [MetaField]) {
        for entity in syntax.entities {
            for member in entity.members {
                let paths = (member.path.map { [Located(value: $0, offset: member.pathOffset ?? member.name.offset)] } ?? []) + member.fallbackPaths
                for path in paths where path.value.components.first == .root {
                    let components = Array(path.value.components.dropFirst())
                    guard let field = meta.first(where: { $0.source.components.count > components.count && $0.source.components.starts(with: components) })
                    else { continue }
                    report(.rootPathsNested(path.value.description, other: "meta \(field.name) <- \(field.source)", at: path.offset))
                }
            }
        }
    }

    /// `within NAME` may name the `inverse` of a to-many into `entity` (`Order.lines : [Line]
    /// inverse order`): the scope is then the owners of that to-many.
    func isInverseOfToMany(_ name: String, into entity: String) -> Bool {
        syntax.entities.contains { owner in
            owner.members.contains { $0.isList && $0.typeName.value == entity && $0.inverse?.value == name }
        }
    }

    /// The inverse names of the to-manys into `entity`, for "did you mean".
    func inversesOfToManys(into entity: String) -> [String] {
        syntax.entities.flatMap { owner in
            owner.members.compactMap { $0.isList && $0.typeName.value == entity ? $0.inverse?.value : nil }
        }
    }
}

extension KeyPath {
    /// `@root` or `@parent`, as the map writes the anchor of an anchored path.
    var anchorName: String { components.first == .root ? "@root" : "@parent" }
}
