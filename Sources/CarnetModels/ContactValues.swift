import Foundation

// The values a rich contact holds besides its one-line fields: a structured name, typed and
// ordered lists (emails, phones, addresses, URLs, handles, dates, categories) and the properties
// Carnet does not model. Each has a one-line text form (``ContactEntry/entryText``) that the CLI's
// flags, the editor template, CSV cells and the interactive screen all read and write, so there is
// one syntax to learn: `[label[,pref]:]value`.

/// The structured parts of a person's name, as vCard's `N` holds them.
public struct PersonName: Sendable, Codable, Equatable, Hashable {
    public var prefix: String
    public var given: String
    public var additional: String
    public var family: String
    public var suffix: String

    public init(prefix: String = "", given: String = "", additional: String = "", family: String = "", suffix: String = "") {
        self.prefix = prefix
        self.given = given
        self.additional = additional
        self.family = family
        self.suffix = suffix
    }

    public var isEmpty: Bool { [prefix, given, additional, family, suffix].allSatisfy(\.isEmpty) }

    /// Whether every part is within ``Limits/namePartLength``: a name read from an over-long
    /// display name is not used.
    var fitsLimits: Bool { [prefix, given, additional, family, suffix].allSatisfy { $0.unicodeScalars.count <= Limits.namePartLength } }

    /// The name as people write it: "Dr. John Q. Appleseed Jr.".
    public var displayName: String {
        [prefix, given, additional, family, suffix].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Words that open a name as a title, not as a given name.
    static let prefixes: Set<String> = [
        "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "mx", "mx.", "dr", "dr.", "prof", "prof.", "sir", "dame",
        "rev", "rev.", "fr", "fr.", "hon", "hon.",
    ]
    /// Words that close a name as a suffix, not as a family name.
    static let suffixes: Set<String> = [
        "jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d.", "md", "m.d.", "esq", "esq.", "obe", "mbe", "cbe",
    ]
    /// Words that belong to the family name that follows them ("Ludwig van Beethoven").
    static let particles: Set<String> = [
        "van", "von", "der", "den", "de", "da", "di", "du", "del", "della", "des", "la", "le", "ten", "ter", "bin", "al",
    ]

    /// The parts of `displayName`, when they can be told without guessing; nil otherwise.
    ///
    /// "Ada Lovelace", "Dr. John Q. Appleseed Jr.", "Ludwig van Beethoven" and a single word are
    /// read; a name with two or more middle words that are not initials ("Maria José García
    /// López": is García a middle name or the first family name?), a comma, or no spaces in a
    /// script written without them is left alone, so no part is ever filled in wrongly.
    public static func derived(from displayName: String) -> PersonName? {
        if displayName.contains(",") { return nil }
        var words = displayName.split(whereSeparator: { $0 == " " }).map(String.init)
        guard !words.isEmpty else { return nil }
        var name = PersonName()
        var prefix: [String] = []
        while words.count > 1, let first = words.first, prefixes.contains(first.lowercased()) {
            prefix.append(first)
            words.removeFirst()
        }
        var suffix: [String] = []
        while words.count > 1, let last = words.last, suffixes.contains(last.lowercased()) {
            suffix.insert(last, at: 0)
            words.removeLast()
        }
        name.prefix = prefix.joined(separator: " ")
        name.suffix = suffix.joined(separator: " ")
        // Letters only (with - ' .): a single word in a script without spaces is not a given name.
        guard words.allSatisfy({ $0.unicodeScalars.allSatisfy { s in s.properties.isAlphabetic || "-'.’".unicodeScalars.contains(s) } })
        else { return nil }
        if words.count == 1 {
            // One word: a given name ("Madonna"), unless it is written without spaces in a script
            // that needs none (Chinese, Japanese), where given and family cannot be told apart.
            if words[0].unicodeScalars.contains(where: { $0.properties.isIdeographic }) { return nil }
            name.given = words[0]
            return name
        }
        name.given = words.removeFirst()
        var family = [words.removeLast()]
        while let last = words.last, particles.contains(last.lowercased()) {
            family.insert(last, at: 0)
            words.removeLast()
        }
        name.family = family.joined(separator: " ")
        // What is left is middle names: only initials ("Q.", "J. R.") can be told from a family name.
        guard words.allSatisfy({ $0.count == 1 || ($0.count == 2 && $0.hasSuffix(".")) }) else { return nil }
        name.additional = words.joined(separator: " ")
        return name
    }
}

/// One entry of a contact's list: an email, a phone number, a URL or a handle, with its type or
/// label and whether it is the preferred one.
public struct LabeledValue: Sendable, Codable, Equatable, Hashable, ContactEntry {
    /// A type (`work`, `cell`, …), a free label (`Mobile 2`), or empty.
    public var label: String
    public var value: String
    /// At most one entry of a list is preferred; with none, the first counts.
    public var preferred: Bool

