import GraphImportJSON
import Testing

/// The string scan in vector blocks must read exactly what the portable scan reads: the same
/// values, and the same errors at the same line and column.
@Suite("JSONBlockScan")
struct JSONBlockScanTests {
    /// Bytes a string scan stops at (or must refuse), each put at every place of a string that
    /// crosses several 16-byte blocks, read through windows whose edges cut blocks anywhere.
    static let stops: [[UInt8]] = [
        [UInt8(ascii: "\"")], Array(#"\""#.utf8), Array(#"\u00e9"#.utf8), Array("é".utf8), Array("🦄".utf8),
        [0x0A], [0x1F], [0x80], [0xFF], [0x7F], [0x20], [UInt8(ascii: "\\")],
    ]

    /// Each stop at each place, in a kept string, a key and a skipped value.
    static func documents() -> [[UInt8]] {
        var documents: [[UInt8]] = []
        for stop in stops {
            for place in 0...40 {
                let text = Array(repeating: UInt8(ascii: "a"), count: place) + stop + Array(repeating: UInt8(ascii: "b"), count: 40 - place)
                let string = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
                documents.append(Array("[{\"id\": 1, \"name\": ".utf8) + string + Array(", \"skip\": [".utf8) + string + Array("]}]".utf8))
                documents.append(Array("[{".utf8) + string + Array(": 1}]".utf8))
            }
        }
        return documents
    }

    static let projection = JSONProjection(nodes: [.init(members: ["id": 1, "name": 1]), .init(keepsAll: true)], root: 0)

    static func read(_ bytes: [UInt8], bufferSize: Int, projected: Bool, portable: Bool) -> Result<[JSONRecord], JSONError> {
        let options = JSONReaderOptions(bufferSize: bufferSize, portableScan: portable)
        let reader = JSONRecordReader(
            source: BytesSource(bytes), patterns: [.everyElement], projections: projected ? [projection] : [], options: options)
        var records: [JSONRecord] = []
        do throws(JSONError) {
            while let record = try reader.next() { records.append(record) }
            return .success(records)
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [1, 7, 15, 16, 17, 31, 33, 1 << 16])
    func blockScanReadsWhatThePortableScanReads(bufferSize: Int) {
        var refused = 0
        for document in Self.documents() {
            for projected in [false, true] {
                let blocks = Self.read(document, bufferSize: bufferSize, projected: projected, portable: false)
                let portable = Self.read(document, bufferSize: bufferSize, projected: projected, portable: true)
                #expect(blocks == portable, "\(String(decoding: document, as: UTF8.self))")
                if case .failure = blocks { refused += 1 }
            }
        }
        // The stray quote, raw controls and the invalid UTF-8 bytes are refused; the rest read.
        #expect(refused > 0)
    }

    @Test func aControlByteInAStringIsReportedWhereItIs() {
        let document = Array("[\n{\"id\": 1, \"name\": \"0123456789abcdef0123\u{01}\"}]".utf8)
        for portable in [false, true] {
            guard case .failure(let error) = Self.read(document, bufferSize: 1 << 16, projected: true, portable: portable) else {
                Issue.record("a raw control byte was accepted")
                continue
            }
            #expect(error.position.line == 2)
            #expect(error.position.column == 40)
        }
    }
}
