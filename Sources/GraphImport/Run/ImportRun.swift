import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// One import run in progress, the same for every store: the state the phases share, and the
/// phases in order. The store's part is its `StoreSession` and the sink it makes.
struct ImportRun<Session: StoreSession> {
    let plan: ImportPlan
    let hooks: ImportHooks
    let entityHooks: [EntityHooks]
    let session: Session
    /// The run's id from `beginRun`: its record's whenever the import's transaction is not open.
    let beganID: Int64
    /// The id the run writes and commits under (`StoreSession.open`), `beganID` until the write lock is held.
    var runID: Int64
    let inputName: String
    let options: ImportOptions
    let tap = InputTapState()
    /// The records read so far, and those skipped.
    var loop: RecordLoop
    var records: Int { loop.records }
    var skippedRecords: Int { loop.skippedRecords }

    init(plan: ImportPlan, hooks: ImportHooks, entityHooks: [EntityHooks], session: Session, runID: Int64, inputName: String, options: ImportOptions) {
        self.plan = plan
        self.hooks = hooks
        self.entityHooks = entityHooks
        self.session = session
        beganID = runID
        self.runID = runID
        self.inputName = inputName
        self.options = options
        loop = RecordLoop(plan: plan, options: options, tap: tap)
    }

    /// The records the reading thread may draft ahead while the import waits for the store's lock
    /// (`RecordPipeline.endReadAhead`): a bound on the memory of a waiting import.
    static var readAhead: Int { 16_384 }

    mutating func perform(
        source: some JSONByteSource, onSkip: (RecordError) -> Void, onProgress: ((Int, Int) -> Void)?
    ) throws(ImportError) -> ImportSummary {
        var summary = ImportSummary(input: inputName, store: session.storeName)
        summary.runID = runID
        summary.dryRun = options.dryRun
        // A regular file hashed before reading: an input the store already holds is not read at all.
        if options.ifChanged, let known = options.knownInput, try session.lastSucceededInputSHA256() == known.sha256 {
            summary.skipUnread(known, format: options.format)
            return try finishUnchanged(summary)
        }
        // Reading and drafting never touch the store: they begin before the store's lock is asked
        // for, so that an import reads its input while another one holds the lock.
        let modes = EntityModes(plan: plan, run: options.mode)
        let reader = plan.recordReader(source: InputTap(source, state: tap), projections: plan.projections(hooks: hooks), format: options.format)
        var builder = DraftBuilder(plan: plan, hooks: entityHooks, modes: modes)
        builder.readsSlots = options.readsSlotTable
        if !session.takesDigests { builder.takesDigests = Array(repeating: false, count: plan.entities.count) }
        loop.lightDrafter = builder
        let pipeline = RecordPipeline(
            reader: reader, builder: builder, routes: plan.routes, skipsMalformedLines: options.skipInvalid, readAhead: Self.readAhead,
            handsOverLight: session.takesLightRecords && session.takesDigests ? options.handsOverLight : .never)
        defer {
            pipeline.stop()
            tap.closeGate()
        }
        runID = try session.open(claiming: beganID)
        pipeline.endReadAhead()
        summary.runID = runID
        let migration = try session.migrate(
            to: plan.schema, formerly: plan.formerSchema, mapName: plan.mapping.fileName, mapText: plan.mapping.textWithIncludes)
        let conflicts = migration.refusals.filter(\.isStoreConflict)
        if !conflicts.isEmpty {
            throw .storeConflict(store: session.storeName, refusals: conflicts.map(plan.diagnostic(for:)))
        }
        if !migration.refusals.isEmpty {
            throw .migration(store: session.storeName, refusals: migration.refusals.map(plan.diagnostic(for:)))
        }
        summary.schemaChanges = migration.changes
        let now = SQLValue.text(Coercion.isoText(Timestamp(milliseconds: currentMilliseconds())))
        // Each decision about an object, made here once for the run whatever the store.
        let decisions = ObjectDecisions(
            plan: plan, modes: modes, values: ObjectValueRules(plan: plan, run: RunContext(runID: runID, now: now), hooks: entityHooks),
            comparesAll: options.comparesAll, takesDigests: session.takesDigests)
        let sink = try session.makeSink(decisions: decisions, options: options)
        let ending = try sink.writeRecords(&loop, from: pipeline, options: options, onSkip: onSkip, onProgress: onProgress)
        if case .emptyAllowed = ending {
            summary.entities = plan.entities.map { ($0.name, EntityCounts()) }
            summary.inputSHA256 = SHA256.hex(tap.hash.finish())
            try sink.flush()
            summary.meta = try saveMeta(captured: [:])
            return try finish(summary)
        }
        loop.fill(&summary)
        // A stream (or a file that changed while hashed) is compared once read: its writes roll back.
        if options.ifChanged, try session.lastSucceededInputSHA256() == summary.inputSHA256 {
            rollback(&summary)
            return try finishUnchanged(summary)
        }
        // Before anything that may look rows up by a foreign key (deletions and their cascades).
        try sink.flush()
        summary.meta = try saveMeta(captured: loop.captured)
        // A skipped record's objects were not seen, yet they are not missing from the feed: deleting
        // "missing" objects after skipping any record would lose data, so deletion waits for a clean
        // run, and an empty feed deletes nothing. Owned objects their owners let go of go all the
        // same: the records that did so were written.
        if skippedRecords > 0 { summary.deletionsSuspended = plan.entities.contains { $0.deletionScope != nil } }
        summary.deletions = try sink.delete(missing: records > 0 && skippedRecords == 0, dryRun: options.dryRun)
        // After the deletions: an object deleted in the run counts as deleted only.
        let counts = try sink.counts()
        summary.unlinked = sink.tally.unlinked.filter { $0.count > 0 }
        summary.objectsUnchangedByDigest = sink.unchangedByDigest
        summary.changes = sink.changeLog?.changes(names: plan.entities.map(\.name)) ?? []
        summary.entities = plan.entities.indices.map { index in
            var entityCounts = counts[index]
            entityCounts.skipped = loop.skippedByEntity[index]
            entityCounts.passedOver = loop.passedOverByEntity[index]
            entityCounts.notInserted = sink.tally.notInsertedCount(index)
            entityCounts.deleted = summary.deletions.first { $0.entity == plan.entities[index].name }?.count ?? 0
            return (plan.entities[index].name, entityCounts)
        }
        return try finish(summary)
    }

