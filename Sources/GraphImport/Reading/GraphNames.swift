import GraphImportSchema

/// The map's names for reading, resolved once per graph: each entity's attributes and
/// relationships, the `inverse` names included, by name. Tables and columns come from the plan
/// (`Naming`), never derived again here.
struct GraphNames {
    /// A relationship as seen from one entity.
    enum Relation: Equatable {
        /// The entity's own to-one, by index.
        case toOne(Int)
        /// The entity's own to-many, by index.
        case toMany(Int)
        /// Another entity's to-one into this one, named by its `inverse`: the objects that point here.
        case inverseToOne(owner: Int, index: Int)
        /// Another entity's to-many into this one, named by its `inverse`: the objects whose list holds this one.
        case inverseToMany(owner: Int, index: Int)
    }

    let plan: ImportPlan
    private let entityIndex: [String: Int]
    private let attributeIndex: [[String: Int]]
    let relations: [[(name: String, relation: Relation)]]

    init(plan: ImportPlan) {
        self.plan = plan
        entityIndex = Dictionary(plan.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        attributeIndex = plan.entities.map { entity in
            Dictionary(entity.attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        // A to-many stored as its inverse to-one's foreign key is read as the objects that point
        // here through that to-one; the pair's `inverse` clauses name each other's own members.
        var relations: [[(name: String, relation: Relation)]] = plan.entities.map { entity in
            entity.toOne.enumerated().map { ($1.name, .toOne($0)) }
                + entity.toMany.enumerated().map { index, toMany in
                    (toMany.name, toMany.foreignKey.map { .inverseToOne(owner: toMany.target, index: $0) } ?? .toMany(index))
                }
        }
        for (owner, entity) in plan.entities.enumerated() {
            let declared = plan.mapping.entities[owner]
            for (index, relationship) in entity.toOne.enumerated() {
                let storedOnce = plan.entities[relationship.target].toMany.contains { $0.target == owner && $0.foreignKey == index }
                if !storedOnce, let inverse = declared.relationship(named: relationship.name)?.inverse {
                    relations[relationship.target].append((inverse, .inverseToOne(owner: owner, index: index)))
                }
            }
            for (index, relationship) in entity.toMany.enumerated() where relationship.foreignKey == nil {
                if let inverse = declared.relationship(named: relationship.name)?.inverse {
                    relations[relationship.target].append((inverse, .inverseToMany(owner: owner, index: index)))
                }
            }
        }
        self.relations = relations
    }

    func entity(_ name: String) throws(GraphError) -> Int {
        if let index = entityIndex[name] { return index }
        throw GraphError.unknown("entity", name, in: "the map \(plan.mapping.fileName)", among: plan.entities.map(\.name))
    }

    func attribute(_ name: String, of entity: Int) throws(GraphError) -> Int {
        if let index = attributeIndex[entity][name] { return index }
        let known = plan.entities[entity].attributes.map(\.name)
        // A relationship's name given where an attribute is wanted: say which it is.
        if relations[entity].contains(where: { $0.name == name }) {
            throw GraphError(
                .misuse, "\(plan.entities[entity].name).\(name) is a relationship, not an attribute", hint: "follow it with related(\"\(name)\")")
        }
        throw GraphError.unknown("attribute", name, in: plan.entities[entity].name, among: known)
    }

    func relation(_ name: String, of entity: Int) throws(GraphError) -> Relation {
        if let found = relations[entity].first(where: { $0.name == name }) { return found.relation }
        if attributeIndex[entity][name] != nil {
            throw GraphError(
                .misuse, "\(plan.entities[entity].name).\(name) is an attribute, not a relationship", hint: "read it with value(\"\(name)\")")
        }
        throw GraphError.unknown("relationship", name, in: plan.entities[entity].name, among: relations[entity].map(\.name))
    }

    /// The entity a relation leads to.
    func target(of relation: Relation, from entity: Int) -> Int {
        switch relation {
        case .toOne(let index): plan.entities[entity].toOne[index].target
        case .toMany(let index): plan.entities[entity].toMany[index].target
        case .inverseToOne(let owner, _), .inverseToMany(let owner, _): owner
        }
    }
}
