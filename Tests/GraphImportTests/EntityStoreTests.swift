@testable import GraphImport
import GraphImportSchema
import GraphImportStore
import Testing

/// `SQLiteEntityStore` on its own: one entity's rows, statements, queued join rows and key filter.
/// One store: SQLite's sink, below the rules both stores share.
@Suite("The store of one entity")
struct EntityStoreTests {
    @Test func findsAnInsertedObjectByItsKeyWithItsValues() throws {
        let fixture = try WritingFixture()
        let users = fixture.entityStore(1, startedEmpty: false)
        let pk = try users.insert(key(7), columns: [0, 1, 2, 3], values: [.integer(7), .text("Ann"), .integer(1), .integer(1)])
        let found = try #require(try users.find(key(7), expecting: []))
        #expect(found.pk == pk)
        #expect(found.values == [.integer(7), .text("Ann")])
        #expect(found.changedRun == .integer(1))
        #expect(try users.find(key(8), expecting: []) == nil)
    }

    /// "Held" means every value the caller gave is the row's; a value it did not give is not compared.
    @Test func saysWhetherTheRowHoldsTheExpectedValues() throws {
        let fixture = try WritingFixture()
        let users = fixture.entityStore(1, startedEmpty: false)
        _ = try users.insert(key(7), columns: [0, 1], values: [.integer(7), .text("Ann")])
        #expect(try users.find(key(7), expecting: [.integer(7), .text("Ann")])?.holdsExpected == true)
        #expect(try users.find(key(7), expecting: [.integer(7), nil])?.holdsExpected == true)
        #expect(try users.find(key(7), expecting: [.integer(7), .text("Bob")])?.holdsExpected == false)
    }

    @Test func updateWritesOnlyTheGivenColumns() throws {
        let fixture = try WritingFixture()
        let users = fixture.entityStore(1, startedEmpty: false)
        let pk = try users.insert(key(7), columns: [0, 1, 2, 3], values: [.integer(7), .text("Ann"), .integer(1), .integer(1)])
        try users.update(pk, columns: [1, 3], values: [.text("Bob"), .integer(2)])
        #expect(try fixture.rows(#"SELECT id, name, inserted_run, changed_run FROM "users""#) == [["7", "'Bob'", "1", "2"]])
    }

    /// A table that began empty holds only what the run inserted: a key never inserted is not looked up.
    @Test func aTableThatBeganEmptyIsNotAskedForKeysItNeverGot() throws {
        let fixture = try WritingFixture()
        let users = fixture.entityStore(1, startedEmpty: true)
        let log = SQLLog(fixture.database)
        defer { log.close() }
        #expect(try users.find(key(7), expecting: []) == nil)
        #expect(log.take().isEmpty)
        _ = try users.insert(key(7), columns: [0], values: [.integer(7)])
        _ = log.take()
        #expect(try users.find(key(7), expecting: [])?.values == [.integer(7), .null])
        #expect(log.take().count == 1)
    }

    /// Join rows wait in the store, yet no read of them can miss one: reading writes them first.
    @Test func queuedJoinRowsAreWrittenBeforeTheyAreRead() throws {
        let fixture = try WritingFixture()
        let posts = fixture.entityStore(0, startedEmpty: false)
        let tags = fixture.entityStore(2, startedEmpty: false)
        let targets = try (0..<3).map { index throws(StoreError) in try tags.insert(key("t\(index)"), columns: [0], values: [.text("t\(index)")]) }
        let pk = try posts.insert(key(1), columns: [0, 1], values: [.integer(1), .text("a")])
        try posts.setList(targets, of: pk, relationship: 0, replacing: false)
        #expect(try fixture.rows(#"SELECT count(*) FROM "posts_tags""#) == [["0"]])
        let read = try posts.list(of: pk, relationship: 0, expecting: targets)
        #expect(read.list == targets && read.isExpected)
        #expect(try fixture.rows(#"SELECT count(*) FROM "posts_tags""#) == [["3"]])
        #expect(try posts.list(of: pk, relationship: 0, expecting: [targets[0]]) == (targets, false))
    }