    /// Records a run that failed with `error`, after rolling its transaction back; a session whose
    /// connection was lost records it through a new one when it can.
    func recordFailure(_ error: ImportError) {
        // The store is never deleted, not even one this run created: another import may already
        // have it open, and removing it under that import loses its data.
        session.recordFailure(
            of: beganID, error: error.description, records: Int64(records), skippedRecords: Int64(skippedRecords), inputBytes: Int64(tap.byteCount))
    }

    /// Writes the response's metadata (from the map) and the caller's, in the import's transaction.
    private func saveMeta(captured: [Int: JSONValue]) throws(ImportError) -> [(key: String, value: MetaValue?)] {
        var saved: [(key: String, value: MetaValue?)] = []
        for (index, field) in plan.meta.enumerated() {
            guard let raw = captured[index] else { continue }
            do {
                saved.append((field.name, try field.metaValue(raw)))
            } catch {
                throw .meta(name: field.name, message: error.message, hint: error.hint)
            }
        }
        saved += options.setMeta.map { ($0.key, $0.value) }
        for (key, value) in saved {
            if let value { try session.setMeta(key, value) } else { try session.unsetMeta(key) }
        }
        return saved
    }

    /// Records the run's end and commits it, or rolls a dry run back and records it as one.
    private mutating func finish(_ summary: ImportSummary) throws(ImportError) -> ImportSummary {
        var summary = summary
        if options.dryRun {
            rollback(&summary)
            try record(summary, outcome: .dryRun)
        } else {
            try record(summary, outcome: .succeeded)
            try session.commit(runID: runID)
        }
        return summary
    }

    /// Records a run whose input the store already holds as skipped: nothing of it is kept.
    private func finishUnchanged(_ summary: ImportSummary) throws(ImportError) -> ImportSummary {
        var summary = summary
        summary.skipAsUnchangedInput(entities: plan.entities.map(\.name))
        try record(summary, outcome: .skipped)
        return summary
    }

    /// Rolls the import's transaction back: the run is its record's `beganID` again.
    private mutating func rollback(_ summary: inout ImportSummary) {
        session.rollback()
        runID = beganID
        summary.runID = runID
    }

    /// Records the run's end under its current id.
    private func record(_ summary: ImportSummary, outcome: RunOutcome) throws(ImportError) {
        try session.finishRun(
            runID, outcome: outcome, records: summary.inputParsed ? Int64(summary.records) : nil, skippedRecords: Int64(summary.skippedRecords),
            inputBytes: Int64(summary.bytesRead), inputSHA256: summary.inputSHA256, counts: summary.countsJSON, error: nil)
    }
}