    public init(_ value: String, label: String = "", preferred: Bool = false) {
        self.label = label
        self.value = value
        self.preferred = preferred
    }

    enum CodingKeys: String, CodingKey { case label, value, preferred }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        value = try c.decode(String.self, forKey: .value)
        label = try c.decodeIfPresent(String.self, forKey: .label) ?? ""
        preferred = try c.decodeIfPresent(Bool.self, forKey: .preferred) ?? false
    }

    public var entryText: String { EntrySyntax.prefix(label: label, preferred: preferred, before: value) + value }
    public var matchText: String { value }

    public static func parse(entry: String, kind: EntryKind) -> Result<LabeledValue, EntryError> {
        let (label, preferred, rest) = EntrySyntax.split(entry, kind: kind)
        return .success(LabeledValue(Rules.trimmed(rest), label: kind.normalizedLabel(label), preferred: preferred))
    }

    public func normalized(kind: EntryKind) -> LabeledValue {
        LabeledValue(Rules.trimmed(value), label: kind.normalizedLabel(Rules.trimmed(label)), preferred: preferred)
    }
}

/// A postal address, with vCard `ADR`'s seven parts.
public struct PostalAddress: Sendable, Codable, Equatable, Hashable, ContactEntry {
    public var label: String
    public var poBox: String
    public var extended: String
    public var street: String
    public var locality: String
    public var region: String
    public var postalCode: String
    public var country: String
    public var preferred: Bool

    public init(
        label: String = "", poBox: String = "", extended: String = "", street: String = "", locality: String = "",
        region: String = "", postalCode: String = "", country: String = "", preferred: Bool = false
    ) {
        self.label = label
        self.poBox = poBox
        self.extended = extended
        self.street = street
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.preferred = preferred
    }

