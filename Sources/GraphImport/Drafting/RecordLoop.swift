import GraphImportJSON

/// The reading side of one import, the same whatever the store: it takes the drafted records from
/// a `RecordPipeline` in the feed's order, counts them, hands each drafted object to the store's
/// writer, and skips a record that fails (under `--skip-invalid`) or ends the import with its
/// error. What the feed held besides records (captured values, its format, keys left unmapped)
/// is kept for the summary.
struct RecordLoop {
    /// What a store's writer made of one record.
    enum Outcome {
        case written
        /// The record cannot be written (a value refused, a required value missing); the writer
        /// has undone whatever of it was written.
        case refused(RecordError)
    }

    /// How reading ended.
    enum Ending {
        case read
        /// The input held nothing at all and `--allow-empty` accepts that.
        case emptyAllowed
    }

    let plan: ImportPlan
    let options: ImportOptions
    let tap: InputTapState
    private(set) var records = 0
    private(set) var skippedRecords = 0
    private(set) var ignoredRecords = 0
    /// Records skipped, by the entity they were routed to.
    private(set) var skippedByEntity: [Int]
    private(set) var skippedElements: [SkippedElements] = []
    private(set) var captured: [Int: JSONValue] = [:]
    private(set) var format = JSONInputFormat.auto
    private var extrasKeys: [[String: Int]] = []
    /// The objects of `occurrence first` entities written so far.
    private var firstOccurrences: FirstOccurrences
    /// Per entity: the occurrences `occurrence first` left out (a later one, with what it nests).
    private(set) var passedOverByEntity: [Int]
    /// Light records the store found unchanged (`touch`), for the tests.
    private(set) var recordsKeptLight = 0
    /// Drafts on the writing thread the light records (`LightRecord`) whose objects may have
    /// changed: a copy of the reading thread's builder, so both draft alike.
    var lightDrafter: DraftBuilder?

    init(plan: ImportPlan, options: ImportOptions, tap: InputTapState) {
        self.plan = plan
        self.options = options
        self.tap = tap
        skippedByEntity = Array(repeating: 0, count: plan.entities.count)
        firstOccurrences = FirstOccurrences(plan: plan)
        passedOverByEntity = Array(repeating: 0, count: plan.entities.count)
    }