    @Test func replacingAListDeletesTheOldRowsAndKeepsTheNewOrder() throws {
        let fixture = try WritingFixture()
        let posts = fixture.entityStore(0, startedEmpty: false)
        let tags = fixture.entityStore(2, startedEmpty: false)
        let targets = try (0..<3).map { index throws(StoreError) in try tags.insert(key("t\(index)"), columns: [0], values: [.text("t\(index)")]) }
        let pk = try posts.insert(key(1), columns: [0, 1], values: [.integer(1), .text("a")])
        try posts.setList(targets, of: pk, relationship: 0, replacing: false)
        try posts.setList([targets[2], targets[0]], of: pk, relationship: 0, replacing: true)
        try posts.flush()
        #expect(try posts.list(of: pk, relationship: 0, expecting: nil).list == [targets[2], targets[0]])
        #expect(try fixture.rows(#"SELECT count(*) FROM "posts_tags""#) == [["2"]])
    }

    /// Many rows go to SQLite in full statements as they are queued; the rest wait for `flush`, or are dropped.
    @Test func discardingDropsOnlyWhatIsStillQueued() throws {
        let fixture = try WritingFixture()
        let posts = fixture.entityStore(0, startedEmpty: false)
        let tags = fixture.entityStore(2, startedEmpty: false)
        let count = EntitySQL.linksPerInsert + 3
        let targets = try (0..<count).map { index throws(StoreError) in try tags.insert(key("t\(index)"), columns: [0], values: [.text("t\(index)")]) }
        let pk = try posts.insert(key(1), columns: [0, 1], values: [.integer(1), .text("a")])
        try posts.setList(targets, of: pk, relationship: 0, replacing: false)
        #expect(try fixture.rows(#"SELECT count(*) FROM "posts_tags""#) == [["\(EntitySQL.linksPerInsert)"]])
        posts.discardQueued()
        try posts.flush()
        #expect(try fixture.rows(#"SELECT count(*) FROM "posts_tags""#) == [["\(EntitySQL.linksPerInsert)"]])
    }

    /// Deletion asks in sets: holders come in the order of the targets asked for, deletions as a count.
    @Test func answersDeletionsQuestionsASetAtATime() throws {
        let fixture = try WritingFixture()
        let posts = fixture.entityStore(0, startedEmpty: false)
        let users = fixture.entityStore(1, startedEmpty: false)
        let tags = fixture.entityStore(2, startedEmpty: false)
        let ann = try users.insert(key(1), columns: [0], values: [.integer(1)])
        let bob = try users.insert(key(2), columns: [0], values: [.integer(2)])
        let tag = try tags.insert(key("x"), columns: [0], values: [.text("x")])
        var postPKs: [Int64] = []
        for (id, author) in [(10, ann), (11, bob), (12, bob)] {
            postPKs.append(try posts.insert(key(Int64(id)), columns: [0, 1, 2], values: [.integer(Int64(id)), .text("p"), .integer(author)]))
        }
        try posts.setList([tag], of: postPKs[1], relationship: 0, replacing: false)
        #expect(try posts.allObjects().sorted() == postPKs)
        #expect(try posts.links(ofToOne: 0).map(\.target).sorted() == [ann, bob, bob])
        #expect(try posts.holders(ofToOne: 0, targets: [bob, ann]).map(\.target) == [bob, bob, ann])
        #expect(try posts.holders(ofToMany: 0, targets: [tag]).map(\.pk) == [postPKs[1]])
        #expect(try posts.key(of: postPKs[2]) == [.integer(12)])
        #expect(try posts.key(of: 999) == [])
        #expect(try posts.delete([postPKs[0], 999]) == 1)
        #expect(try posts.allObjects().sorted() == Array(postPKs.dropFirst()))
    }
}
