/// Where an entity's values lie in the arrays the writer and its store pass between them, and
/// which of them tell whether an object changed. Built once per run from the plan.
///
/// Column indexes count the attributes, then the to-one foreign keys (`KnownObject.values`),
/// then `inserted_run`, `changed_run`, `stub_run` and `content_digest`. A class: the writer reads it for every object, and
/// copying a struct of sets and arrays cost a retain and a release of each.
final class EntityColumns {
    /// How many values an object has: attributes, then to-one foreign keys.
    let valueCount: Int
    /// Attributes set on every import (`always`), left out when telling changed from unchanged.
    let always: Set<Int>
    /// Attributes set when an object changes (`onchange`): left out when telling changed from
    /// unchanged, and put back with `changed_run` when a run's changes cancel out.
    let onChange: [Int]
    /// Columns that do not tell whether an object changed: `always` and `onchange` values.
    let unchanging: Set<Int>

    /// The column index of `inserted_run`.
    var insertedRun: Int { valueCount }
    /// The column index of `changed_run`.
    var changedRun: Int { valueCount + 1 }
    /// The column index of `stub_run`.
    var stubRun: Int { valueCount + 2 }
    /// The column index of `content_digest`.
    var contentDigest: Int { valueCount + 3 }

    init(_ entity: EntityPlan) {
        valueCount = entity.attributes.count + entity.toOne.count
        always = Set(entity.attributes.indices.filter { entity.attributes[$0].always != nil })
        onChange = entity.attributes.indices.filter { entity.attributes[$0].onChange != nil }
        unchanging = always.union(onChange)
    }
}
