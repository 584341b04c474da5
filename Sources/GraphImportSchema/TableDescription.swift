/// How a table's rows are identified.
package enum PrimaryKey: Sendable, Equatable, Codable {
    /// An alias of the rowid, written `"pk" INTEGER PRIMARY KEY` as the first column.
    case rowid(String)
    /// A PRIMARY KEY constraint over columns that appear in `columns`.
    case columns([String])
}

/// One table as the store creates it: the engine describes, the store writes the SQL.
package struct TableDescription: Sendable, Equatable, Codable {
    package var name: String
    package var primaryKey: PrimaryKey
    /// The columns after the primary key; a `.rowid` key column is not listed here.
    package var columns: [ColumnDescription]
    /// Each becomes a CREATE UNIQUE INDEX (the natural keys upserts look rows up by).
    package var uniqueKeys: [[String]]
    /// Each becomes a plain CREATE INDEX (foreign key columns, join-table target columns).
    package var indexes: [[String]]

    /// A table; by default with a rowid key named `pk`, no unique keys and no indexes.
    package init(
        name: String, primaryKey: PrimaryKey = .rowid("pk"), columns: [ColumnDescription],
        uniqueKeys: [[String]] = [], indexes: [[String]] = []
    ) {
        self.name = name
        self.primaryKey = primaryKey
        self.columns = columns
        self.uniqueKeys = uniqueKeys
        self.indexes = indexes
    }

    /// The column named `name`, if the table has one (the rowid key column is not one).
    package func column(named name: String) -> ColumnDescription? {
        columns.first { $0.name == name }
    }
}

/// Every table of a store, in creation order.
package struct SchemaDescription: Sendable, Equatable, Codable {
    package var tables: [TableDescription]
    /// Tables the map no longer reads whose rows it would lose: a store that holds one is
    /// refused (`Migrator`), never migrated past it. Made from the map each run, so neither
    /// recorded nor compared.
    package var retiredTables: [RetiredTable] = []
    /// Per entity table with a content digest: what clears it when another program writes the
    /// object. Made from the map each run, so neither recorded nor compared, as `retiredTables`.
    package var digestWatches: [DigestWatch] = []

    /// A table a map would silently stop reading, and what to say of it.
    package struct RetiredTable: Sendable, Equatable {
        package var name: String
        /// Why the map no longer reads it, as a sentence without a final period.
        package var message: String
        /// What to do instead, as a sentence without a final period.
        package var hint: String

        package init(name: String, message: String, hint: String) {
            self.name = name
            self.message = message
            self.hint = hint
        }
    }

    private enum CodingKeys: String, CodingKey { case tables }

    package static func == (lhs: SchemaDescription, rhs: SchemaDescription) -> Bool { lhs.tables == rhs.tables }

    /// A schema of `tables`.
    package init(tables: [TableDescription]) {
        self.tables = tables
    }

    /// The table named `name`, if any.
    package func table(named name: String) -> TableDescription? {
        tables.first { $0.name == name }
    }
}

/// What clears the content digest of an entity table's row (sets it to NULL) when a program other
/// than graphimport's import writes the object: an update of the row (of any column: another map
/// may read columns this one does not), or an insert, update or delete of a row of one of its
/// lists. Each store turns it into triggers that
/// stand aside while an import writes its own drafts, which set the digest themselves.
package struct DigestWatch: Sendable, Equatable {
    package var table: String
    /// The digest column (`content_digest`) and the table's primary key.
    package var digestColumn: String
    package var primaryKey: String
    /// The join tables that hold the objects' lists, each with the column naming the owner.
    package var lists: [ListTable]

    package struct ListTable: Sendable, Equatable {
        package var table: String
        package var ownerColumn: String

        package init(table: String, ownerColumn: String) {
            self.table = table
            self.ownerColumn = ownerColumn
        }
    }

    package init(table: String, digestColumn: String, primaryKey: String, lists: [ListTable]) {
        self.table = table
        self.digestColumn = digestColumn
        self.primaryKey = primaryKey
        self.lists = lists
    }
}

extension TableDescription {
    /// The unquoted index name, the same in every store: `t_a_b` for a unique key (`tweet_id`),
    /// `t_a_b_index` for a plain index (`tweet_author_pk_index`).
    package static func indexName(table: String, columns: [String], unique: Bool) -> String {
        ([table] + columns + (unique ? [] : ["index"])).joined(separator: "_")
    }
}
