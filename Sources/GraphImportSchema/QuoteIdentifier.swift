/// The one way a name reaches SQL: wraps it in double quotes and doubles embedded quotes,
/// so `we"ird` becomes `"we""ird"` and no table or column name can end the identifier early.
package func quoteIdentifier(_ name: String) -> String {
    var quoted = "\""
    quoted.reserveCapacity(name.utf8.count + 2)
    for character in name.unicodeScalars {
        if character == "\"" { quoted.unicodeScalars.append("\"") }
        quoted.unicodeScalars.append(character)
    }
    quoted.unicodeScalars.append("\"")
    return quoted
}
