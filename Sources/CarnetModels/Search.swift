import Foundation

/// The parts of a contact's search document, in the order the index holds them: `names` in the
/// index's `names` column, where a query word found ranks a contact first (see
/// `SearchQuery/rank(_:)`), and every other part, in this order, in its `other` column
/// (`SearchDocument`).
public enum SearchColumn: String, Sendable, CaseIterable {
    /// The display name, its parts and the nickname.
    case names
    /// Organization, department, title and role.
    case work
    case emails
    /// Each phone as typed and by its digits: written with a country code, its national number
    /// with a leading 0 (a query word of digits looks for it with and without), otherwise all
    /// its digits.
    case phones
    case addresses
    /// URLs and handles.
    case web
    case categories
    case note
}

/// Text as the search index sees it: SQLite FTS5's `unicode61` tokenizer with
/// `remove_diacritics 2` (letters, digits and private-use characters make words; case and accents
/// are folded), and ß written ss. Used for the matches a screen decides without asking the
/// database (a favorite, a contact just saved): the index decides the same way.
public enum SearchText {
    /// Whether `scalar` belongs to a word: unicode61's categories L*, N* and Co, and the combining
    /// diacritical marks it strips (so "e\u{301}lodie" is one word, elodie).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if (0x300...0x36F).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }

