import GraphImportJSON
import GraphImportMapping
import GraphImportStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How an import treats bad records and whether it keeps what it did.
public struct ImportOptions: Sendable {
    /// Skip records that do not fit the map (each reported), and commit the rest.
    public var skipInvalid = false
    /// Do everything, report it, and roll it back.
    public var dryRun = false
    /// JSON, JSON Lines, or decided from the input.
    public var format: JSONInputFormat = .auto
    /// How long to wait for another process's write lock, in seconds.
    public var busyTimeout: Double = 30
    /// Accept an input that holds no JSON at all (zero bytes or only whitespace).
    /// Off by default: from cron, an empty feed usually means a failed download.
    public var allowEmpty = false

    public init(skipInvalid: Bool = false, dryRun: Bool = false, format: JSONInputFormat = .auto, busyTimeout: Double = 30, allowEmpty: Bool = false) {
        self.skipInvalid = skipInvalid
        self.dryRun = dryRun
        self.format = format
        self.busyTimeout = busyTimeout
        self.allowEmpty = allowEmpty
    }
}

/// What an import did.
public struct ImportSummary: Sendable {
    public var input: String
    public var store: String
    public var records = 0
    public var skippedRecords = 0
    /// Per entity, in the map's order.
    public var entities: [(name: String, counts: EntityCounts)] = []
    /// Schema changes made to the store (`add table hashtag`).
    public var schemaChanges: [String] = []
    public var format: JSONInputFormat = .auto
    public var bytesRead = 0
    public var seconds = 0.0
    public var dryRun = false

    /// True when any object was inserted or updated.
    public var changed: Bool { entities.contains { $0.counts.inserted + $0.counts.updated > 0 } }
}

/// Imports a feed into a store with one plan: the whole run is one transaction.
public struct GraphImporter: Sendable {
    public let plan: ImportPlan

    public init(plan: ImportPlan) { self.plan = plan }

    /// Reads records from `source` and upserts them into the store at `storePath`.
    ///
    /// Either everything is committed or nothing is: on any error the transaction is rolled
    /// back, and a store file this run created is removed again.
    /// - Parameter onSkip: called for each record dropped under `skipInvalid`.
    public func run(
        source: some JSONByteSource, inputName: String, storePath: String, options: ImportOptions,
        onSkip: (RecordError) -> Void = { _ in }, onProgress: ((Int, Int) -> Void)? = nil
    ) throws(ImportError) -> ImportSummary {
        let started = monotonicSeconds()
        var summary = ImportSummary(input: inputName, store: storePath)
        summary.dryRun = options.dryRun
        let store: Store
        do {
            store = try Store(path: storePath, options: Database.Options(create: true, readOnly: false, busyTimeout: options.busyTimeout))
        } catch {
            throw .store(path: storePath, StoreFailure(error))
        }
        var committed = false
        defer {
            if !committed {
                store.database.rollback()
                if store.createdFile { removeStoreFiles(storePath) }
            }
        }
        do {
            try store.database.beginImmediate()
            let migration = try store.migrate(to: plan.schema, mapName: plan.mapping.fileName, mapText: plan.mapping.source)
            if !migration.refusals.isEmpty {
                throw ImportError.migration(
                    store: storePath, refusals: migration.refusals.map(\.message), hints: migration.refusals.map(\.hint))
            }
            summary.schemaChanges = migration.changes
        } catch let error as ImportError {
            throw error
        } catch let error as StoreError {
            throw .store(path: storePath, StoreFailure(error))
        } catch {
            throw .store(path: storePath, StoreFailure(StoreError(extendedCode: 1, message: "\(error)")))
        }

        let sniffer = SniffedContent()
        let reader = JSONRecordReader(source: ContentSniffingSource(source, seen: sniffer), patterns: plan.recordSources.map(\.pattern), format: options.format)
        let writer = GraphWriter(plan: plan, database: store.database)
        var builder = DraftBuilder(plan: plan)
        var skipped = Array(repeating: 0, count: plan.entities.count)
        do {
            while let record = try reader.next() {
                summary.records += 1
                let entity = plan.recordSources[record.patternIndex].entity
                let draft: ObjectDraft
                do {
                    draft = try builder.draft(record: record, entity: entity)
                } catch {
                    guard options.skipInvalid else { throw ImportError.record(error) }
                    skipped[entity] += 1
                    summary.skippedRecords += 1
                    onSkip(error)
                    continue
                }
                try writer.write(draft)
                onProgress?(summary.records, reader.bytesRead)
            }
            if !sniffer.sawContent && !options.allowEmpty { throw ImportError.emptyInput }
            summary.bytesRead = reader.bytesRead
            summary.format = reader.format
            let counts = writer.counts()
            summary.entities = plan.entities.indices.map { index in
                var entityCounts = counts[index]
                entityCounts.skipped = skipped[index]
                return (plan.entities[index].name, entityCounts)
            }
            if !options.dryRun {
                try store.database.commit()
                committed = true
            }
        } catch let error as ImportError {
            throw error
        } catch let error as JSONError {
            if !sniffer.sawContent && error.kind != .io {
                if options.allowEmpty { return try emptySummary(summary, store: store, started: started, committed: &committed) }
                throw .emptyInput
            }
            throw .json(error)
        } catch let error as StoreError {
            throw .store(path: storePath, StoreFailure(error))
        } catch {
            throw .store(path: storePath, StoreFailure(StoreError(extendedCode: 1, message: "\(error)")))
        }
        summary.seconds = monotonicSeconds() - started
        return summary
    }
}

extension GraphImporter {
    /// The summary of an input that held nothing, committing the schema so the store exists.
    private func emptySummary(_ summary: ImportSummary, store: Store, started: Double, committed: inout Bool) throws(ImportError) -> ImportSummary {
        var summary = summary
        summary.entities = plan.entities.map { ($0.name, EntityCounts()) }
        if !summary.dryRun {
            do { try store.database.commit() } catch { throw .store(path: summary.store, StoreFailure(error)) }
            committed = true
        }
        summary.seconds = monotonicSeconds() - started
        return summary
    }
}

/// Removes a store file (and its rollback journal) that a failed run created.
func removeStoreFiles(_ path: String) {
    unlink(path)
    unlink(path + "-journal")
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
