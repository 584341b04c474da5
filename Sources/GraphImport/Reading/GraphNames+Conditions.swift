import GraphImportSchema

extension GraphNames {
    /// What `name` compares in a condition over `entity`: one of its attributes, or one of its
    /// to-ones compared by the target's key (`author = 7`). `column(table, column)` is the SQL that
    /// reads a stored column, nil when the store does not have it yet (the term is then `NULL`).
    func conditionTerm(_ name: String, of entity: Int, column: (_ table: String, _ column: String) -> String?) throws(GraphError)
        -> ConditionTerm
    {
        let owner = plan.entities[entity]
        let described = "\(owner.name).\(name)"
        if let attribute = owner.attributes.first(where: { $0.name == name }) {
            return ConditionTerm(column: column(owner.table, attribute.column) ?? "NULL", type: attribute.type, described: described)
        }
        if let relationship = owner.toOne.first(where: { $0.name == name }) {
            let target = plan.entities[relationship.target]
            guard target.keyAttributes.count == 1 else {
                throw GraphError(
                    .misuse, "\(described) leads to \(target.name), whose key has several attributes", hint: "compare one of its own attributes instead")
            }
            let key = target.attributes[target.keyAttributes[0]]
            guard let reference = column(owner.table, relationship.column), let keyColumn = column(target.table, key.column) else {
                return ConditionTerm(column: "NULL", type: key.type, described: described)
            }
            return ConditionTerm(column: reference, type: key.type, described: described, target: (quoteIdentifier(target.table), keyColumn))
        }
        if relations[entity].contains(where: { $0.name == name }) {
            throw GraphError(.misuse, "\(described) is a to-many relationship; a condition compares attributes and to-ones")
        }
        throw GraphError.unknown(
            "attribute or to-one relationship", name, in: owner.name, among: owner.attributes.map(\.name) + owner.toOne.map(\.name))
    }
}