    /// The words of `text`, as written.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// `word` folded: lower case, accents and other diacritical marks removed, ß as ss.
    public static func fold(_ word: String) -> String {
        // ASCII has nothing to decompose, no mark to strip and no ß: lower case is the whole fold.
        // `carnet query` (started at every completion in a mail client) folds its words before it
        // opens the file, and Foundation's normalization would first bridge through NSString.
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        var out = String.UnicodeScalarView()
        for scalar in word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where !(0x300...0x36F).contains(scalar.value) {
            if scalar == "ß" || scalar == "\u{1E9E}" {
                out.append(contentsOf: "ss".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out).precomposedStringWithCanonicalMapping
    }

    /// The folded words of `text`.
    public static func tokens(_ text: String) -> [String] {
        words(text).map(fold)
    }

    /// ß and ẞ written ss, as the index's source writes them: scalar by scalar, as SQLite's
    /// `replace()` does (a ß with a combining mark after it is one Character, and still a ß).
    static func foldSharpS(_ text: String) -> String {
        // ß is C3 9F in UTF-8, ẞ E1 BA 9E: without either last byte, there is neither.
        let maybe = text.utf8.withContiguousStorageIfAvailable { $0.contains { $0 == 0x9F || $0 == 0x9E } } ?? true
        guard maybe else { return text }
        guard text.unicodeScalars.contains(where: { $0 == "ß" || $0 == "\u{1E9E}" }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "ß" || scalar == "\u{1E9E}" { out.append(contentsOf: "ss".unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// The national number of a phone's digits written with a country code (`digits` without
    /// the code): ITU-T E.164 codes are a prefix code, 1 and 7 one digit, these two, others three.
    static func nationalNumber(_ digits: String) -> String {
        // Slices of the scalars, not scalars copied one by one into new views: every phone of
        // every imported contact comes here.
        let scalars = digits.unicodeScalars
        let length: Int
        if let first = scalars.first, first == "1" || first == "7" {
            length = 1
        } else if twoDigitCountryCodes.contains(String(scalars.prefix(2))) {
            length = 2
        } else {
            length = 3
        }
        return String(scalars.dropFirst(length))
    }

    static let twoDigitCountryCodes: Set<String> = [
        "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
        "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84",
        "86", "90", "91", "92", "93", "94", "95", "98",
    ]

    /// What a phone's digits are to the index: the value without ` +().-` (all a valid phone
    /// holds besides digits), removed scalar by scalar.
    public static func phoneDigits(_ value: String) -> String {
        // All six are ASCII, which no byte of a longer UTF-8 sequence is: removing their bytes
        // removes exactly those scalars.
        var digits: [UInt8] = []
        digits.reserveCapacity(value.utf8.count)
        for byte in value.utf8 where !(byte == 0x20 || byte == 0x2B || byte == 0x28 || byte == 0x29 || byte == 0x2E || byte == 0x2D) {
            digits.append(byte)
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// Appends a phone as the index holds it: as typed, then by its digits. Written with a
    /// country code (`+44 20 7946 0000`), by its national number with a leading 0
    /// (`02079460000`), once: a query word of digits looks for it with and without the 0
    /// (`SearchQuery/Phrase`), and a query of the number with its country code looks for the
    /// national number. Otherwise all its digits (`020 7946 0000` as `02079460000`).
    static func appendPhone(_ value: String, to text: inout String) {
        let digits = phoneDigits(value)
        text.append(value)
        if value.utf8.first == 0x2B {  // +
            text.append(" 0")
            text.append(nationalNumber(digits))
        } else {
            text.append(" ")
            text.append(digits)
        }
    }
}

/// The texts of a contact as the search index holds them, column by column: the one maker of the
/// index's documents, whether from a draft as it is saved or from the stored rows when the index
/// is rebuilt (`SearchIndex`); a storage test checks that the two agree.
///
/// Which fields go in which column, in which order, is `ContactFields`' (each field's
/// `DraftField/searchColumn`); this builds the texts from the draft's properties directly, and a
/// test holds it to what those descriptions make. An import makes a document for every contact:
/// walking the descriptions (key paths, closures, a list of texts per field, then joined) was a
/// tenth of a raw import's time with the index, half of what the index cost it.
public struct SearchDocument: Sendable, Equatable {
    /// The index's columns, in order: the names, then everything else.
    public static let columns = ["names", "other"]

    /// One text per column of `columns`.
    public let texts: [String]

    public init(_ draft: ContactDraft) {
        texts = [Self.names(draft), Self.other(draft)]
    }

    /// The names column: a query word found there ranks the contact first.
    public var names: String { texts[0] }

    /// `SearchColumn/names`: the display name, then its parts and the nickname.
    static func names(_ draft: ContactDraft) -> String {
        let parts = draft.nameParts
        var text = Text(capacity: 96)
        text.add(draft.name)
        text.add(parts.prefix)
        text.add(parts.given)
        text.add(parts.additional)
        text.add(parts.family)
        text.add(parts.suffix)
        text.add(draft.nickname)
        text.add(described[0], of: draft)
        return text.folded
    }

    /// The searched fields this builder does not name, by `SearchColumn` (in its order), each
    /// column's in `ContactFields/all` order: a new text or list field with a search column is
    /// searched from its entry alone, at the end of its column.
    static let described: [[ContactFieldSpec]] = {
        let named: Set<Field> = [
            .name, .prefix, .given, .additional, .family, .suffix, .nickname, .organization, .department, .title, .role, .note,
            .email, .phone, .address, .url, .handle, .category,
        ]
        return SearchColumn.allCases.map { column in
            ContactFields.all.filter { spec in
                spec.searchColumn == column && !named.contains(spec.field) && ((spec.text ?? spec.multilineText) != nil || spec.list != nil)
            }
        }
    }()

    /// Every other column of `SearchColumn`, in its order: work, emails, phones, addresses,
    /// web (URLs, then handles), categories, note.
    static func other(_ draft: ContactDraft) -> String {
        var text = Text(capacity: 320)
        text.add(draft.organization)
        text.add(draft.department)
        text.add(draft.title)
        text.add(draft.role)
        text.add(described[1], of: draft)
        text.startField()
        for email in draft.emails { text.addEntry(email.value) }
        text.add(described[2], of: draft)
        text.startField()
        for phone in draft.phones {
            text.startEntry()
            text.appendPhone(phone.value)
        }
        text.add(described[3], of: draft)
        text.startField()
        for address in draft.addresses { text.addEntry(address.searchText) }
        text.add(described[4], of: draft)
        text.startField()
        for url in draft.urls { text.addEntry(url.value) }
        text.startField()
        for handle in draft.handles { text.addEntry(handle.value) }
        text.add(described[5], of: draft)
        text.startField()
        for category in draft.categories { text.addEntry(category) }
        text.add(described[6], of: draft)
        text.add(draft.note)
        text.add(described[7], of: draft)
        return text.folded
    }

    /// A column's text as it is built: fields space-separated, a list field's entries
    /// space-separated (an empty list is an empty field).
    struct Text {
        private var text = ""
        private var fields = 0
        private var entries = 0

        init(capacity: Int) { text.reserveCapacity(capacity) }

        /// A one-text field.
        mutating func add(_ field: String) {
            startField()
            text.append(field)
        }

        /// Starts a list field.
        mutating func startField() {
            if fields > 0 { text.append(" ") }
            fields += 1
            entries = 0
        }

        /// Starts an entry of the current list field.
        mutating func startEntry() {
            if entries > 0 { text.append(" ") }
            entries += 1
        }

        /// Each of `fields`' text, a field each: a list's entries as the index holds them.
        mutating func add(_ fields: [ContactFieldSpec], of draft: ContactDraft) {
            for spec in fields {
                guard let list = spec.list else {
                    add(spec.string(of: draft))
                    continue
                }
                startField()
                for entry in list.searchTexts(draft) { addEntry(entry) }
            }
        }

        mutating func addEntry(_ entry: String) {
            startEntry()
            text.append(entry)
        }

        mutating func appendPhone(_ value: String) { SearchText.appendPhone(value, to: &text) }

        /// With ß written ss, as a search's words are folded.
        var folded: String { SearchText.foldSharpS(text) }
    }
}

/// Search text as people type it, read into what must match: every word (in any order, in any
/// field), each as the start of a word of the contact's texts. A run of words that reads as a
/// phone number also matches by its digits whatever the punctuation, and, given with a country
/// code (`+44 20 7946 0000`), the national number with a leading 0 (`020 7946 0000`). A number
/// typed as a phone is (digits and `+().-`) also matches the same digits after a 0
/// (`2079460000` finds `02079460000`; `100%` is text, and does not find `0100`): the index
/// holds a phone written with a country code by its national number only, once, with its 0. So
/// a number of ten digits or more typed without its + (`15551234567`, `44 20 7946 0000`) is
/// also read as one with a country code.
///
/// Quotes, `*`, `:`, `-`, `OR` and the like are text: a word is only its letters and digits.
public struct SearchQuery: Sendable, Equatable, Hashable {
    /// Consecutive words of a field (a word of the query such as `ada@example` is two), the last
    /// matched as a prefix. `words` is as typed; the index folds them itself.
    public struct Phrase: Sendable, Equatable, Hashable {
        public let words: [String]
        public let tokens: [String]

        /// One word of digits typed as a phone is (`5551234`, not `100%`): it also matches as the
        /// start of a word that is those digits after a 0 (`05551234567`), the national number
        /// of a phone as the index holds it. Only after a 0: few words start with 0 besides
        /// numbers.
        public let isNumber: Bool

        /// `phone`: the words come from a run of the query that reads as a phone number.
        init(_ words: [String], phone: Bool = false) {
            self.words = words.map(SearchText.foldSharpS)
            tokens = words.map(SearchText.fold)
            isNumber = phone && words.count == 1 && !words[0].isEmpty && words[0].utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
    }

    /// What one word of the query (or a phone number given in several) requires: one of the
    /// alternatives, each a set of phrases that must all match.
    public struct Term: Sendable, Equatable, Hashable {
        public let alternatives: [[Phrase]]
    }

    public let terms: [Term]

    /// No words at all: matches every contact.
    public var isEmpty: Bool { terms.isEmpty }

    /// Whether `text` has a word written as a phone number is (what `phones` of `init` reads).
    public static func hasNumber(_ text: String) -> Bool {
        text.split { $0.isWhitespace }.contains { isPhoneLike(String($0)) }
    }

    /// Reads `text`. Throws `CarnetError/invalidSearch(_:)` when it is longer than
    /// `Limits/searchLength` or, not blank, has no letter or digit to look for. With `phones`, a
    /// number the form can tell the country of is also looked for by its national number
    /// (`0044 20 7946 0000`, and `020 7946 0000` in a file whose region is GB, find `+44 20 7946
    /// 0000`; `8 495 123-45-67` in Russia finds `+7 495 123 45 67`).
    public init(_ text: String, phones: PhoneNormalForm? = nil) throws(CarnetError) {
        try Limits.checkSearch(text)
        let pieces = text.split { $0.isWhitespace }.map(String.init)
        var terms: [Term] = []
        var index = 0
        while index < pieces.count {
            var end = index
            while end < pieces.count, Self.isPhoneLike(pieces[end]) { end += 1 }
            if end > index {
                let run = Array(pieces[index..<end])
                if let term = Self.phoneTerm(run, phones: phones) { terms.append(term) }
                index = end
                continue
            }
            let words = SearchText.words(pieces[index])
            if !words.isEmpty { terms.append(Term(alternatives: [[Phrase(words)]])) }
            index += 1
        }
        if terms.isEmpty, !pieces.isEmpty {
            throw .invalidSearch("search text must have a letter or digit to look for (got \(Self.quoted(text)))")
        }
        self.terms = terms
    }

    private static func quoted(_ text: String) -> String {
        let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"" + short + "\""
    }

    /// Digits, spaces and `+ ( ) . -` only, with a digit: as a phone is written.
    static func isPhoneLike(_ word: String) -> Bool {
        var digit = false
        for scalar in word.unicodeScalars {
            if ("0"..."9").contains(scalar) {
                digit = true
            } else if !"+().-".unicodeScalars.contains(scalar) {
                return false
            }
        }
        return digit
    }

    /// A run of phone-like words: a plain number is a word like any other; otherwise its digits
    /// in one, its national forms when it starts with a country code, or its words one by one.
    private static func phoneTerm(_ run: [String], phones: PhoneNormalForm?) -> Term? {
        let words = run.map(SearchText.words)
        let digits = words.joined().joined()
        let international = run[0].hasPrefix("+") || run[0].hasPrefix("(+")
        // The national number after the country code, when the query gives one: with a +, or
        // ten digits or more not starting with 0 (a country code, typed without its +; shorter
        // numbers are national ones, or parts). The index holds a phone written with a country
        // code by its national number only, and a word of digits also matches after a 0
        // (Phrase.isNumber): it finds `2079460000` and `02079460000` alike. Where the file's
        // form tells the number's country, its national number is the one libphonenumber finds
        // (after an international prefix such as 00, without a trunk prefix such as 8).
        var national = international || (digits.utf8.count >= 10 && digits.utf8.first != 0x30) ? SearchText.nationalNumber(digits) : ""
        if let e164 = phones?.e164(run.joined(separator: " ")) {
            let found = SearchText.nationalNumber(String(e164.dropFirst()))
            if found != digits && found.count >= 4 { national = found }
        }
        if run.count == 1, words[0].count <= 1, !international {
            guard !words[0].isEmpty else { return nil }
            return Term(alternatives: [[Phrase(words[0], phone: true)]] + (national.isEmpty ? [] : [[Phrase([national], phone: true)]]))
        }
        var alternatives: [[Phrase]] = [[Phrase([digits], phone: true)]]
        if !national.isEmpty { alternatives.append([Phrase([national], phone: true)]) }
        let separate = words.filter { !$0.isEmpty }.map { Phrase($0, phone: true) }
        if separate.count > 1 || separate.first?.words.count ?? 0 > 1 { alternatives.append(separate) }
        return Term(alternatives: alternatives)
    }

    // MARK: Matching, as the index does

    /// Whether every term matches somewhere in the contact's texts.
    public func matches(_ draft: ContactDraft) -> Bool {
        guard !terms.isEmpty else { return true }
        let columns = Self.columnTokens(SearchDocument(draft))
        return terms.allSatisfy { term in Self.matches(term, in: columns) }
    }

    /// 0 when every term matches the names, 1 when some does, 2 otherwise: best matches first,
    /// so "ada" lists Ada Lovelace before a contact whose note mentions Ada.
    public func rank(_ draft: ContactDraft) -> Int {
        guard !terms.isEmpty else { return 0 }
        let names = [SearchText.tokens(SearchDocument(draft).names)]
        let hits = terms.filter { Self.matches($0, in: names) }.count
        return hits == terms.count ? 0 : hits > 0 ? 1 : 2
    }

    private static func columnTokens(_ document: SearchDocument) -> [[String]] {
        document.texts.map(SearchText.tokens)
    }

    private static func matches(_ term: Term, in columns: [[String]]) -> Bool {
        term.alternatives.contains { phrases in phrases.allSatisfy { phrase in columns.contains { matches(phrase, $0) } } }
    }

    /// The phrase's tokens at consecutive positions of `tokens`, the last as a prefix; a number
    /// also after a 0.
    private static func matches(_ phrase: Phrase, _ tokens: [String]) -> Bool {
        if phrase.isNumber {
            let number = phrase.tokens[0]
            let afterZero = "0" + number
            return tokens.contains { $0.hasPrefix(number) || $0.hasPrefix(afterZero) }
        }
        let wanted = phrase.tokens
        guard let last = wanted.last, tokens.count >= wanted.count else { return false }
        for start in 0...(tokens.count - wanted.count) {
            var all = true
            for (offset, token) in wanted.enumerated() {
                let found = tokens[start + offset]
                if offset == wanted.count - 1 ? !found.hasPrefix(last) : found != token {
                    all = false
                    break
                }
            }
            if all { return true }
        }
        return false
    }
}
