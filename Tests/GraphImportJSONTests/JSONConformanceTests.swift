import Foundation
import GraphImportJSON
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// nst/JSONTestSuite: every `y_` file accepted, every `n_` file refused with a position, and each
    /// `i_` file (either is allowed) decided the documented way, by the parser and by the record
    /// reader both when it materialises values and when it only skips them.
    @Suite("JSONTestSuite")
    struct JSONTestSuiteTests {
        /// Our decision for each implementation-defined case, and why.
        static let implementationDefined: [String: Bool] = [
            // Numbers are kept as their literal, so size and precision are no reason to refuse them.
            "i_number_double_huge_neg_exp.json": true,
            "i_number_huge_exp.json": true,
            "i_number_neg_int_huge_exp.json": true,
            "i_number_pos_double_huge_exp.json": true,
            "i_number_real_neg_overflow.json": true,
            "i_number_real_pos_overflow.json": true,
            "i_number_real_underflow.json": true,
            "i_number_too_big_neg_int.json": true,
            "i_number_too_big_pos_int.json": true,
            "i_number_very_big_negative_int.json": true,
            // A lone surrogate escape names no Unicode scalar and cannot be stored as UTF-8: refused.
            "i_object_key_lone_2nd_surrogate.json": false,
            "i_string_1st_surrogate_but_2nd_missing.json": false,
            "i_string_1st_valid_surrogate_2nd_invalid.json": false,
            "i_string_incomplete_surrogate_and_escape_valid.json": false,
            "i_string_incomplete_surrogate_pair.json": false,
            "i_string_incomplete_surrogates_escape_valid.json": false,
            "i_string_invalid_lonely_surrogate.json": false,
            "i_string_invalid_surrogate.json": false,
            "i_string_inverted_surrogates_U+1D11E.json": false,
            "i_string_lone_second_surrogate.json": false,
            // Invalid UTF-8 is refused rather than silently replaced.
            "i_string_UTF-8_invalid_sequence.json": false,
            "i_string_UTF8_surrogate_U+D800.json": false,
            "i_string_invalid_utf-8.json": false,
            "i_string_iso_latin_1.json": false,
            "i_string_lone_utf8_continuation_byte.json": false,
            "i_string_not_in_unicode_range.json": false,
            "i_string_overlong_sequence_2_bytes.json": false,
            "i_string_overlong_sequence_6_bytes.json": false,
            "i_string_overlong_sequence_6_bytes_null.json": false,
            "i_string_truncated-utf-8.json": false,
            // UTF-16 is refused with a hint to convert it.
            "i_string_UTF-16LE_with_BOM.json": false,
            "i_string_utf16BE_no_BOM.json": false,
            "i_string_utf16LE_no_BOM.json": false,
            // 500 levels is within the default limit of 512.
            "i_structure_500_nested_arrays.json": true,
            // A UTF-8 byte order mark is allowed.
            "i_structure_UTF-8_BOM_empty_object.json": true,
        ]

        static func suiteFiles() throws -> [(name: String, bytes: [UInt8])] {
            guard let directory = Corpus.file("JSONTestSuite/test_parsing") else { return [] }
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            return try names.sorted().map { name in
                (name, [UInt8](try Data(contentsOf: directory.appendingPathComponent(name))))
            }
        }

        /// How each way of reading decides a file: nil when accepted, else the error.
        static func outcomes(_ bytes: [UInt8]) -> [JSONError?] {
            // The suite's two y_ files with a repeated key are valid JSON; the default refusal is tested apart.
            let options = JSONReaderOptions(rejectDuplicateKeys: false)
            var results: [JSONError?] = []
            do throws(JSONError) {
                _ = try JSONParser.parse(bytes, options: options)
                results.append(nil)
            } catch { results.append(error) }
            for patterns in [[JSONPathPattern.everyElement], [pattern(.key("\u{0}absent"))]] {
                do throws(JSONError) {
                    _ = try readRecords(bytes, patterns, format: .json, bufferSize: 7, rejectDuplicateKeys: false)
                    results.append(nil)
                } catch { results.append(error) }
            }
            return results
        }

        @Test func decidesEveryFileOfTheSuite() throws {
            guard Corpus.directory != nil else {
                Issue.record("the corpus directory was not found: set GRAPHIMPORT_CORPUS or check out shared/corpus")
                return
            }
            let files = try Self.suiteFiles()
            #expect(files.filter { $0.name.hasPrefix("y_") }.count == 95)
            #expect(files.filter { $0.name.hasPrefix("n_") }.count == 188)
            #expect(files.filter { $0.name.hasPrefix("i_") }.count == 35)
            for (name, bytes) in files {
                let results = Self.outcomes(bytes)
                if name.hasPrefix("y_") {
                    for case let error? in results { Issue.record("\(name) was refused: \(error)") }
                } else if name.hasPrefix("n_") {
                    for (way, result) in results.enumerated() {
                        guard let error = result else {
                            Issue.record("\(name) was accepted (way \(way))")
                            continue
                        }
                        #expect(
                            error.position.offset <= bytes.count && error.position.line >= 1 && error.position.column >= 1,
                            "\(name): \(error)")
                    }
                } else if let accept = Self.implementationDefined[name] {
                    for (way, result) in results.enumerated() where (result == nil) != accept {
                        Issue.record("\(name) (way \(way)) should be \(accept ? "accepted" : "refused"): \(String(describing: result))")
                    }
                } else {
                    Issue.record("\(name) has no documented decision")
                }
            }
        }

        /// The string scan in blocks and the portable one read every file of the suite alike: the
        /// same records, or the same error at the same position, building values and skipping them.
        @Test func blockAndPortableScansDecideEveryFileAlike() throws {
            for (name, bytes) in try Self.suiteFiles() {
                for patterns in [[JSONPathPattern.everyElement], [pattern(.key("\u{0}absent"))]] {
                    for bufferSize in [7, 1 << 16] {
                        let outcomes = [false, true].map { portable in
                            let options = JSONReaderOptions(rejectDuplicateKeys: false, bufferSize: bufferSize, portableScan: portable)
                            let reader = JSONRecordReader(source: BytesSource(bytes), patterns: patterns, format: .json, options: options)
                            var records: [JSONRecord] = []
                            do throws(JSONError) {
                                while let record = try reader.next() { records.append(record) }
                                return Result<[JSONRecord], JSONError>.success(records)
                            } catch {
                                return .failure(error)
                            }
                        }
                        #expect(outcomes[0] == outcomes[1], "\(name), \(patterns), bufferSize \(bufferSize)")
                    }
                }
            }
        }

        @Test func reportsUTF16WithAHint() throws {
            guard let url = Corpus.file("JSONTestSuite/test_parsing/i_string_UTF-16LE_with_BOM.json") else {
                Issue.record("the corpus directory was not found")
                return
            }
            let bytes = [UInt8](try Data(contentsOf: url))
            var failure: JSONError?
            do throws(JSONError) { _ = try JSONParser.parse(bytes) } catch { failure = error }
            #expect(failure?.description == "line 1, column 1: the input is UTF-16, not UTF-8")
            #expect(failure?.hint == "convert it with `iconv -f UTF-16 -t UTF-8`")
        }

        @Test func refusesTheSuitesDuplicateKeysByDefault() throws {
            guard let url = Corpus.file("JSONTestSuite/test_parsing/y_object_duplicated_key.json") else {
                Issue.record("the corpus directory was not found")
                return
            }
            let bytes = [UInt8](try Data(contentsOf: url))
            #expect(parseFailure(bytes) == "line 1, column 10: duplicate key \"a\" in an object")
        }
    }
}
