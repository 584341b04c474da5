import GraphImportSchema
import GraphImportStore

/// The join rows of one to-many in a SQLite store: its statements, and the rows queued to be
/// written many to a statement (`EntitySQL.linksPerInsert`). Every read or deletion of its rows
/// writes the queue first, so no caller can find the table short of a row.
///
/// Its stored properties skip Swift's run-time exclusivity check: they are reached only by this
/// type's methods, and none of them calls another while it holds one.
final class SQLiteJoinRows {
    private let database: Database
    @exclusivity(unchecked) private var select: StatementSlot
    @exclusivity(unchecked) private var delete: StatementSlot
    @exclusivity(unchecked) private var insertOne: StatementSlot
    @exclusivity(unchecked) private var insertMany: StatementSlot
    @exclusivity(unchecked) private var selectHolders: StatementSlot
    /// (owner, target, position) triples back to back, not yet written.
    @exclusivity(unchecked) private var queued: [Int64] = []
    /// The (target, position) rows of the list last read, kept for its capacity.
    @exclusivity(unchecked) private var rows: [(Int64, Int64)] = []
    /// How many link attributes each row carries after its position (0 for most to-manys, whose
    /// rows are queued as integers in `queued`).
    private let width: Int
    /// Rows with link attributes, not yet written: owner, target, position and the link values,
    /// back to back.
    @exclusivity(unchecked) private var queuedRows: [SQLValue] = []

    init(database: Database, sql: EntitySQL, relationship index: Int, linkAttributes: Int = 0) {
        self.database = database
        width = linkAttributes
        select = StatementSlot(sql.selectList[index])
        delete = StatementSlot(sql.deleteList[index])
        insertOne = StatementSlot(sql.insertList[index])
        insertMany = StatementSlot(sql.insertLinks[index])
        selectHolders = StatementSlot(sql.selectToManyHolders[index])
    }

    /// The targets of `owner` in order, and whether they are `expected` (then given back as is).
    func list(of owner: Int64, expecting expected: [Int64]?) throws(StoreError) -> (list: [Int64], isExpected: Bool) {
        try flush()
        try select.statement(database).integerPairs(binding: owner, into: &rows)
        // Insertion sort by position: lists are short, and mostly read in order already.
        for next in rows.indices.dropFirst() {
            var slot = next
            let row = rows[next]
            while slot > 0 && rows[slot - 1].1 > row.1 {
                rows[slot] = rows[slot - 1]
                slot -= 1
            }
            rows[slot] = row
        }
        if let expected, rows.count == expected.count, zip(rows, expected).allSatisfy({ $0.0 == $1 }) { return (expected, true) }
        return (rows.map(\.0), false)
    }

    /// Queues `list` as the rows of `owner`, after deleting those it has when `replacing`.
    func set(_ list: [Int64], of owner: Int64, replacing: Bool) throws(StoreError) {
        if replacing {
            try flush()
            try delete.statement(database).run([.integer(owner)])
        }
        for (position, target) in list.enumerated() {
            queued.append(owner)
            queued.append(target)
            queued.append(Int64(position))
        }
        let batch = EntitySQL.linksPerInsert * 3
        guard queued.count >= batch else { return }
        let insert = try insertMany.statement(database)
        var start = 0
        while queued.count - start >= batch {
            try insert.run(integers: queued[start..<start + batch])
            start += batch
        }
        queued.removeFirst(start)
    }

    /// Writes every queued row.
    func flush() throws(StoreError) {
        if !queuedRows.isEmpty { try flushRows() }
        guard !queued.isEmpty else { return }
        let insert = try insertOne.statement(database)
        for start in stride(from: 0, to: queued.count, by: 3) {
            try insert.run(integers: queued[start..<start + 3])
        }
        queued.removeAll(keepingCapacity: true)
    }

    func discardQueued() {
        queued.removeAll(keepingCapacity: true)
        queuedRows.removeAll(keepingCapacity: true)
    }

    // MARK: Rows with link attributes

    /// The targets of `owner` in order, and their link values (`width` per target, target after target).
    func listWithValues(of owner: Int64) throws(StoreError) -> (list: [Int64], values: [SQLValue]) {
        try flush()
        let found = try select.statement(database).rows([.integer(owner)]).sorted { $0[1].integerValue < $1[1].integerValue }
        var values: [SQLValue] = []
        values.reserveCapacity(found.count * width)
        for row in found { values += row[2...] }
        return (found.map { $0[0].integerValue }, values)
    }

    /// Queues `list` as the rows of `owner` with their link values (`width` per target), after
    /// deleting those it has when `replacing`.
    func set(_ list: [Int64], values: [SQLValue], of owner: Int64, replacing: Bool) throws(StoreError) {
        precondition(values.count == list.count * width, "link values for every target")
        if replacing {
            try flush()
            try delete.statement(database).run([.integer(owner)])
        }
        for (position, target) in list.enumerated() {
            queuedRows += [.integer(owner), .integer(target), .integer(Int64(position))]
            queuedRows += values[(position * width)..<((position + 1) * width)]
        }
        let batch = EntitySQL.linksPerInsert * (3 + width)
        guard queuedRows.count >= batch else { return }
        let insert = try insertMany.statement(database)
        var start = 0
        while queuedRows.count - start >= batch {
            try insert.run(Array(queuedRows[start..<start + batch]))
            start += batch
        }
        queuedRows.removeFirst(start)
    }

    private func flushRows() throws(StoreError) {
        let insert = try insertOne.statement(database)
        let size = 3 + width
        for start in stride(from: 0, to: queuedRows.count, by: size) {
            try insert.run(Array(queuedRows[start..<start + size]))
        }
        queuedRows.removeAll(keepingCapacity: true)
    }

    /// (owner, target) of the rows holding one of `targets`, in the order of `targets`.
    func holders(of targets: [Int64]) throws(StoreError) -> [(pk: Int64, target: Int64)] {
        try flush()
        let statement = try selectHolders.statement(database)
        var found: [(pk: Int64, target: Int64)] = []
        for target in targets {
            for row in try statement.rows([.integer(target)]) { found.append((row[0].integerValue, target)) }
        }
        return found
    }
}
