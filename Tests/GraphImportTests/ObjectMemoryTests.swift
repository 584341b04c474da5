@testable import GraphImport
import GraphImportSchema
import Testing

/// `ObjectMemory` on its own: the objects a run met, their fates, and the journal that undoes a record.
@Suite("The run's memory of objects")
struct ObjectMemoryTests {
    /// Two entities; the second column of each is an `onchange` marker, left out of digests.
    func memory(generationSize: Int = 4) -> ObjectMemory {
        ObjectMemory(unchanging: [[1], [1]], generationSize: generationSize)
    }

    func object(_ pk: Int64, _ value: String, _ status: KnownObject.Status) -> KnownObject {
        KnownObject(pk: pk, values: [.text(value), .integer(0)], status: status)
    }

    @Test func remembersObjectsPerEntityByKey() {
        let memory = memory()
        let ann = object(1, "ann", .inserted)
        memory.add(ann, 0, key(1))
        #expect(memory.object(0, key(1)) === ann)
        #expect(memory.object(1, key(1)) == nil)
        #expect(memory.metPKs(0) == [1])
        #expect(memory.invariantViolations().isEmpty)
    }

    /// Undoing a record forgets the objects it brought into memory and puts back those it changed.
    @Test func rollingBackARecordRestoresWhatItChanged() {
        let memory = memory()
        let kept = object(1, "ann", .referenced)
        memory.add(kept, 0, key(1))
        memory.beginRecord()
        memory.add(object(2, "bob", .inserted), 0, key(2))
        memory.willChange(kept, 0, key(1))
        kept.status = .touched
        kept.keepOriginal(ignoring: [1], markerColumns: [1])
        kept.values[0] = .text("changed")
        kept.setList(0, [5, 6])
        memory.rollbackRecord()
        #expect(memory.object(0, key(2)) == nil)
        #expect(kept.values == [.text("ann"), .integer(0)])
        #expect(kept.status == .referenced && kept.originalDigest == nil && kept.list(0) == nil)
        #expect(memory.invariantViolations().isEmpty)
    }

    @Test func aCommittedRecordStays() {
        let memory = memory()
        memory.beginRecord()
        memory.add(object(2, "bob", .inserted), 0, key(2))
        memory.commitRecord()
        memory.rollbackRecord()
        #expect(memory.object(0, key(2)) != nil)
    }

    /// Counted once per object: inserted, touched and back where it began (unchanged), touched and changed (updated).
    @Test func countsEachObjectOnceByItsFate() {
        let memory = memory()
        memory.add(object(1, "a", .inserted), 0, key(1))
        let same = object(2, "b", .touched)
        same.keepOriginal(ignoring: [1], markerColumns: [1])
        same.values = [.text("b"), .integer(9)]
        memory.add(same, 0, key(2))
        let changed = object(3, "c", .touched)
        changed.keepOriginal(ignoring: [1], markerColumns: [1])
        changed.values[0] = .text("C")
        memory.add(changed, 0, key(3))
        memory.add(object(4, "d", .referenced), 0, key(4))
        #expect(memory.counts(0) == EntityCounts(inserted: 1, updated: 1, unchanged: 1))
        #expect(memory.counts(1) == EntityCounts())
    }

    /// Objects that leave memory keep their fate: they are still counted and still known as met.
    @Test func retiredObjectsAreStillCountedAndMet() {
        let memory = memory(generationSize: 2)
        for pk in Int64(1)...6 {
            memory.add(object(pk, "v\(pk)", .inserted), 0, key(pk))
            memory.retireIfFull()
        }
        #expect(memory.object(0, key(1)) == nil)
        #expect(memory.fate(0, of: 1)?.fate.status == .inserted)
        #expect(memory.counts(0).inserted == 6)
        #expect(memory.metPKs(0) == Set(1...6))
        #expect(memory.invariantViolations().isEmpty)
    }

    /// Only objects whose markers were written and whose changes cancelled out get their markers back.
    @Test func namesTheObjectsWhoseMarkersGoBack() {
        let memory = memory()
        let back = object(1, "a", .touched)
        back.keepOriginal(ignoring: [1], markerColumns: [1])
        back.values[1] = .integer(7)
        back.markersWritten = true
        memory.add(back, 0, key(1))
        let changed = object(2, "b", .touched)
        changed.keepOriginal(ignoring: [1], markerColumns: [1])
        changed.values[0] = .text("B")
        changed.markersWritten = true
        memory.add(changed, 0, key(2))
        var named: [(Int64, [SQLValue])] = []
        memory.forEachNetUnchanged(0) { pk, markers, _ in named.append((pk, markers)) }
        #expect(named.map(\.0) == [1])
        #expect(named.first?.1 == [.integer(0), .null])
    }

    @Test func forgottenObjectsAreNoLongerMet() {
        let memory = memory(generationSize: 1)
        memory.add(object(1, "a", .inserted), 0, key(1))
        memory.retireIfFull()
        memory.add(object(2, "b", .inserted), 0, key(2))
        memory.forget(0, [1, 2])
        #expect(memory.metPKs(0).isEmpty)
        #expect(memory.counts(0) == EntityCounts())
    }

    /// The invariants are checked, not assumed: breaking one is reported.
    @Test func reportsBrokenInvariants() {
        let memory = memory()
        memory.add(object(1, "a", .inserted), 0, key(1))
        memory.add(object(1, "a", .inserted), 0, key(2))
        let inserted = object(3, "c", .inserted)
        inserted.originalDigest = 1
        memory.add(inserted, 1, key(3))
        memory.beginRecord()
        #expect(
            memory.invariantViolations() == [
                "a record is open", "entity 0: row id 1 is in memory twice", "entity 1: inserted object 3 has an original digest",
            ])
    }
}
