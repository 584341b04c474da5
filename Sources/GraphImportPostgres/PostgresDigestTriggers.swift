package import GraphImportSchema

/// The triggers that keep a content digest honest on PostgreSQL (`DigestWatch`): a write by
/// another program of an object's mapped columns or of one of its lists sets the object's
/// `content_digest` to NULL, so that the next import compares it value by value and restores it.
/// Each trigger stands aside while an import writes its own drafts, which set the digest
/// themselves: the import says so with `SET LOCAL graphimport.writing = 'on'` (`writing(_:)`),
/// and says off again before its deletions, whose cascades must clear the digests they touch.
///
/// Two functions serve every table: `graphimport_digest_row`, a `BEFORE UPDATE` (of any column,
/// the digest left as it was) that clears the row's own digest as it is written (no second write of the row), and
/// `graphimport_digest_list`, an `AFTER INSERT OR UPDATE OR DELETE` on a join table that clears
/// the digests of the OLD and NEW owners (its arguments: the owner's table, the join table's
/// owner column, the owner's primary key and digest columns). Each trigger carries a comment
/// with a fingerprint of what made it, so that a store's triggers are made again only when
/// missing or different (`ensure`).
package enum PostgresDigestTriggers {
    /// The setting an import turns on while it writes its drafts.
    package static let setting = "graphimport.writing"
    /// The trigger's name on an entity table and on a join table.
    package static let rowTrigger = "graphimport_digest"
    package static let listTrigger = "graphimport_digest_list"
    static let rowFunction = "graphimport_digest_row"
    static let listFunction = "graphimport_digest_list"

    /// `SET LOCAL` of the setting: on while the import writes its own drafts, off otherwise.
    package static func writing(_ on: Bool) -> String { "SET LOCAL \(setting) = '\(on ? "on" : "off")'" }

    /// The condition every trigger fires under: no import writing its drafts.
    static var standsAside: String { "current_setting('\(setting)', true) IS DISTINCT FROM 'on'" }

    /// The two functions (`CREATE OR REPLACE`); the digest column is the watches' (one name for all).
    static func functions(digestColumn: String) -> [String] {
        let digest = quoteIdentifier(digestColumn)
        return [
            """
            CREATE OR REPLACE FUNCTION \(rowFunction)() RETURNS trigger LANGUAGE plpgsql AS $graphimport$ \
            BEGIN NEW.\(digest) := NULL; RETURN NEW; END $graphimport$
            """,
            """
            CREATE OR REPLACE FUNCTION \(listFunction)() RETURNS trigger LANGUAGE plpgsql AS $graphimport$ \
            DECLARE owners bigint[] := '{}'; \
            BEGIN \
            IF TG_OP <> 'INSERT' THEN owners := owners || (to_jsonb(OLD) ->> TG_ARGV[1])::bigint; END IF; \
            IF TG_OP <> 'DELETE' THEN owners := owners || (to_jsonb(NEW) ->> TG_ARGV[1])::bigint; END IF; \
            EXECUTE format('UPDATE %I.%I SET %I = NULL WHERE %I = ANY($1) AND %I IS NOT NULL', \
            TG_TABLE_SCHEMA, TG_ARGV[0], TG_ARGV[3], TG_ARGV[2], TG_ARGV[3]) USING owners; \
            RETURN NULL; END $graphimport$
            """,
        ]
    }

    /// A trigger to make: its table, its name, its `CREATE OR REPLACE TRIGGER`, and its fingerprint.
    package struct Trigger: Sendable, Equatable {
        package let table: String
        package let name: String
        package let statement: String

        /// The comment the trigger carries: what made it, as a short fingerprint.
        package var comment: String { "graphimport " + stagingFingerprint(statement + functionsText) }
        private var functionsText: String { PostgresDigestTriggers.functions(digestColumn: "").joined() }
    }

    /// The triggers `watches` ask for.
    package static func triggers(for watches: [DigestWatch]) -> [Trigger] {
        var result: [Trigger] = []
        for watch in watches {
            let digest = quoteIdentifier(watch.digestColumn)
            // Any column, not only this map's: two maps may share a table, each reading columns the
            // other does not, and whichever made the trigger last must not leave an edit of the
            // other's columns unseen. An update that sets the digest itself is left as it is.
            result.append(
                Trigger(
                    table: watch.table, name: rowTrigger,
                    statement: "CREATE OR REPLACE TRIGGER \(rowTrigger) BEFORE UPDATE ON \(quoteIdentifier(watch.table)) FOR EACH ROW "
                        + "WHEN (OLD.\(digest) IS NOT NULL AND NEW.\(digest) IS NOT DISTINCT FROM OLD.\(digest) AND \(standsAside)) "
                        + "EXECUTE FUNCTION \(rowFunction)()"))
            for list in watch.lists {
                let arguments = [watch.table, list.ownerColumn, watch.primaryKey, watch.digestColumn].map { SQLValue.text($0).description }
                result.append(
                    Trigger(
                        table: list.table, name: listTrigger,
                        statement: "CREATE OR REPLACE TRIGGER \(listTrigger) AFTER INSERT OR UPDATE OR DELETE ON \(quoteIdentifier(list.table)) "
                            + "FOR EACH ROW WHEN (\(standsAside)) EXECUTE FUNCTION \(listFunction)(\(arguments.joined(separator: ", ")))"))
            }
        }
        return result
    }

    /// Every statement that makes the triggers of `watches` from nothing (`graphimport check`'s DDL).
    package static func createStatements(for watches: [DigestWatch]) -> [String] {
        let triggers = triggers(for: watches)
        guard let column = watches.first?.digestColumn, !triggers.isEmpty else { return [] }
        return functions(digestColumn: column) + triggers.flatMap(statements)
    }

    static func statements(_ trigger: Trigger) -> [String] {
        [
            trigger.statement,
            "COMMENT ON TRIGGER \(quoteIdentifier(trigger.name)) ON \(quoteIdentifier(trigger.table)) IS \(SQLValue.text(trigger.comment).description)",
        ]
    }
}

