import GraphImportSchema

extension Store {
    /// The store's data tables, their columns, keys, references and indexes, as SQLite reports them.
    package func storedSchema() throws(StoreError) -> StoredSchema {
        var names: [String: String] = [:]
        var tables: [(name: String, sql: String)] = []
        for row in try database.rows("SELECT \"type\", \"name\", \"sql\" FROM sqlite_schema ORDER BY rowid") {
            guard let type = row[0].textValue, let name = row[1].textValue else { continue }
            let folded = foldedName(name)
            names[folded] = type
            if type == "table" && !folded.hasPrefix("sqlite_") && !folded.hasPrefix("graphimport_") {
                tables.append((name, row[2].textValue ?? ""))
            }
        }
        var described: [TableDescription] = []
        for table in tables {
            described.append(try describeTable(table.name, withoutRowID: Self.isWithoutRowID(table.sql)))
        }
        return StoredSchema(schema: SchemaDescription(tables: described), names: names, recorded: try recordedSchema())
    }

    /// Whether a CREATE TABLE statement ends with the WITHOUT ROWID option: table options follow
    /// the last parenthesis (https://www.sqlite.org/lang_createtable.html). Read from the SQL
    /// because PRAGMA table_list, which says it too, is younger than many systems' SQLite.
    static func isWithoutRowID(_ sql: String) -> Bool {
        guard let close = sql.lastIndex(of: ")") else { return false }
        let options = foldedName(String(sql[sql.index(after: close)...])).split(whereSeparator: { !$0.isLetter })
        return zip(options, options.dropFirst()).contains { $0 == "without" && $1 == "rowid" }
    }

    private func describeTable(_ name: String, withoutRowID: Bool) throws(StoreError) -> TableDescription {
        var columns: [ColumnDescription] = []
        var keyColumns: [(position: Int64, name: String, type: String)] = []
        for row in try database.rows("SELECT \"name\", \"type\", \"notnull\", \"pk\" FROM pragma_table_info(?)", [.text(name)]) {
            guard let column = row[0].textValue else { continue }
            let declared = row[1].textValue ?? ""
            if case .integer(let position) = row[3], position > 0 { keyColumns.append((position, column, declared)) }
            columns.append(ColumnDescription(name: column, type: Self.columnType(declared: declared), notNull: row[2] == .integer(1)))
        }
        keyColumns.sort { $0.position < $1.position }
        let primaryKey: PrimaryKey
        // "a column with a declared type of exactly INTEGER that is the only PRIMARY KEY of a rowid
        // table is an alias for the rowid" (https://www.sqlite.org/lang_createtable.html#rowid).
        if !withoutRowID, keyColumns.count == 1, foldedName(keyColumns[0].type) == "integer" {
            primaryKey = .rowid(keyColumns[0].name)
            columns.removeAll { $0.name == keyColumns[0].name }
        } else {
            primaryKey = .columns(keyColumns.map(\.name))
        }
        // Only single-column references are ours; a composite one stays out of the description
        // and so can never look compatible.
        var references: [String: ForeignKey] = [:]
        var composite = Set<Int64>()
        let keys = try database.rows("SELECT \"id\", \"seq\", \"table\", \"from\", \"to\", \"on_delete\" FROM pragma_foreign_key_list(?)", [.text(name)])
        for row in keys where row[1] != .integer(0) {
            if case .integer(let id) = row[0] { composite.insert(id) }
        }
        for row in keys {
            guard case .integer(let id) = row[0], !composite.contains(id), let target = row[2].textValue, let from = row[3].textValue else { continue }
            // A reference without a column names the target's primary key: left empty, it never
            // equals a map's reference, so such a column is refused rather than guessed at.
            let action = DeleteAction(rawValue: row[5].textValue ?? "") ?? .noAction
            references[foldedName(from)] = ForeignKey(table: target, column: row[4].textValue ?? "", onDelete: action)
        }
        for index in columns.indices {
            columns[index].references = references[foldedName(columns[index].name)]
        }
        var uniqueKeys: [[String]] = []
        var indexes: [[String]] = []
        for row in try database.rows("SELECT \"name\", \"unique\", \"origin\", \"partial\" FROM pragma_index_list(?)", [.text(name)]) {
            guard let index = row[0].textValue, row[2].textValue != "pk", row[3] == .integer(0) else { continue }
            let parts = try database.rows("SELECT \"cid\", \"name\" FROM pragma_index_info(?) ORDER BY \"seqno\"", [.text(index)])
            // An index on an expression or the rowid (cid < 0) is no list of columns a map asks for.
            guard !parts.isEmpty, parts.allSatisfy({ if case .integer(let cid) = $0[0] { cid >= 0 } else { false } }) else { continue }
            let names = parts.compactMap { $0[1].textValue }
            if row[1] == .integer(1) { uniqueKeys.append(names) } else { indexes.append(names) }
        }
        return TableDescription(
            name: name, primaryKey: primaryKey, columns: columns, uniqueKeys: uniqueKeys.reversed(), indexes: indexes.reversed())
    }

    /// The column type a declared type stands for, by SQLite's affinity rules
    /// (https://www.sqlite.org/datatype3.html#determination_of_column_affinity); a NUMERIC affinity,
    /// which turns numeric-looking text into numbers, matches no type of ours but ANY.
    static func columnType(declared: String) -> ColumnType {
        let type = foldedName(declared)
        if type.contains("int") { return .integer }
        if type.contains("char") || type.contains("clob") || type.contains("text") { return .text }
        if type.contains("blob") { return .blob }
        if type.isEmpty { return .any }
        if type.contains("real") || type.contains("floa") || type.contains("doub") { return .real }
        return .any
    }
}
