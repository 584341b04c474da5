import GraphImportJSON

/// Every record `patterns` select from `text`, read through a window of `bufferSize` bytes.
func readRecords(
    _ text: String, _ patterns: [JSONPathPattern], format: JSONInputFormat = .auto, bufferSize: Int = 1 << 16
) throws(JSONError) -> [JSONRecord] {
    try readRecords(Array(text.utf8), patterns, format: format, bufferSize: bufferSize)
}

func readRecords(
    _ bytes: [UInt8], _ patterns: [JSONPathPattern], format: JSONInputFormat = .auto, bufferSize: Int = 1 << 16,
    rejectDuplicateKeys: Bool = true
) throws(JSONError) -> [JSONRecord] {
    let options = JSONReaderOptions(rejectDuplicateKeys: rejectDuplicateKeys, bufferSize: bufferSize)
    let reader = JSONRecordReader(source: BytesSource(bytes), patterns: patterns, format: format, options: options)
    var records: [JSONRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

/// The error's whole description, or "accepted" when there was none.
func parseFailure(_ bytes: [UInt8], options: JSONReaderOptions = .init()) -> String {
    do throws(JSONError) {
        _ = try JSONParser.parse(bytes, options: options)
        return "accepted"
    } catch {
        return error.description
    }
}

func parseFailure(_ text: String) -> String { parseFailure(Array(text.utf8)) }

/// Shorthand for patterns in tests: `pattern(.key("statuses"), .anyIndex)`.
func pattern(_ components: JSONPathPattern.Component...) -> JSONPathPattern { JSONPathPattern(components) }