    /// Reads every record of `pipeline` and writes each with `write`, then checks that the input
    /// was not empty, that the run was not interrupted and that the map's paths found what they
    /// must. `beforeBatch`, when given, sees each batch of records from the reading thread before
    /// any of them is written (a store that reads what they name at once). `touch` is given each
    /// light record (`LightRecord`) first: true when the store holds every object of it unchanged
    /// (done); otherwise the record is drafted here (`lightDrafter`) and written. Errors of
    /// `write`, `touch` and `beforeBatch` pass through unchanged; the feed's own become
    /// `ImportError`s.
    mutating func run(
        _ pipeline: RecordPipeline, onSkip: (RecordError) -> Void, onProgress: ((Int, Int) -> Void)?,
        beforeBatch: (([DraftedRecord]) throws -> Void)? = nil, touch: ((DraftedRecord, LightRecord) throws -> Bool)? = nil,
        write: (DraftedRecord, ObjectDraft) throws -> Outcome
    ) throws -> Ending {
        var outcomes: [JSONPatternOutcome] = []
        do {
            reading: while true {
                var batch: [DraftedRecord]
                guard let item = pipeline.next(isCancelled: options.isCancelled) else { throw ImportError.interrupted }
                // Consumed, so that `batch` is the only reference to the records (see `recycle`).
                switch consume item {
                case .failure(let error): throw error
                case .end(let values, let readFormat, let keys, let patternOutcomes):
                    captured = values
                    format = readFormat
                    extrasKeys = keys
                    outcomes = patternOutcomes
                    break reading
                case .records(let records): batch = records
                }
                try beforeBatch?(batch)
                var lightUnchanged = 0
                var lightDrafted = 0
                for record in batch {
                    if let isCancelled = options.isCancelled, isCancelled() { throw ImportError.interrupted }
                    records += 1
                    var drafted = record.draft
                    if let light = record.light {
                        if let touch, try touch(record, light) {
                            lightUnchanged += 1
                            recordsKeptLight += 1
                            onProgress?(records, record.position.offset)
                            continue
                        }
                        lightDrafted += 1
                        drafted = draftHere(light)
                    }
                    switch drafted {
                    case .failure(let error): try skip(error, entity: record.routedEntity, onSkip: onSkip)
                    case .success(nil): ignoredRecords += 1
                    case .success(var draft?):
                        var firsts: [Int: Set<ObjectKey>] = [:]
                        var passedOver: [Int: Int] = [:]
                        if firstOccurrences.isActive {
                            // A later occurrence of the record's own object: left out, as written.
                            guard let kept = firstOccurrences.leavingOutLater(draft, keys: &firsts, passedOver: &passedOver) else {
                                var left: [Int: Int] = [:]
                                FirstOccurrences.count(draft, into: &left)
                                for (entity, count) in left { passedOverByEntity[entity] += count }
                                onProgress?(records, record.position.offset)
                                continue
                            }
                            draft = kept
                        }
                        switch try write(record, draft) {
                        case .written:
                            if !firsts.isEmpty { firstOccurrences.wrote(firsts) }
                            for (entity, count) in passedOver { passedOverByEntity[entity] += count }
                            if let elements = record.skippedElements { skippedElements.add(elements) }
                        case .refused(let error):
                            try skip(error, entity: record.routedEntity, onSkip: onSkip)
                        }
                        onProgress?(records, record.position.offset)
                    }
                }
                pipeline.recycle(&batch, lightUnchanged: lightUnchanged, lightDrafted: lightDrafted)
            }
        } catch let error as JSONError {
            if error.kind == .io, let isCancelled = options.isCancelled, isCancelled() { throw ImportError.interrupted }
            if !tap.sawContent && error.kind != .io {
                if options.allowEmpty { return .emptyAllowed }
                throw ImportError.emptyInput
            }
            throw ImportError.json(error)
        }
        if !tap.sawContent && !options.allowEmpty { throw ImportError.emptyInput }
        if let isCancelled = options.isCancelled, isCancelled() { throw ImportError.interrupted }
        if let problem = InputShapeCheck.problem(routes: plan.routes, meta: plan.meta, outcomes: outcomes) { throw problem }
        return .read
    }

    /// The draft of a light record whose objects may have changed, made on this thread as the
    /// reading thread would have made it.
    private mutating func draftHere(_ light: LightRecord) -> Result<ObjectDraft?, RecordError> {
        precondition(lightDrafter != nil, "a light record with no builder to draft it")
        do throws(RecordError) {
            return .success(try lightDrafter!.draft(record: light.record, route: plan.routes[light.route], slots: light.slots))
        } catch {
            return .failure(error)
        }
    }

    /// Skips a record under `--skip-invalid`; without it, its error ends the import.
    private mutating func skip(_ error: RecordError, entity: Int?, onSkip: (RecordError) -> Void) throws(ImportError) {
        guard options.skipInvalid else { throw .record(error) }
        if let entity { skippedByEntity[entity] += 1 }
        skippedRecords += 1
        onSkip(error)
    }

    /// The reading's part of the summary: records, skips, bytes, format, fingerprint, unmapped keys.
    func fill(_ summary: inout ImportSummary) {
        summary.records = records
        summary.recordsKeptLight = recordsKeptLight
        summary.skippedRecords = skippedRecords
        summary.ignoredRecords = ignoredRecords
        summary.skippedElements = skippedElements
        summary.bytesRead = tap.byteCount
        summary.format = format
        summary.inputSHA256 = SHA256.hex(tap.hash.finish())
        summary.extrasKeys = plan.entities.indices.compactMap { index in
            let keys = index < extrasKeys.count ? extrasKeys[index] : [:]
            guard !keys.isEmpty else { return nil }
            return (plan.entities[index].name, keys.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }
}