extension PostgresConnection {
    /// Makes the digest triggers of `watches` that the store's tables lack or hold in another
    /// form (their comment's fingerprint differs), the functions first; one catalog query when
    /// all are there. Inside the import's transaction, after its migration.
    package func ensureDigestTriggers(_ watches: [DigestWatch]) throws(PostgresError) {
        let wanted = PostgresDigestTriggers.triggers(for: watches)
        guard let column = watches.first?.digestColumn, !wanted.isEmpty else { return }
        let names = [PostgresDigestTriggers.rowTrigger, PostgresDigestTriggers.listTrigger].map { SQLValue.text($0).description }
        var present: [String: String] = [:]
        for row in try rows(
            "SELECT c.relname || '.' || t.tgname, coalesce(obj_description(t.oid, 'pg_trigger'), '') FROM pg_trigger t "
                + "JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace "
                + "AND t.tgname IN (\(names.joined(separator: ", ")))")
        {
            guard row.count == 2, let name = row[0] else { continue }
            present[name] = row[1] ?? ""
        }
        let missing = wanted.filter { present["\($0.table).\($0.name)"] != $0.comment }
        guard !missing.isEmpty else { return }
        for statement in PostgresDigestTriggers.functions(digestColumn: column) { try execute(statement) }
        for trigger in missing {
            for statement in PostgresDigestTriggers.statements(trigger) { try execute(statement) }
        }
    }

    /// Says whether the import is writing its own drafts (`PostgresDigestTriggers.writing`), for
    /// the rest of the transaction.
    package func setWritingDrafts(_ on: Bool) throws(PostgresError) { try execute(PostgresDigestTriggers.writing(on)) }
}

/// A short fingerprint of `text` (FNV-1a, base 36).
func stagingFingerprint(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(hash, radix: 36)
}
