import Foundation
import GraphImportSchema

extension Store {
    /// The largest store `refusal` runs `PRAGMA quick_check` on by default, in bytes.
    /// quick_check reads every page, so its cost grows with the store (see README, Reliability); a
    /// bigger store is checked when asked. Either way SQLite refuses, at every open, a file shorter
    /// than its header says (SQLITE_CORRUPT), and reports damage on any page an import reads.
    package static let quickCheckLimit = 16 << 20

    /// Why this store must not be imported into, or nil. A store with no tables (a new or empty
    /// file), or only tables of `schema` (made by `graphimport schema | sqlite3`), is not foreign.
    /// quick_check runs on a store of up to `checkLimit` bytes, or whatever its size when `fullCheck`.
    package func refusal(
        for schema: SchemaDescription, fullCheck: Bool = false, checkLimit: Int = Store.quickCheckLimit
    ) throws(StoreError) -> StoreRefusal? {
        if fullCheck || fileSize() <= checkLimit, let damage = try quickCheckDamage() { return .damaged(damage) }
        let foreign = try foreignTables(besides: schema)
        return foreign.isEmpty ? nil : .foreign(tables: foreign)
    }

    /// The store's tables that `schema` does not have, when it has no table of graphimport's; else [].
    package func foreignTables(besides schema: SchemaDescription) throws(StoreError) -> [String] {
        var ours = false
        var theirs: [String] = []
        for row in try database.rows("SELECT \"name\" FROM sqlite_schema WHERE \"type\" = 'table'") {
            guard let name = row[0].textValue else { continue }
            let folded = foldedName(name)
            if folded.hasPrefix("graphimport_") {
                ours = true
            } else if !folded.hasPrefix("sqlite_") && schema.table(folding: name) == nil {
                theirs.append(name)
            }
        }
        return ours ? [] : theirs.sorted()
    }

    /// The first problems `PRAGMA quick_check` reports, or nil when it says `ok`.
    ///
    /// "PRAGMA quick_check … is like integrity_check except that it does not verify UNIQUE
    /// constraints and does not verify that index content matches table content", so it runs in
    /// O(N) rather than O(N log N) (https://www.sqlite.org/pragma.html#pragma_quick_check).
    package func quickCheckDamage() throws(StoreError) -> String? {
        let rows: [[SQLValue]]
        do {
            rows = try database.rows("PRAGMA quick_check(5)")
        } catch let error where error.isCorrupt || error.isNotADatabase {
            return error.message
        }
        let lines = rows.compactMap { $0.first?.textValue }
        return lines == ["ok"] ? nil : lines.joined(separator: "; ")
    }

    private func fileSize() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
    }
}
