import GraphImportPostgres
import GraphImportSchema

/// A to-one read beside the rows a probe finds: the key of the row its foreign key points at.
package struct ProbedToOne: Sendable {
    package let foreignKey: String
    package let targetTable: String
    package let targetKeyColumns: [String]
    /// The primary key's column of the target table.
    package let primaryKey: String

    package init(foreignKey: String, targetTable: String, targetKeyColumns: [String], primaryKey: String) {
        self.foreignKey = foreignKey
        self.targetTable = targetTable
        self.targetKeyColumns = targetKeyColumns
        self.primaryKey = primaryKey
    }
}

/// A to-many read for the rows a probe finds: its targets' keys and link values, in `position` order.
package struct ProbedToMany: Sendable {
    package let joinTable: String
    package let ownerColumn: String
    package let targetColumn: String
    package let positionColumn: String
    package let linkColumns: [String]
    package let targetTable: String
    package let targetKeyColumns: [String]
    /// The primary key's column of the owner's and the target's tables.
    package let primaryKey: String

    package init(
        joinTable: String, ownerColumn: String, targetColumn: String, positionColumn: String, linkColumns: [String], targetTable: String,
        targetKeyColumns: [String], primaryKey: String
    ) {
        self.joinTable = joinTable
        self.ownerColumn = ownerColumn
        self.targetColumn = targetColumn
        self.positionColumn = positionColumn
        self.linkColumns = linkColumns
        self.targetTable = targetTable
        self.targetKeyColumns = targetKeyColumns
        self.primaryKey = primaryKey
    }
}

extension PostgresKeyProbe {
    /// The statement that reads `columns` of the rows holding the staged keys, each row after its
    /// key's place, then per to-one its target's key (NULLs for none).
    package func rowsStatement(columns: [String], toOne: [ProbedToOne] = []) -> String {
        var read = ["p.\(quoteIdentifier(PostgresUpsert.ordinalColumn))"] + columns.map { "t.\(quoteIdentifier($0))" }
        var joins = ""
        for (index, link) in toOne.enumerated() {
            read += link.targetKeyColumns.map { "o\(index).\(quoteIdentifier($0))" }
            joins +=
                " LEFT JOIN \(quoteIdentifier(link.targetTable)) o\(index) ON o\(index).\(quoteIdentifier(link.primaryKey)) = t.\(quoteIdentifier(link.foreignKey))"
        }
        return "SELECT \(read.joined(separator: ", ")) FROM \(quoteIdentifier(stagingTable)) p JOIN \(quoteIdentifier(table)) t ON \(keyMatch)"
            + joins
    }

    /// The statement that reads the join rows of the rows the rows statement found (their places
    /// and row ids staged in `ownersTable`): their key's place, the target's key and the link
    /// values, in the key's and then `position` order. It joins the join table by the owners' row
    /// ids: finding the rows by key again was half of each list read (Benchmarks/README, session 17).
    package func listStatement(_ toMany: ProbedToMany) -> String {
        let ordinal = quoteIdentifier(PostgresUpsert.ordinalColumn)
        let read = ["o.\(ordinal)"] + toMany.targetKeyColumns.map { "g.\(quoteIdentifier($0))" } + toMany.linkColumns.map { "j.\(quoteIdentifier($0))" }
        let pk = quoteIdentifier(toMany.primaryKey)
        return "SELECT \(read.joined(separator: ", ")) FROM \(quoteIdentifier(ownersTable)) o "
            + "JOIN \(quoteIdentifier(toMany.joinTable)) j ON j.\(quoteIdentifier(toMany.ownerColumn)) = o.\(quoteIdentifier(Self.ownerRowIDColumn)) "
            + "JOIN \(quoteIdentifier(toMany.targetTable)) g ON g.\(pk) = j.\(quoteIdentifier(toMany.targetColumn)) "
            + "ORDER BY o.\(ordinal), j.\(quoteIdentifier(toMany.positionColumn))"
    }

    /// The temporary table of the rows a probe found, for its list reads: each row's key's place and row id.
    package var ownersTable: String { stagingName("graphimport_owners_", keyColumns, table: table) }
    static let ownerRowIDColumn = "graphimport_row_id"

    /// The owners table, empty (made once, dropped at commit).
    package var emptyOwners: String {
        "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(ownersTable)) (\(quoteIdentifier(PostgresUpsert.ordinalColumn)) bigint, "
            + "\(quoteIdentifier(Self.ownerRowIDColumn)) bigint) ON COMMIT DROP; TRUNCATE \(quoteIdentifier(ownersTable))"
    }

    /// The rows that hold some of `keys` (key after key), with their to-ones' targets' keys
    /// (`rowsStatement`), and per to-many its join rows (`listStatement`): each row's first
    /// column is its key's place in `keys`. One COPY, one query for the rows and one per to-many,
    /// whatever the number of keys (with to-manys, one COPY more: the places and row ids of the
    /// rows found, `rowID` the place of the row id in `columns`); the rows are kept as the server
    /// sent them (nil: no keys). `listsOf` says which rows found have their lists read (by the
    /// rows and a row's index in them): all unless it says otherwise.
    package func objects(
        of keys: [SQLValue], columns: [String], rowID: Int, toOne: [ProbedToOne], toMany: [ProbedToMany], on connection: PostgresConnection,
        listsOf: ((PostgresRows, Int) -> Bool)? = nil
    ) throws(PostgresError) -> (rows: PostgresRows, lists: [PostgresRows])? {
        guard !keys.isEmpty else { return nil }
        try stage(keys, on: connection)
        let rows = try connection.rowsInPlace(rowsStatement(columns: columns, toOne: toOne))
        guard !toMany.isEmpty else { return (rows, []) }
        var owners = PostgresCopyText()
        for row in 0..<rows.count where listsOf?(rows, row) ?? true {
            guard let place = rows.integer(row, 0), let id = rows.integer(row, 1 + rowID) else {
                throw PostgresError(.other, message: "a row of \(table) read by key came without its place or row id")
            }
            owners.append(place)
            owners.append(id)
            owners.endRow()
        }
        try connection.execute(emptyOwners)
        try connection.copy(into: ownersTable, columns: [PostgresUpsert.ordinalColumn, Self.ownerRowIDColumn], text: owners)
        var lists: [PostgresRows] = []
        for list in toMany { lists.append(try connection.rowsInPlace(listStatement(list))) }
        return (rows, lists)
    }

    /// The rows of `statement`, each split into its key's place and the rest.
    func placed(_ statement: String, on connection: PostgresConnection) throws(PostgresError) -> [(place: Int, values: [SQLValue])] {
        var found: [(place: Int, values: [SQLValue])] = []
        var rows = try connection.values(statement, [], statement: nil)
        for index in rows.indices {
            var row: [SQLValue] = []
            swap(&row, &rows[index])  // the row's own array now, so that dropping its place moves it in place
            guard case .integer(let place)? = row.first else {
                throw PostgresError(.other, message: "the rows of \(table) read by key came without their place")
            }
            row.removeFirst()
            found.append((Int(place), row))
        }
        return found
    }
}