    enum CodingKeys: String, CodingKey { case label, poBox, extended, street, locality, region, postalCode, country, preferred }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String { try c.decodeIfPresent(String.self, forKey: key) ?? "" }
        self.init(
            label: try text(.label), poBox: try text(.poBox), extended: try text(.extended), street: try text(.street),
            locality: try text(.locality), region: try text(.region), postalCode: try text(.postalCode),
            country: try text(.country), preferred: try c.decodeIfPresent(Bool.self, forKey: .preferred) ?? false)
    }

    /// The parts in the order the one-line form writes them: street; locality; region; postal
    /// code; country; extended; PO box (the last two only when used).
    public var entryParts: [String] {
        var parts = [street, locality, region, postalCode, country, extended, poBox]
        while parts.count > 5, parts.last?.isEmpty == true { parts.removeLast() }
        return parts
    }

    /// The parts as written on an envelope, one per line, without empty ones.
    public var lines: [String] {
        let cityLine = [postalCode, locality, region].filter { !$0.isEmpty }.joined(separator: " ")
        return [poBox, extended, street, cityLine, country].filter { !$0.isEmpty }
    }

    public var isEmpty: Bool { [poBox, extended, street, locality, region, postalCode, country].allSatisfy(\.isEmpty) }

    public var entryText: String {
        let parts = entryParts.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;") }
            .joined(separator: "; ")
        return EntrySyntax.prefix(label: label, preferred: preferred, before: parts) + parts
    }

    public var matchText: String { entryParts.filter { !$0.isEmpty }.joined(separator: ", ") }
    /// The seven parts, space-separated, as the search index's source joins the columns.
    public var searchText: String { [poBox, extended, street, locality, region, postalCode, country].joined(separator: " ") }

    public static func parse(entry: String, kind: EntryKind) -> Result<PostalAddress, EntryError> {
        let (label, preferred, rest) = EntrySyntax.split(entry, kind: kind)
        var parts: [String] = []
        var current = ""
        var escaped = false
        for ch in rest {
            if escaped { current.append(ch); escaped = false } else if ch == "\\" { escaped = true } else if ch == ";" {
                parts.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        parts.append(current)
        if parts.count > 7 {
            return .failure(EntryError("has \(parts.count) parts; an address has at most 7: street; locality; region; postal code; country; extended; PO box"))
        }
        parts = parts.map(Rules.trimmed) + Array(repeating: "", count: 7 - parts.count)
        let address = PostalAddress(
            label: kind.normalizedLabel(label), poBox: parts[6], extended: parts[5], street: parts[0], locality: parts[1],
            region: parts[2], postalCode: parts[3], country: parts[4], preferred: preferred)
        return .success(address)
    }

    public func normalized(kind: EntryKind) -> PostalAddress {
        PostalAddress(
            label: kind.normalizedLabel(Rules.trimmed(label)), poBox: Rules.trimmed(poBox), extended: Rules.trimmed(extended),
            street: Rules.trimmed(street), locality: Rules.trimmed(locality), region: Rules.trimmed(region),
            postalCode: Rules.trimmed(postalCode), country: Rules.trimmed(country), preferred: preferred)
    }
}

/// A date in a person's life, with or without a year: a birthday, an anniversary, or another
/// labelled date.
public struct ContactDate: Sendable, Codable, Equatable, Hashable, ContactEntry {
    /// `birthday`, `anniversary`, or a free label.
    public var label: String
    public var year: Int?
    public var month: Int
    public var day: Int

    public init(label: String, year: Int? = nil, month: Int, day: Int) {
        self.label = label
        self.year = year
        self.month = month
        self.day = day
    }

    public static let birthday = "birthday"
    public static let anniversary = "anniversary"

    /// `dates` with every date labelled `label` (`birthday`, any case) replaced by `date`, in the
    /// place of the first of them (at the end when there was none): a person has one birthday.
    public static func replacing(_ label: String, in dates: [ContactDate], with date: ContactDate) -> [ContactDate] {
        let isIt = { (each: ContactDate) in each.label.lowercased() == label }
        var out = dates
        let at = out.firstIndex(where: isIt) ?? out.endIndex
        out.removeAll(where: isIt)
        out.insert(date, at: min(at, out.endIndex))
        return out
    }

    /// `1815-12-10`, or `--12-10` without a year (the vCard 4.0 and ISO 8601 form).
    /// A date a person reads: `1815-12-10` with its year, `December 20` without one (where
    /// `dateText` writes vCard's `--12-20`).
    public var displayText: String {
        guard year == nil, (1...12).contains(month) else { return dateText }
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(months[month - 1]) \(day)"
    }

    public var dateText: String {
        // Padded by hand: String(format:) took a tenth of a bulk import's time.
        func padded(_ n: Int, _ width: Int) -> String {
            guard n >= 0 else { return "-" + padded(-n, width - 1) }  // as %04d writes -5: -005
            let digits = String(n)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let md = padded(month, 2) + "-" + padded(day, 2)
        guard let year else { return "--" + md }
        return padded(year, 4) + "-" + md
    }

    enum CodingKeys: String, CodingKey { case label, date }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .date)
        guard let parsed = ContactDate.parseDate(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .date, in: c, debugDescription: "\"\(text)\" is not a date like 1815-12-10 or --12-10")
        }
        self.init(label: try c.decodeIfPresent(String.self, forKey: .label) ?? "", year: parsed.year, month: parsed.month, day: parsed.day)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(label, forKey: .label)
        try c.encode(dateText, forKey: .date)
    }

    /// `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD` or `--MMDD`; nil for anything else. The date is not
    /// checked against the calendar here (``isRealDate`` does).
    public static func parseDate(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        let t = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= t.count else { return nil }
            var n = 0
            for byte in t[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                n = n * 10 + Int(byte - 48)
            }
            return n
        }
        switch t.count {
        case 10 where t[4] == 45 && t[7] == 45:
            guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
            return (y, m, d)
        case 7 where t[0] == 45 && t[1] == 45 && t[4] == 45:
            guard let m = number(2..<4), let d = number(5..<7) else { return nil }
            return (nil, m, d)
        case 8:
            guard let y = number(0..<4), let m = number(4..<6), let d = number(6..<8) else { return nil }
            return (y, m, d)
        case 6 where t[0] == 45 && t[1] == 45:
            guard let m = number(2..<4), let d = number(4..<6) else { return nil }
            return (nil, m, d)
        default: return nil
        }
    }

    /// Whether the date exists in the Gregorian calendar (29 February only in a leap year, or
    /// when there is no year).
    public var isRealDate: Bool {
        if let year, !(1...9999).contains(year) { return false }
        guard (1...12).contains(month), day >= 1 else { return false }
        let days = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        if month == 2, let year, day == 29 { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }
        return day <= days
    }

    /// Dates have no preferred one.
    public var preferred: Bool { false }
    public var entryText: String { (label.isEmpty ? "" : label + ":") + dateText }
    public var matchText: String { dateText }

    public static func parse(entry: String, kind: EntryKind) -> Result<ContactDate, EntryError> {
        let (label, _, rest) = EntrySyntax.split(entry, kind: kind)
        let text = Rules.trimmed(rest)
        guard let parsed = parseDate(text) else {
            return .failure(EntryError("\"\(text)\" is not a date like 1815-12-10, or --12-10 without a year"))
        }
        return .success(ContactDate(label: kind.normalizedLabel(label), year: parsed.year, month: parsed.month, day: parsed.day))
    }

    public func normalized(kind: EntryKind) -> ContactDate {
        ContactDate(label: kind.normalizedLabel(Rules.trimmed(label)), year: year, month: month, day: day)
    }
}

