/// A column's declared type in a STRICT table; ANY keeps whatever storage class was written.
public enum ColumnType: String, Sendable, Equatable, Codable {
    case integer = "INTEGER", real = "REAL", text = "TEXT", blob = "BLOB", any = "ANY"
}

/// What happens to a referencing row when the row it points to is deleted.
public enum DeleteAction: String, Sendable, Equatable, Codable {
    case setNull = "SET NULL", cascade = "CASCADE", restrict = "RESTRICT", noAction = "NO ACTION"
}

/// A column's reference to another table's column (checked at COMMIT: DEFERRABLE INITIALLY DEFERRED).
public struct ForeignKey: Sendable, Equatable, Codable {
    public var table: String
    public var column: String
    public var onDelete: DeleteAction

    /// A reference to `table`.`column`, nulled by default when the target row goes.
    public init(table: String, column: String, onDelete: DeleteAction = .setNull) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
    }
}

/// One column of a table: its name, type, nullability and optional reference.
public struct ColumnDescription: Sendable, Equatable, Codable {
    public var name: String
    public var type: ColumnType
    public var notNull: Bool
    public var references: ForeignKey?

    /// A column; nullable and without a reference unless told otherwise.
    public init(name: String, type: ColumnType, notNull: Bool = false, references: ForeignKey? = nil) {
        self.name = name
        self.type = type
        self.notNull = notNull
        self.references = references
    }
}
