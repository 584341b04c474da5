import GraphImport
import Testing

/// `graphimport check --sample` follows a polymorphic relationship's choice as an import does.
extension SampleCheckTests {
    static let album = """
        records at $[*] as Album
        entity Album
          key id
          id : Int
          media <- items : [Photo | Video] by type
            "photo" -> Photo
            "video" -> Video
        entity Photo
          key id
          id : Int
          width : Int
        entity Video
          key id
          id : Int
          seconds : Int?

        """

    @Test func elementsNoCaseTakesAreCountedAtTheByClause() throws {
        let sample = #"[{"id":1,"items":[{"type":"photo","id":5,"width":3},{"type":"audio","id":6},{"type":"gif","id":7}]}]"#
        let report = try check(Self.album, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:5:36: warning: 2 of 3 elements of 'items' (Album.media) do not fit the map: no case of the map for type = 'audio' (first: record 0 at line 1, column 2, $[0].items[1])"
            ])
    }

    @Test func eachBranchReadsOnlyTheElementsChosenForItsEntity() throws {
        // Photo.width is required: a video without it is no warning, as an import reads no width there.
        let sample = #"[{"id":1,"items":[{"type":"photo","id":5,"width":3},{"type":"video","id":6,"seconds":2}]}]"#
        #expect(try check(Self.album, sample: sample).diagnostics.isEmpty)
    }

    @Test func aPathNoObjectHoldsIsReportedOnce() throws {
        let report = try check(Self.album.replacingOccurrences(of: "<- items", with: "<- itms"), sample: #"[{"id":1,"items":[]}]"#)
        #expect(report.diagnostics.map(\.headline) == ["test.map:5:12: warning: no record of the sample holds 'itms' (Album.media): 0 of 1 Album object"])
    }
}
