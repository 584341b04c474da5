import Foundation
import GraphImport
import GraphImportJSON
import GraphImportSchema

/// How a finished import is shown: a table for people on stderr, one JSON object for scripts.
enum SummaryFormat {
    /// The summary for people: a headline, then a row per entity.
    ///
    /// The headline counts only the records that went in: `imported 1 of 3 records (2 skipped)`,
    /// never "imported 3" when two were skipped, nor "already in" for records that were rejected.
    static func text(_ summary: ImportSummary) -> String {
        let seconds = String(format: "%.2f", summary.seconds)
        // "3 records", or "1 of 3 records" when some were skipped or ignored.
        let records =
            summary.importedRecords == summary.records
            ? counted(summary.records, "record") : "\(summary.importedRecords) of \(counted(summary.records, "record"))"
        var notes: [String] = []
        if summary.skippedRecords > 0 { notes.append("\(summary.skippedRecords) skipped") }
        if summary.ignoredRecords > 0 { notes.append("\(summary.ignoredRecords) ignored") }
        notes.append("\(seconds) s")
        let tail = " (" + notes.joined(separator: ", ") + ")\n"
        var text: String
        if summary.unchangedInput {
            return "graphimport: skipped: \(summary.input) is the same as the last successful run's input (--if-changed)\n"
        }
        if summary.dryRun {
            text = "graphimport: dry run: \(records) from \(summary.input) checked against \(summary.store); nothing was written" + tail
        } else if summary.records == 0 {
            text = "graphimport: no records: \(summary.input) holds an empty feed; no object of \(summary.store) was changed" + tail
        } else if summary.importedRecords == 0 && summary.skippedRecords > 0 {
            text = "graphimport: nothing imported: \(records) from \(summary.input) went into \(summary.store)" + tail
        } else if summary.changed {
            text = "graphimport: imported \(records) from \(summary.input) into \(summary.store)" + tail
        } else {
            text = "graphimport: nothing changed: \(records) from \(summary.input) already in \(summary.store)" + tail
        }
        for change in summary.schemaChanges { text += "  schema: \(change)\n" }
        let showDeleted = summary.entities.contains { $0.counts.deleted > 0 }
        let showNotInserted = summary.entities.contains { $0.counts.notInserted > 0 }
        let showPassedOver = summary.entities.contains { $0.counts.passedOver > 0 }
        let showStubs = summary.entities.contains { $0.counts.stubs > 0 || $0.counts.stubsCompleted > 0 }
        var header = ["entity", "inserted", "updated", "unchanged", "skipped"]
        if showDeleted { header.append("deleted") }
        if showNotInserted { header.append("not inserted") }
        if showPassedOver { header.append("passed over") }
        if showStubs { header += ["stubs", "stubs completed"] }
        let rows = summary.entities.map { entity in
            [entity.name, String(entity.counts.inserted), String(entity.counts.updated), String(entity.counts.unchanged), String(entity.counts.skipped)]
                + (showDeleted ? [String(entity.counts.deleted)] : []) + (showNotInserted ? [String(entity.counts.notInserted)] : [])
                + (showPassedOver ? [String(entity.counts.passedOver)] : [])
                + (showStubs ? [String(entity.counts.stubs), String(entity.counts.stubsCompleted)] : [])
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            var line = "  " + row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
            for column in 1..<row.count {
                line += "  " + String(repeating: " ", count: widths[column] - row[column].count) + row[column]
            }
            text += line + "\n"
        }
        for deletion in summary.deletions {
            let more = deletion.count > deletion.sampleKeys.count ? ", …" : ""
            let verb = summary.dryRun ? "would delete" : "deleted"
            text += "  \(verb) \(deletion.entity): \(deletion.sampleKeys.joined(separator: ", "))\(more)\n"
        }
        for unlinked in summary.unlinked {
            let first = unlinked.samples.map { "\($0.key) at \($0.path)" }.joined(separator: ", ")
            let more = unlinked.count > unlinked.samples.count ? ", …" : ""
            text +=
                "  not linked \(unlinked.member): \(counted(unlinked.count, "key")) of no stored \(unlinked.target) (\(first)\(more))\n"
        }
        if summary.deletionsSuspended {
            text += "  delete missing was not applied: records were skipped, and their objects must not count as missing\n"
        }
        for skipped in summary.skippedElements {
            let more = skipped.count > skipped.paths.count ? ", …" : ""
            text +=
                "  skipped \(counted(skipped.count, "element")) of \(skipped.member) (unkeyed skip): \(skipped.reason) at \(skipped.paths.joined(separator: ", "))\(more)\n"
        }
        for extras in summary.extrasKeys {
            text += "  extras of \(extras.entity): \(extras.keys.map(\.key).joined(separator: ", "))\n"
        }
        for (key, value) in summary.meta {
            text += "  meta \(key) = \(value.map { escapeControlCharacters($0.description) } ?? "(removed)")\n"
        }
        if summary.ignoredRecords > 0 {
            text +=
                "graphimport: \(summary.ignoredRecords) record\(summary.ignoredRecords == 1 ? " was" : "s were") ignored by the map's `-> ignore` cases, `records … where` conditions, or as `null` or `\"\"` where a records path ends at a key\n"
        }
        if summary.skippedRecords > 0 {
            text += "graphimport: \(summary.skippedRecords) record\(summary.skippedRecords == 1 ? " was" : "s were") skipped (see above)\n"
        }
        return text
    }

