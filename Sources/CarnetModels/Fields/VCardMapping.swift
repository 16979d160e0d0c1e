/// How a text field is a vCard property, or how each entry of a list field is one.
public struct VCardMapping: Sendable {
    /// The property's name in vCard 4.0 (`PRONOUNS`).
    public let name: String
    /// Its name in 3.0 and 2.1 when those versions have no such property (`X-PRONOUNS`); the
    /// reader takes either name in every version.
    public let olderName: String?
    /// How many `;`-separated components the value has: 1 for plain text; more for a structured
    /// value, which the field holds as its components joined by `;`, the last one taking the rest
    /// (`GENDER:O;non-binary` is `O;non-binary`).
    public let components: Int
    /// For a list field, the parameter an entry's label is written as (a `LEVEL`, say, as in
    /// `X-SKILL;LEVEL=high:…`); nil when a label is written as `TYPE`. The reader takes the
    /// parameter's value as the label; any other parameter but `PREF` (and `TYPE=pref`) keeps the
    /// line as it came.
    public let labelParameter: String?

    public init(_ name: String, olderName: String? = nil, components: Int = 1, labelParameter: String? = nil) {
        self.name = name
        self.olderName = olderName
        self.components = components
        self.labelParameter = labelParameter
    }

    /// Both names, the 4.0 one first.
    public var names: [String] { [name] + (olderName.map { [$0] } ?? []) }

    /// The name written in `version` (`"4.0"`, `"3.0"`, `"2.1"`).
    public func name(forVersion version: String) -> String { version == "4.0" ? name : olderName ?? name }

    /// The field's text as the property's components (unescaped), for a structured value.
    public func components(of text: String) -> [String] {
        guard components > 1 else { return [text] }
        var parts: [String] = []
        var rest = Substring(text)
        while parts.count < components - 1, let semicolon = rest.firstIndex(of: ";") {
            parts.append(String(rest[..<semicolon]))
            rest = rest[rest.index(after: semicolon)...]
        }
        parts.append(String(rest))
        return parts
    }

    /// The field's text from the property's components (unescaped): joined by `;`, empty
    /// components at the end dropped.
    public func text(of components: [String]) -> String {
        var parts = components
        while parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        return parts.joined(separator: ";")
    }
}
