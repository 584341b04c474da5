import GraphImportStore

/// Phase two of a record: writes drafts into the store, inserting, updating or leaving
/// each object alone, and remembers every object it met for the rest of the run.
///
/// An object that repeats across records (the same user on 500 tweets) is looked up in
/// SQLite once; later occurrences are compared against the remembered values.
final class GraphWriter {
    private let plan: ImportPlan
    private let database: Database
    private var objects: [[ObjectKey: KnownObject]]
    private let sql: [EntitySQL]
    /// Prepared INSERT and UPDATE statements per entity, by the set of columns they write.
    private var inserts: [[[Int]: Statement]]
    private var updates: [[[Int]: Statement]]

    init(plan: ImportPlan, database: Database) {
        self.plan = plan
        self.database = database
        objects = Array(repeating: [:], count: plan.entities.count)
        sql = plan.entities.map(EntitySQL.init)
        inserts = Array(repeating: [:], count: plan.entities.count)
        updates = Array(repeating: [:], count: plan.entities.count)
    }

    /// The INSERT for these columns of `entity`, prepared once per run.
    private func insertStatement(_ entity: Int, columns: [Int]) throws(StoreError) -> Statement {
        if let statement = inserts[entity][columns] { return statement }
        let statement = try database.statement(sql[entity].insert(columns: columns))
        inserts[entity][columns] = statement
        return statement
    }

    /// The UPDATE of these columns of `entity`, prepared once per run.
    private func updateStatement(_ entity: Int, columns: [Int]) throws(StoreError) -> Statement {
        if let statement = updates[entity][columns] { return statement }
        let statement = try database.statement(sql[entity].update(columns: columns))
        updates[entity][columns] = statement
        return statement
    }

    /// What happened to the objects of each entity, counted once per object.
    func counts() -> [EntityCounts] {
        objects.map { known in
            var counts = EntityCounts()
            for object in known.values {
                switch object.status {
                case .inserted: counts.inserted += 1
                case .updated: counts.updated += 1
                case .unchanged: counts.unchanged += 1
                case .referenced: break
                }
            }
            return counts
        }
    }

    /// Writes `draft` and its nested objects; returns the object's row id.
    @discardableResult
    func write(_ draft: ObjectDraft) throws(StoreError) -> Int64 {
        let entity = plan.entities[draft.entity]
        let statements = sql[draft.entity]
        var foreignKeys: [SQLValue?] = []
        foreignKeys.reserveCapacity(draft.toOne.count)
        for link in draft.toOne {
            foreignKeys.append(try link.map { link throws(StoreError) in try resolve(link) })
        }
        var lists: [[Int64]?] = []
        for links in draft.toMany {
            guard let links else { lists.append(nil); continue }
            var seen = Set<Int64>()
            var list: [Int64] = []
            for link in links {
                if case .integer(let pk) = try resolve(link), seen.insert(pk).inserted { list.append(pk) }
            }
            lists.append(list)
        }
        // Provided values in column order: attributes, then to-one foreign keys.
        let provided = draft.values + foreignKeys

        guard let object = try find(entity: draft.entity, key: draft.key) else {
            var columns: [Int] = []
            var values: [SQLValue] = []
            for (index, value) in provided.enumerated() {
                if let value { columns.append(index); values.append(value) }
            }
            try insertStatement(draft.entity, columns: columns).run(values)
            let pk = database.lastInsertRowID
            let known = KnownObject(pk: pk, values: provided.map { $0 ?? .null }, status: .inserted)
            for (index, list) in lists.enumerated() {
                guard let list else { continue }
                try writeList(list, owner: pk, relationship: entity.toMany[index])
                known.lists[index] = list
            }
            objects[draft.entity][draft.key] = known
            return pk
        }

        var changedColumns: [Int] = []
        var changedValues: [SQLValue] = []
        for (index, value) in provided.enumerated() {
            if let value, object.values[index] != value {
                changedColumns.append(index)
                changedValues.append(value)
                object.values[index] = value
            }
        }
        var changed = !changedColumns.isEmpty
        if changed {
            changedValues.append(.integer(object.pk))
            try updateStatement(draft.entity, columns: changedColumns).run(changedValues)
        }
        for (index, list) in lists.enumerated() {
            guard let list else { continue }
            let relationship = entity.toMany[index]
            let stored: [Int64]
            if let known = object.lists[index] { stored = known } else { stored = try readList(owner: object.pk, relationship: relationship) }
            if stored != list {
                try database.statement(statements.deleteList[index]).run([.integer(object.pk)])
                try writeList(list, owner: object.pk, relationship: relationship)
                changed = true
            }
            object.lists[index] = list
        }
        switch object.status {
        case .referenced: object.status = changed ? .updated : .unchanged
        case .unchanged where changed: object.status = .updated
        default: break
        }
        return object.pk
    }