    /// One JSON object for scripts; keys are stable and documented in the README. `outcome` is what
    /// the run did (`ImportOutcome`: `imported`, `unchanged`, `skipped_unchanged_input`, `dry_run`;
    /// `failed` is `FailureReport`'s), `exit_status` the process's.
    static func json(_ summary: ImportSummary, status: ExitCode) -> String {
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(literal: String(value))) }
        let deletions = summary.deletions.map { deletion in
            JSONMember(key: deletion.entity, value: .array(deletion.sampleKeys.map { .string($0) }))
        }
        let extras = summary.extrasKeys.map { extras in
            JSONMember(key: extras.entity, value: .object(JSONObject(extras.keys.map { JSONMember(key: $0.key, value: number($0.count)) })))
        }
        let skippedElements = summary.skippedElements.map { skipped in
            JSONMember(
                key: skipped.member,
                value: .object(
                    JSONObject([
                        JSONMember(key: "count", value: number(skipped.count)),
                        JSONMember(key: "reason", value: .string(skipped.reason)),
                        JSONMember(key: "paths", value: .array(skipped.paths.map { .string($0) })),
                    ])))
        }
        let meta = summary.meta.map { JSONMember(key: $0.key, value: $0.value.map(jsonValue) ?? .null) }
        let object = JSONObject([
            JSONMember(key: "outcome", value: .string(summary.outcome.rawValue)),
            JSONMember(key: "exit_status", value: number(Int(status.rawValue))),
            JSONMember(key: "run", value: number(Int(summary.runID))),
            JSONMember(key: "input", value: .string(summary.input)),
            JSONMember(key: "store", value: .string(summary.store)),
            // A file skipped by --if-changed was hashed, not parsed: its records were not counted.
            JSONMember(key: "records", value: summary.inputParsed ? number(summary.records) : .null),
            JSONMember(key: "imported_records", value: number(summary.importedRecords)),
            JSONMember(key: "skipped_records", value: number(summary.skippedRecords)),
            JSONMember(key: "ignored_records", value: number(summary.ignoredRecords)),
            JSONMember(key: "unchanged_input", value: .bool(summary.unchangedInput)),
            JSONMember(key: "changed", value: .bool(summary.changed)),
            JSONMember(key: "dry_run", value: .bool(summary.dryRun)),
            JSONMember(key: "format", value: .string(summary.format == .jsonLines ? "jsonl" : "json")),
            JSONMember(key: "bytes", value: number(summary.bytesRead)),
            JSONMember(key: "sha256", value: .string(summary.inputSHA256)),
            JSONMember(key: "seconds", value: .number(JSONNumber(literal: String(format: "%.3f", summary.seconds)))),
            JSONMember(key: "schema_changes", value: .array(summary.schemaChanges.map { .string($0) })),
            JSONMember(key: "entities", value: summary.countsValue),
            JSONMember(key: "deleted_keys", value: .object(JSONObject(deletions))),
            JSONMember(key: "extras", value: .object(JSONObject(extras))),
            JSONMember(key: "skipped_elements", value: .object(JSONObject(skippedElements))),
            JSONMember(key: "meta", value: .object(JSONObject(meta))),
            JSONMember(key: "unlinked", value: .object(JSONObject(summary.unlinked.map(unlinkedValue)))),
        ])
        return JSONValue.object(object).jsonText
    }

    /// `"Tweet.tags": {"target": "Tag", "count": 3, "first": [{"key": "'x'", "path": "$[0].tag_ids[1]"}]}`
    static func unlinkedValue(_ unlinked: UnlinkedLinks) -> JSONMember {
        let first = unlinked.samples.map { sample in
            JSONValue.object(JSONObject([JSONMember(key: "key", value: .string(sample.key)), JSONMember(key: "path", value: .string(sample.path))]))
        }
        return JSONMember(
            key: unlinked.member,
            value: .object(
                JSONObject([
                    JSONMember(key: "target", value: .string(unlinked.target)),
                    JSONMember(key: "count", value: .number(JSONNumber(literal: String(unlinked.count)))),
                    JSONMember(key: "first", value: .array(first)),
                ])))
    }

    /// `--verbose`: per entity, the objects inserted or changed, each with its changed fields,
    /// then how many more. Empty when nothing changed.
    static func changes(_ summary: ImportSummary) -> String {
        var text = ""
        let verb = summary.dryRun ? "would change" : "changed"
        for entity in summary.changes {
            let total = entity.objects.count + entity.more
            text += "graphimport: \(entity.entity): \(verb) \(counted(total, "object"))\n"
            for object in entity.objects {
                if object.isNew {
                    text += "  + \(escapeControlCharacters(object.key)) (new)\n"
                    continue
                }
                text += "  ~ \(escapeControlCharacters(object.key))\n"
                for field in object.fields {
                    text += "      \(field.name): \(escapeControlCharacters(field.old)) -> \(escapeControlCharacters(field.new))\n"
                }
            }
            if entity.more > 0 { text += "  and \(entity.more) more\n" }
        }
        return text
    }

    /// A metadata value with its JSON type: a number, a boolean, or the JSON itself for a `JSON` value.
    static func jsonValue(_ value: MetaValue) -> JSONValue {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .number(JSONNumber(literal: String(number)))
        case .double(let number): return .number(JSONNumber(literal: String(number)))
        case .string(let text), .date(let text): return .string(text)
        case .json(let text): return (try? JSONParser.parse(text)) ?? .string(text)
        }
    }
}