/// Why an entry's text could not be read.
public struct EntryError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// One element of a contact's list, with the one-line text form flags and files use.
public protocol ContactEntry: Sendable, Equatable, Hashable {
    /// `[label[,pref]:]value`, as `--email work,pref:ada@example.com` takes it.
    var entryText: String { get }
    /// What `--remove-email` and friends compare with: the value without its label.
    var matchText: String { get }
    /// What the search index holds of the entry (``SearchDocument``).
    var searchText: String { get }
    /// The type or label (`work`, `birthday`), or empty.
    var label: String { get }
    var preferred: Bool { get }
    static func parse(entry: String, kind: EntryKind) -> Result<Self, EntryError>
    func normalized(kind: EntryKind) -> Self
    /// The value as a detail screen shows it to a person (by default `matchText`).
    var displayText: String { get }
}

extension ContactEntry {
    public var displayText: String { matchText }
}

/// Which list an entry belongs to: it decides the known types and the rules of the value. A
/// value, not a closed enum, so a list field is described in its entry alone
/// (`ContactFields/all`): a new list names its kind and the labels it knows there.
public struct EntryKind: Sendable, Hashable, CustomStringConvertible {
    /// The kind's name (`email`), as messages say it.
    public let name: String
    /// The types this kind knows, written in lower case whatever case they are given in.
    public let knownTypes: [String]
    /// Whether the kind's entries may start with a label.
    let hasLabels: Bool

    public init(_ name: String, knownTypes: [String] = [], hasLabels: Bool = true) {
        self.name = name
        self.knownTypes = knownTypes
        self.hasLabels = hasLabels
    }

    /// The types an email, an address and a URL share.
    private static let places = ["home", "work", "other"]

    public static let email = EntryKind("email", knownTypes: places)
    public static let phone = EntryKind("phone", knownTypes: ["cell", "home", "work", "fax", "pager", "other"])
    public static let address = EntryKind("address", knownTypes: places)
    public static let url = EntryKind("url", knownTypes: places)
    public static let handle = EntryKind("handle")
    public static let date = EntryKind("date", knownTypes: [ContactDate.birthday, ContactDate.anniversary])
    public static let category = EntryKind("category", hasLabels: false)
    public static let extra = EntryKind("extra", hasLabels: false)

    public var description: String { name }

