extension String {
    /// The first 40 characters, for naming a value in a message.
    package var shownBriefly: String {
        let escaped = TextRules.escapedForDisplay(self)
        return escaped.count <= 40 ? escaped : String(escaped.prefix(39)) + "…"
    }
}
