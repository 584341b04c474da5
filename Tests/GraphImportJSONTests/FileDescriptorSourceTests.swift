import Foundation
import GraphImportJSON
import GraphImportTestSupport
import Testing

/// Reading records straight from a file descriptor.
@Suite struct FileDescriptorSourceTests {
    @Test func readsRecordsFromAFile() throws {
        let directory = TemporaryDirectory()
        let lines = (0..<500).map { "{\"id\": \($0), \"name\": \"n\u{e9}\($0)\"}" }.joined(separator: "\n")
        let path = directory.write("feed.jsonl", lines)
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let reader = JSONRecordReader(
            source: FileDescriptorSource(fileDescriptor: descriptor), patterns: [.everyElement],
            options: JSONReaderOptions(bufferSize: 100))
        var ids: [String] = []
        while let record = try reader.next() {
            guard case .object(let object) = record.value, case .number(let id)? = object["id"] else { break }
            ids.append(id.literal)
            #expect(record.position.line == ids.count)
        }
        #expect(ids == (0..<500).map { "\($0)" })
        #expect(reader.format == .jsonLines)
        #expect(reader.bytesRead == lines.utf8.count)
    }

    @Test func reportsReadErrors() {
        let reader = JSONRecordReader(source: FileDescriptorSource(fileDescriptor: -1), patterns: [.everyElement])
        var failure: JSONError?
        do throws(JSONError) { _ = try reader.next() } catch { failure = error }
        #expect(failure?.kind == .io)
        #expect(failure?.description == "line 1, column 1: cannot read the input: Bad file descriptor (errno 9)")
    }
}
