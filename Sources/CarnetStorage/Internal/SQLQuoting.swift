extension String {
    /// The text between double quotes with each `"` in it doubled: how SQL quotes an identifier
    /// and FTS5 a string. Without Foundation's `replacingOccurrences`, whose round trip through
    /// NSString cost more than the rest of an undo's or a quick query's quoting; a text with no
    /// quote in it (every name Carnet's schema has) is used as it is.
    var doubleQuoted: String {
        guard utf8.contains(UInt8(ascii: "\"")) else { return "\"" + self + "\"" }
        var quoted = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append(scalar) }
        }
        return "\"" + String(quoted) + "\""
    }
}