    /// The row id a link stands for, writing nested objects and making stubs for unknown keys.
    private func resolve(_ link: LinkDraft) throws(StoreError) -> SQLValue {
        switch link {
        case .null:
            return .null
        case .object(let draft):
            return .integer(try write(draft))
        case .reference(let entity, let key):
            if let object = try find(entity: entity, key: key) { return .integer(object.pk) }
            let keyColumns = plan.entities[entity].keyAttributes
            try insertStatement(entity, columns: keyColumns).run(key.values)
            let pk = database.lastInsertRowID
            let width = plan.entities[entity].attributes.count + plan.entities[entity].toOne.count
            var values = Array(repeating: SQLValue.null, count: width)
            for (position, column) in keyColumns.enumerated() { values[column] = key.values[position] }
            objects[entity][key] = KnownObject(pk: pk, values: values, status: .inserted)
            return .integer(pk)
        }
    }

    /// The object with `key`, from this run's memory or else from the store.
    private func find(entity: Int, key: ObjectKey) throws(StoreError) -> KnownObject? {
        if let known = objects[entity][key] { return known }
        guard let row = try database.statement(sql[entity].selectByKey).firstRow(key.values) else { return nil }
        let known = KnownObject(pk: row[0].integerValue, values: Array(row.dropFirst()), status: .referenced)
        objects[entity][key] = known
        return known
    }

    private func readList(owner: Int64, relationship: ToManyPlan) throws(StoreError) -> [Int64] {
        let index = plan.entities[relationship.owner].toMany.firstIndex { $0.name == relationship.name }!
        return try database.statement(sql[relationship.owner].selectList[index]).rows([.integer(owner)]).map { $0[0].integerValue }
    }

    private func writeList(_ list: [Int64], owner: Int64, relationship: ToManyPlan) throws(StoreError) {
        let index = plan.entities[relationship.owner].toMany.firstIndex { $0.name == relationship.name }!
        let insert = try database.statement(sql[relationship.owner].insertList[index])
        for (position, target) in list.enumerated() {
            try insert.run([.integer(owner), .integer(target), .integer(Int64(position))])
        }
    }
}

/// An object met during this run: its row id, its stored values as now written, and its fate.
final class KnownObject {
    enum Status { case referenced, inserted, updated, unchanged }

    let pk: Int64
    /// Attribute columns, then to-one foreign-key columns.
    var values: [SQLValue]
    /// Per to-many: the target row ids in order, once known.
    var lists: [Int: [Int64]] = [:]
    var status: Status

    init(pk: Int64, values: [SQLValue], status: Status) {
        self.pk = pk
        self.values = values
        self.status = status
    }
}

/// Inserted, updated, unchanged and skipped objects of one entity in one run.
public struct EntityCounts: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Records of this entity dropped under `--skip-invalid`.
    public var skipped = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
    }
}

extension SQLValue {
    var integerValue: Int64 {
        if case .integer(let value) = self { return value }
        return 0
    }
}
