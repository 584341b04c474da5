/// A schema change the store will not make in place, with what the user can do instead.
package struct MigrationRefusal: Sendable, Equatable, CustomStringConvertible {
    package var table: String
    package var column: String?
    /// What changed and why SQLite cannot apply it, as a sentence without a final period.
    package var message: String
    /// What to do instead, as a sentence without a final period.
    package var hint: String
    /// The store holds what the map's names cannot be matched with (a table under an older
    /// graphimport's name and under the map's), rather than the map asking for a change.
    package var isStoreConflict: Bool

    /// A refusal for `table` (and `column` when the change is a column's).
    package init(table: String, column: String? = nil, isStoreConflict: Bool = false, message: String, hint: String) {
        self.table = table
        self.column = column
        self.isStoreConflict = isStoreConflict
        self.message = message
        self.hint = hint
    }

    /// The message, then the hint on its own line: `…\nhelp: import into a new store …`.
    package var description: String { "\(message)\nhelp: \(hint)" }
}

/// One change a migration makes, in terms of table descriptions: each store writes its own DDL
/// for it (`SchemaSQL.statements(for:)` for SQLite), so that both stores migrate by one plan.
package enum MigrationStep: Sendable, Equatable {
    /// A new table, with its unique keys and indexes.
    case createTable(TableDescription)
    /// A nullable column added to an existing table (named as the store spells it).
    case addColumn(ColumnDescription, table: String)
    /// A plain index added to an existing table (named as the store spells it).
    case createIndex(table: String, columns: [String])
    /// A table renamed in place, its rows, indexes and the references to it kept (a store made
    /// when the map's default table names were others: `Migrator.plan(…formerly:…)`).
    case renameTable(from: String, to: String)
    /// A column of `table` (its name after any `renameTable`) renamed in place.
    case renameColumn(table: String, from: String, to: String)
    /// An index renamed to the name `TableDescription.indexName` gives it on `table`'s `columns`
    /// (their names after any renames); a store that cannot rename an index makes it again.
    case renameIndex(from: String, to: String, table: String, columns: [String], unique: Bool)
}

/// What moving a store from one schema to another takes: the steps, a human summary, and refusals.
package struct MigrationPlan: Sendable, Equatable {
    /// The changes to make, in order.
    package var steps: [MigrationStep]
    /// One line per change, kept ones included: "add table hashtags", "add column tweets.lang".
    package var changes: [String]
    /// Changes that cannot be made in place; when not empty, nothing should be run.
    package var refusals: [MigrationRefusal]

    /// A plan; empty by default.
    package init(steps: [MigrationStep] = [], changes: [String] = [], refusals: [MigrationRefusal] = []) {
        self.steps = steps
        self.changes = changes
        self.refusals = refusals
    }

    /// True when there is nothing to change.
    package var isEmpty: Bool { steps.isEmpty }
}

/// How a store's migration refusals are worded: what it does not change in place, and how to
/// start over. The planner decides what is refused, the same for every store.
package struct MigrationTarget: Sendable {
    /// The subject and verb of a change not made in place: "SQLite cannot" (change a column's type…).
    package var cannot: String
    /// The subject and verb of the one kind of column that can be added: "SQLite can only add".
    package var onlyAdds: String
    /// What to do instead of a change that needs the data rebuilt, as a sentence without a final period.
    package var rebuildHint: String

    /// A wording.
    package init(cannot: String, onlyAdds: String, rebuildHint: String) {
        self.cannot = cannot
        self.onlyAdds = onlyAdds
        self.rebuildHint = rebuildHint
    }
}
