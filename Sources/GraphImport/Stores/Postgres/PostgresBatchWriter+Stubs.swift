import GraphImportPostgres
import GraphImportSchema

/// The stubs a run makes and completes, counted by the rule both stores call
/// (`ObjectDecisions.stubState`): a new object a batch made from a reference alone is a stub; the
/// feed's giving it later in the run, written, completes it. The keys go into a temporary table
/// per entity with whether they were completed, counted at the end against the rows the run
/// inserted that are still there. The store marks a stub's row (`stub_run`) until the feed gives
/// it: one an earlier run made counts as completed when this run writes it.
extension PostgresBatchWriter {
    /// The temporary table of the stubs' keys, per entity, with `completed` (0 or 1) per note.
    func stubsTable(_ entity: Int) -> String { "graphimport_stubs_\(entity)" }

    private static let completedColumn = "graphimport_completed"

    /// Creates the stubs' tables (dropped at the transaction's end).
    func prepareStubs() throws(PostgresError) {
        for index in plan.entities.indices {
            try prepareKeyTable(stubsTable(index), of: index, extraColumns: ", 0::integer AS \(quoteIdentifier(Self.completedColumn))")
        }
    }

    /// Notes the stubs among the batch's objects of entity `index`: new ones made from a
    /// reference, and the run's open stubs the feed gave and the batch writes. A stored row
    /// marked a stub (by this run or an earlier one) that the batch writes has its mark cleared;
    /// one an earlier run made counts as completed (`storedStubsCompleted`).
    func noteStubs(_ index: Int, stored: StoredBatch) throws(PostgresError) {
        let batch = batches[index]
        var values: [SQLValue] = []
        var unmarked: [Int64] = []
        for row in batch.keys.indices {
            if !stored.isNew(row), batch.written[row] {
                let stubRun = stored.stubRun(row)
                if stubRun != .null {
                    unmarked.append(stored.rowID(row))
                    // This run's own stubs are counted below, with those it made.
                    if stubRun != .integer(run.runID) { storedStubsCompleted[index] += 1 }
                }
            }
            var state: StubState
            if stored.isNew(row) {
                state = decisions.stubState(ofNewObjectFromReference: batch.madeByReference[row])
            } else if !openStubs[index].isEmpty, openStubs[index].contains(batch.keys[row]) {
                state = .stub
            } else {
                continue
            }
            if batch.written[row] { state = decisions.stubStateOnceGiven(state) }
            switch state {
            case .none, .storedStub: continue
            case .stub:
                // Noted once, when made: a later batch that only names it again changes nothing.
                guard stored.isNew(row) else { continue }
                openStubs[index].insert(batch.keys[row])
            case .completed: openStubs[index].remove(batch.keys[row])
            }
            values += batch.keys[row]
            values.append(.integer(state == .completed ? 1 : 0))
        }
        if !unmarked.isEmpty {
            let table = quoteIdentifier(plan.entities[index].table)
            _ = try connection.rows(
                "UPDATE \(table) SET \(quoteIdentifier(Naming.stubRun)) = NULL WHERE \(quoteIdentifier(Naming.primaryKey)) = ANY($1::bigint[])",
                ["{" + unmarked.map(String.init).joined(separator: ",") + "}"])
        }
        guard !values.isEmpty else { return }
        try connection.copy(into: stubsTable(index), columns: keyColumns(plan.entities[index]) + [Self.completedColumn], values: values)
    }

    /// The stubs of entity `index` this run inserted that are still stubs, and those it completed,
    /// among the rows it inserted that are still stored.
    func stubCounts(_ index: Int) throws(PostgresError) -> (stubs: Int, completed: Int) {
        let entity = plan.entities[index]
        let keys = keyColumns(entity).map(quoteIdentifier)
        let join = keys.map { "s.\($0) = t.\($0)" }.joined(separator: " AND ")
        let completed = quoteIdentifier(Self.completedColumn)
        let row = try connection.rows(
            "SELECT count(*) FILTER (WHERE s.done = 0), count(*) FILTER (WHERE s.done = 1) "
                + "FROM (SELECT \(keys.joined(separator: ", ")), max(\(completed)) AS done FROM \(quoteIdentifier(stubsTable(index))) "
                + "GROUP BY \(keys.joined(separator: ", "))) s JOIN \(quoteIdentifier(entity.table)) t ON \(join) "
                + "WHERE t.\(quoteIdentifier(Naming.insertedRun)) = $1::bigint", [String(run.runID)]
        ).first
        let numbers = (row ?? []).map { $0.flatMap { Int($0) } ?? 0 }
        guard numbers.count == 2 else { throw PostgresError(.other, message: "the stubs of \(entity.table) could not be counted") }
        return (numbers[0], numbers[1])
    }
}
