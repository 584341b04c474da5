import Foundation
import GraphImportJSON

/// A record after phase one: where it was, and its draft (nil: ignored by its route) or why not.
struct DraftedRecord: Sendable {
    let index: Int
    let position: JSONPosition
    let path: JSONPathPattern
    let draft: Result<ObjectDraft?, RecordError>
    /// The entity the record was routed to, when known (to count it if it is skipped).
    let routedEntity: Int?
    /// Elements relationships with `unkeyed skip` left out of the record, counted once it is
    /// written; nil for most records.
    var skippedElements: [SkippedElement]? = nil
    /// The record handed over light (`draft` is then `.success(nil)`, unread): its objects' keys
    /// and digests, drafted by the writer only if one may have changed.
    var light: LightRecord? = nil
}

/// Parses and drafts records on the machine's other core while the importer writes them.
///
/// Reading and drafting (pure: they never touch the store) run on their own thread and hand over
/// batches through a small bounded queue, so they overlap the writes and memory stays bounded
/// whatever the size of the feed. Made before the store's lock is taken, the queue may first hold
/// up to `readAhead` records, so that an import reads its input while another holds the lock.
final class RecordPipeline: @unchecked Sendable {
    /// What the reading thread hands over.
    enum Item {
        case records([DraftedRecord])
        /// The end of the input, with what the reader and the drafts learned on the way.
        /// `outcomes` has one entry per pattern of the reader, record patterns first.
        case end(captured: [Int: JSONValue], format: JSONInputFormat, extrasKeys: [[String: Int]], outcomes: [JSONPatternOutcome])
        case failure(JSONError)
    }

    private let condition = NSCondition()
    private var queue: [Item] = []
    private var stopped = false
    /// Batches the importer is done with, freed by the reading thread (see `recycle`).
    private var done: [[DraftedRecord]] = []
    private static let batchSize = 128
    private static let capacity = 8
    /// Batches the reading thread may queue: more until `endReadAhead`, then `capacity`.
    private var limit: Int
    /// Whether the next batch goes light, from the writer's reports (`recycle`).
    private var advice = HandOverAdvice()
    private let handsOverLight: LightHandOver

    /// With `skipsMalformedLines`, a malformed text of JSON Lines is handed over as a record
    /// that failed (and the reading goes on at the next line) instead of ending the input.
    /// `handsOverLight`: whether records may go light (`LightRecord`); only where the builder
    /// reads slot tables and no entity keeps its first occurrence (`FirstOccurrences` reads
    /// every draft).
    init(
        reader: JSONRecordReader, builder: DraftBuilder, routes: [RecordRoute], skipsMalformedLines: Bool = false, readAhead: Int = 0,
        handsOverLight: LightHandOver = .never
    ) {
        limit = max(Self.capacity, readAhead / Self.batchSize)
        self.handsOverLight = builder.readsSlots && !FirstOccurrences(plan: builder.plan).isActive ? handsOverLight : .never
        let box = ReaderBox(reader)
        Thread.detachNewThread { [self] in
            produce(box.reader, builder: builder, routes: routes, skipsMalformedLines: skipsMalformedLines)
        }
    }

    /// The next item, waiting for the reading thread when the queue is empty; nil when
    /// `isCancelled` says stop while waiting. The wait wakes every 100 ms to ask: a signal may
    /// be delivered to this thread while the reading thread stays blocked on a quiet pipe.
    func next(isCancelled: (@Sendable () -> Bool)?) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            if let isCancelled, isCancelled() { return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        let item = queue.removeFirst()
        condition.broadcast()
        return item
    }

    /// Hands a written batch back, so that the reading thread, which allocated its drafts, also
    /// frees them: freeing was a quarter of the writing thread's time (and memory freed on another
    /// thread than it came from costs malloc a lock).
    ///
    /// Takes the batch out of `batch` (leaving it empty), so that the reading thread holds its
    /// only reference and can keep its array for a later batch (see `push`).
    ///
    /// `unchanged` and `drafted`: of the batch's light records, those the writer found unchanged
    /// and those it drafted (`HandOverAdvice`).
    func recycle(_ batch: inout [DraftedRecord], lightUnchanged unchanged: Int = 0, lightDrafted drafted: Int = 0) {
        var written: [DraftedRecord] = []
        swap(&written, &batch)
        condition.lock()
        done.append(consume written)
        advice.report(unchanged: unchanged, drafted: drafted)
        condition.unlock()
    }

    /// Whether the batch the reading thread starts goes light.
    private func nextBatchIsLight() -> Bool {
        switch handsOverLight {
        case .never: return false
        case .always: return true
        case .advised:
            condition.lock()
            defer { condition.unlock() }
            return advice.nextBatchIsLight()
        }
    }

    /// Ends the read-ahead (the store is ready to write): from now on the reading thread waits
    /// while the queue holds `capacity` batches, once the importer has taken what it read ahead.
    func endReadAhead() {
        condition.lock()
        limit = Self.capacity
        condition.unlock()
    }

