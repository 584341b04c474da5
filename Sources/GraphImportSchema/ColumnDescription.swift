/// A column's declared type in a STRICT table; ANY keeps whatever storage class was written.
package enum ColumnType: String, Sendable, Equatable, Codable {
    case integer = "INTEGER", real = "REAL", text = "TEXT", blob = "BLOB", any = "ANY"
}

/// What happens to a referencing row when the row it points to is deleted.
package enum DeleteAction: String, Sendable, Equatable, Codable {
    case setNull = "SET NULL", cascade = "CASCADE", restrict = "RESTRICT", noAction = "NO ACTION"
}

/// A column's reference to another table's column (checked at COMMIT: DEFERRABLE INITIALLY DEFERRED).
package struct ForeignKey: Sendable, Equatable, Codable {
    package var table: String
    package var column: String
    package var onDelete: DeleteAction

    /// A reference to `table`.`column`, nulled by default when the target row goes.
    package init(table: String, column: String, onDelete: DeleteAction = .setNull) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
    }
}

/// One column of a table: its name, type, nullability and optional reference.
package struct ColumnDescription: Sendable, Equatable, Codable {
    package var name: String
    package var type: ColumnType
    package var notNull: Bool
    package var references: ForeignKey?

    /// A column; nullable and without a reference unless told otherwise.
    package init(name: String, type: ColumnType, notNull: Bool = false, references: ForeignKey? = nil) {
        self.name = name
        self.type = type
        self.notNull = notNull
        self.references = references
    }
}