    // A kind is known by its name: comparing it (every entry's label is normalized through its
    // kind on every save and import) compares one short string, not the lists of labels.
    public static func == (a: EntryKind, b: EntryKind) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// A known type in lower case (`Work` → `work`, `mobile` → `cell`); a free label as given.
    public func normalizedLabel(_ label: String) -> String {
        let lower = label.lowercased()
        if self == .phone, lower == "mobile" { return "cell" }
        return knownTypes.contains(lower) ? lower : label
    }
}

enum EntrySyntax {
    /// `work,pref:` for a labelled preferred entry, `pref:` for an unlabelled one, `` for neither
    /// (or `:` when `value` itself starts like a label, `xmpp:ada@example.org`, so it reads back
    /// whole).
    static func prefix(label: String, preferred: Bool, before value: String) -> String {
        switch (label.isEmpty, preferred) {
        case (true, false): return split(value, kind: .email).value == value ? "" : ":"
        case (true, true): return "pref:"
        case (false, false): return label + ":"
        case (false, true): return label + ",pref:"
        }
    }

    /// Splits `work,pref: value` into its label, preferred flag and value. Text before the first
    /// `:` is a label only if it looks like one (letters, digits, spaces, `_ - . ' & , ( ) / + #`, at most
    /// ``Limits/labelLength``) and what follows does not start with `//` (a URL's scheme is not a
    /// label). A value that itself holds such a `:` is written with an empty label: `:a:b`.
    static func split(_ entry: String, kind: EntryKind) -> (label: String, preferred: Bool, value: String) {
        guard kind.hasLabels, let colon = entry.firstIndex(of: ":") else { return ("", false, entry) }
        let head = entry[..<colon]
        let value = String(entry[entry.index(after: colon)...])
        if value.hasPrefix("//") { return ("", false, entry) }
        guard head.count <= Limits.labelLength + 5,
              head.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || " _-.'&,()/+#".unicodeScalars.contains($0) })
        else { return ("", false, entry) }
        // A trailing `,pref` marks the preferred entry; the rest, as written, is the label.
        var label = Rules.trimmed(String(head))
        if label.lowercased() == "pref" { return ("", true, value) }
        var preferred = false
        if let comma = label.lastIndex(of: ","), Rules.trimmed(String(label[label.index(after: comma)...])).lowercased() == "pref" {
            preferred = true
            label = Rules.trimmed(String(label[..<comma]))
        }
        return (label, preferred, value)
    }
}

extension ContactEntry {
    public var searchText: String { matchText }
}

extension Array where Element: ContactEntry {
    /// The preferred entry, or the first when none is marked.
    public var preferredEntry: Element? { first(where: \.preferred) ?? first }
}

/// The operations an edit screen binds a list to: add, remove, move, make preferred.
extension Array {
    /// Moves the element at `from` to `to`, shifting the ones between.
    public mutating func moveEntry(from: Int, to: Int) {
        guard indices.contains(from), indices.contains(to), from != to else { return }
        insert(remove(at: from), at: to)
    }
}

/// An entry of a list that has one preferred entry: emails, phones, URLs, handles, addresses.
public protocol PreferableEntry: ContactEntry {
    var preferred: Bool { get set }
}

extension LabeledValue: PreferableEntry {}
extension PostalAddress: PreferableEntry {}

extension Array where Element: PreferableEntry {
    /// Marks the entry at `index` preferred, and no other.
    public mutating func makePreferred(at index: Int) {
        guard indices.contains(index) else { return }
        for i in indices { self[i].preferred = i == index }
    }
}

extension ContactDate {
    /// The next day on or after `day` (a calendar date in the person's calendar) that this date
    /// falls on: this year's, or next year's if it has passed. 29 February falls on 28 February
    /// in a common year.
    public func nextOccurrence(onOrAfter day: DateComponents, calendar: Calendar) -> DateComponents? {
        guard let year = day.year, let today = calendar.date(from: day) else { return nil }
        for candidateYear in [year, year + 1] {
            var d = DateComponents(year: candidateYear, month: month, day: self.day)
            if month == 2, self.day == 29, calendar.date(from: DateComponents(year: candidateYear, month: 2, day: 29)).map({
                calendar.component(.month, from: $0) != 2
            }) == true {
                d.day = 28
            }
            if let date = calendar.date(from: d), date >= today { return d }
        }
        return nil
    }
}