    /// Tells the reading thread to stop at its next batch (the import failed or was interrupted).
    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Queues `item`; false when the consumer has stopped. `spare` receives a written batch's
    /// array, emptied with its capacity kept, for the next batch: a new array of 128 records for
    /// every batch was a large allocation each time, which made malloc consolidate its free lists.
    private func push(_ item: Item, spare: inout [DraftedRecord]) -> Bool {
        // Released after the lock, on this thread: the last references to the written batches.
        var written: [[DraftedRecord]] = []
        condition.lock()
        defer {
            condition.unlock()
            if var reused = written.popLast() {
                reused.removeAll(keepingCapacity: true)
                spare = reused
            }
            written.removeAll()
        }
        while queue.count >= limit && !stopped { condition.wait() }
        swap(&written, &done)
        if stopped { return false }
        queue.append(item)
        condition.broadcast()
        return true
    }

    private func push(_ item: Item) -> Bool {
        var ignored: [DraftedRecord] = []
        return push(item, spare: &ignored)
    }

    private func produce(_ reader: JSONRecordReader, builder: DraftBuilder, routes: [RecordRoute], skipsMalformedLines: Bool) {
        var builder = builder
        var batch: [DraftedRecord] = []
        batch.reserveCapacity(Self.batchSize)
        // The entity a malformed line counts for: the map's only one, when every route leads to it.
        let entities = routes.map { route -> Int? in if case .entity(let entity) = route.target { entity } else { nil } }
        let soleEntity = Set(entities).count == 1 ? entities[0] : nil
        var slots = JSONSlots()
        var light = nextBatchIsLight()
        /// Adds a record to the batch and hands a full batch over; false when the consumer stopped.
        func hand(_ record: DraftedRecord) -> Bool {
            batch.append(record)
            guard batch.count == Self.batchSize else { return true }
            var next: [DraftedRecord] = []
            guard push(.records(batch), spare: &next) else { return false }
            batch = next
            if batch.capacity < Self.batchSize { batch.reserveCapacity(Self.batchSize) }
            light = nextBatchIsLight()
            return true
        }
        do throws(JSONError) {
            while true {
                let next: JSONRecord?
                do throws(JSONError) {
                    next = try builder.readsSlots ? reader.next(into: &slots) : reader.next()
                } catch {
                    let index = reader.nextRecordIndex
                    guard skipsMalformedLines, try reader.skipMalformedText(after: error) else { throw error }
                    let failure = RecordError(
                        recordIndex: index, position: error.position, path: "$", member: nil, message: error.message,
                        hint: "this line is not valid JSON; it was skipped whole")
                    batch.append(
                        DraftedRecord(index: index, position: error.position, path: .root, draft: .failure(failure), routedEntity: soleEntity))
                    continue
                }
                guard let record = next else { break }
                // Read into the table, the record's value is the table's (`record.value` is not
                // read): a tree of it is made only where choosing the route or drafting reads one.
                let routed: (route: Int?, tree: JSONValue?) =
                    builder.readsSlots
                    ? routes.route(takingRecordIn: slots, matchedBy: record.patternIndex)
                    : (routes.route(taking: record.value, matchedBy: record.patternIndex), nil)
                var draft: Result<ObjectDraft?, RecordError> = .success(nil)
                var routedEntity: Int?
                var skipped: [SkippedElement]?
                // No route takes a record that no `where` of its path holds for: it is passed over.
                if let route = routed.route, light,
                    let record = builder.lightRecord(record: record, route: route, routes: routes, slots: slots)
                {
                    let entity: Int? = if case .entity(let entity) = routes[route].target { entity } else { nil }
                    var handed = DraftedRecord(
                        index: record.record.index, position: record.record.position, path: record.record.path, draft: .success(nil),
                        routedEntity: entity)
                    handed.light = record
                    guard hand(handed) else { return }
                    continue
                }
                if let route = routed.route {
                    if builder.readsRoot {
                        builder.takeRootValues(
                            reader.captured, documents: reader.capturedDocuments, captures: reader.captureCount, document: record.documentIndex)
                    }
                    do {
                        draft = .success(
                            try builder.draft(record: record, route: routes[route], slots: builder.readsSlots ? slots : nil, tree: routed.tree))
                    } catch {
                        draft = .failure(error)
                    }
                    routedEntity = builder.routedEntity
                    if !builder.skipped.isEmpty { skipped = builder.skipped }
                }
                let drafted = DraftedRecord(
                    index: record.index, position: record.position, path: record.path, draft: draft, routedEntity: routedEntity,
                    skippedElements: skipped)
                guard hand(drafted) else { return }
            }
            if !batch.isEmpty { guard push(.records(batch)) else { return } }
            let outcomes = (0..<reader.patternCount).map { reader.outcome(ofPattern: $0) }
            _ = push(.end(captured: reader.captured, format: reader.format, extrasKeys: builder.extrasKeys, outcomes: outcomes))
        } catch {
            if !batch.isEmpty { guard push(.records(batch)) else { return } }
            _ = push(.failure(error))
        }
    }
}

/// Carries the reader (a class that is used by one thread at a time) to the reading thread.
private struct ReaderBox: @unchecked Sendable {
    let reader: JSONRecordReader
    init(_ reader: JSONRecordReader) { self.reader = reader }
}
