import GraphImportSchema

/// What the map's templates and the Swift hooks make of an object's values before it is saved,
/// the same on either store: its derived values, the `onInsert` and `beforeSave` hooks. When
/// each applies is `ObjectDecisions`'.
///
/// Values are in column order (attributes first, then any to-one foreign keys): only the
/// entity's attributes are read or set.
struct ObjectValueRules {
    let plan: ImportPlan
    let run: RunContext
    /// Per entity of the plan.
    let hooks: [EntityHooks]

    /// Runs the entity's `onInsert` hook, if it has one, on a new object's values.
    func onInsert(_ entity: Int, _ values: inout [SQLValue?]) {
        guard let hook = hooks[entity].onInsert else { return }
        let plan = self.plan.entities[entity]
        var objectValues = ObjectValues(entity: plan.name, names: plan.attributeNames, values: Array(values.prefix(plan.attributes.count)))
        hook(&objectValues)
        for index in objectValues.values.indices { values[index] = objectValues.values[index] }
    }

    /// Computes the entity's derived attributes from the other values, through their converters and checks.
    func derive(_ entity: Int, _ values: inout [SQLValue?]) throws(WriteError) {
        let plan = self.plan.entities[entity]
        for index in plan.derivedAttributes {
            let attribute = plan.attributes[index]
            guard let template = attribute.derived else { continue }
            let snapshot = values
            let rendered = template.render { snapshot[$0] ?? .null }
            guard case .text(let text) = rendered else {
                values[index] = .null
                continue
            }
            do {
                values[index] = try attribute.storedValue(.string(text))
            } catch {
                throw .invalidDerived(member: "\(plan.name).\(attribute.name)", message: error.message)
            }
        }
    }

    /// Runs the entity's `beforeSave` hook, if it has one, on the object's whole values.
    func checkBeforeSave(_ entity: Int, _ values: [SQLValue?]) throws(WriteError) {
        guard let hook = hooks[entity].beforeSave else { return }
        let plan = self.plan.entities[entity]
        let objectValues = ObjectValues(entity: plan.name, names: plan.attributeNames, values: Array(values.prefix(plan.attributes.count)))
        do { try hook(objectValues) } catch { throw .rejected(member: plan.name, message: error.message) }
    }
}

extension WriteError {
    /// The record error of a refusal found while writing `record` (a derived value, a hook); nil
    /// for a failure that is not the record's (the store's).
    func recordError(for record: DraftedRecord) -> RecordError? {
        switch self {
        case .rejected(let member, let message), .invalidDerived(let member, let message):
            RecordError(
                recordIndex: record.index, position: record.position, path: record.path.description, member: member, message: message,
                hint: refusalHint)
        case .lacksRequired(let error): error
        case .store, .denied: nil
        }
    }
}
