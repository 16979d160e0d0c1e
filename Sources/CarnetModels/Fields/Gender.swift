/// How the gender field is written: vCard's sex letter, then `;` and the identity if any.
enum Gender {
    static let sexes: Set<String> = ["M", "F", "O", "N", "U"]
    static let words = ["male": "M", "female": "F", "other": "O", "none": "N", "unknown": "U"]

    /// The value as saved: the sex in capitals (`f` → `F`, `female` → `F`), the identity trimmed,
    /// a text with no sex letter taken as an identity (`agender` → `;agender`). A value whose sex
    /// is not one of the letters is left for `rule(_:)` to name.
    @Sendable static func canonical(_ text: String) -> String {
        guard let semicolon = text.firstIndex(of: ";") else {
            if sexes.contains(text.uppercased()) { return text.uppercased() }
            return words[text.lowercased()] ?? ";" + text
        }
        let sex = Rules.trimmed(String(text[..<semicolon])).uppercased()
        let identity = Rules.trimmed(String(text[text.index(after: semicolon)...]))
        guard sex.isEmpty || sexes.contains(sex) else { return text }
        return identity.isEmpty ? sex : sex + ";" + identity
    }

    @Sendable static func rule(_ text: String) -> String? {
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let sexOK = parts.count == 1 ? sexes.contains(String(parts[0])) : (parts[0].isEmpty || sexes.contains(String(parts[0]))) && !parts[1].isEmpty
        return sexOK ? nil : "must be M, F, O, N or U (the sex), optionally followed by ;IDENTITY, e.g. F, O;non-binary or ;agender"
    }
}
