/// A schema change the store will not make in place, with what the user can do instead.
public struct MigrationRefusal: Sendable, Equatable, CustomStringConvertible {
    public var table: String
    public var column: String?
    /// What changed and why SQLite cannot apply it, as a sentence without a final period.
    public var message: String
    /// What to do instead, as a sentence without a final period.
    public var hint: String

    /// A refusal for `table` (and `column` when the change is a column's).
    public init(table: String, column: String? = nil, message: String, hint: String) {
        self.table = table
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// The message, then the hint on its own line: `…\nhelp: import into a new store …`.
    public var description: String { "\(message)\nhelp: \(hint)" }
}

/// What moving a store from one schema to another takes: DDL, a human summary, and refusals.
public struct MigrationPlan: Sendable, Equatable {
    /// The DDL to run, in order.
    public var statements: [String]
    /// One line per change, kept ones included: "add table hashtag", "add column tweet.lang".
    public var changes: [String]
    /// Changes that cannot be made in place; when not empty, nothing should be run.
    public var refusals: [MigrationRefusal]

    /// A plan; empty by default.
    public init(statements: [String] = [], changes: [String] = [], refusals: [MigrationRefusal] = []) {
        self.statements = statements
        self.changes = changes
        self.refusals = refusals
    }

    /// True when there is no statement to run.
    public var isEmpty: Bool { statements.isEmpty }
}
