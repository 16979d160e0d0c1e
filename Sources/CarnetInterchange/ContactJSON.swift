import CarnetModels
import Foundation

/// One contact as `carnet list --json` and `carnet show --json` print it and `carnet import`
/// reads it back: the documented JSON schema, so scripts can rely on the keys.
///
/// ```json
/// {
///   "id": 1,
///   "uid": "0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11",
///   "name": "Dr. Augusta Ada King, Countess of Lovelace",
///   "prefix": "Dr.", "given": "Augusta Ada", "additional": "", "family": "King",
///   "suffix": "Countess of Lovelace",
///   "nickname": "Ada",
///   "organization": "Analytical Engines, Ltd.", "department": "Research",
///   "title": "Mathematician", "role": "Author",
///   "emails": [{"label": "work", "value": "ada@example.com", "preferred": true},
///              {"label": "", "value": "ada@home.example", "preferred": false}],
///   "phones": [{"label": "cell", "value": "+44 20 7946 0000", "preferred": true}],
///   "addresses": [{"label": "home", "poBox": "", "extended": "", "street": "12 St James's Square",
///                  "locality": "London", "region": "", "postalCode": "SW1Y 4JH",
///                  "country": "United Kingdom", "preferred": true}],
///   "urls": [{"label": "work", "value": "https://example.com/ada", "preferred": false}],
///   "handles": [{"label": "skype", "value": "ada", "preferred": false}],
///   "dates": [{"label": "birthday", "date": "1815-12-10"}, {"label": "anniversary", "date": "--07-08"}],
///   "note": "First line\nSecond line",
///   "categories": ["friends", "mathematicians"],
///   "photo": "/9j/4AAQSkZJRg==",
///   "extras": ["item1.X-ABRELATEDNAMES:William King", "item1.X-ABLabel:_$!<Spouse>!$_"],
///   "favorite": false,
///   "createdAt": "2026-11-23T08:55:07.123Z",
///   "updatedAt": "2026-11-23T08:55:07.123Z",
///   "version": 1
/// }
/// ```
///
/// | key | type | what |
/// |---|---|---|
/// | `id` | integer | the contact's id in this address book |
/// | `uid` | string | the stable identifier vCard `UID` carries |
/// | `name` | string | the display name (vCard `FN`) |
/// | `prefix`, `given`, `additional`, `family`, `suffix` | string | the structured name (vCard `N`) |
/// | every other one-line field of `ContactFields` under its key (`nickname`, `organization`, `department`, `title`, `role`, …) | string | one line each |
/// | `emails`, `phones`, `urls`, `handles`, and every other list of labelled values of `ContactFields` under its key | array of `{label, value, preferred}` | in the person's order; `label` is a type the list knows (`work`, `home`, `cell`, `fax`, …) or a free label, or `""`; at most one `preferred`. A handle's label is its service (`skype`, `mastodon`) |
/// | `addresses` | array of `{label, poBox, extended, street, locality, region, postalCode, country, preferred}` | vCard `ADR`'s seven parts |
/// | `dates` | array of `{label, date}` | `label` is `birthday`, `anniversary` or a free label; `date` is `1815-12-10`, or `--12-10` without a year |
/// | `note` | string | may hold line breaks (`\n`) |
/// | `categories` | array of strings | the person's groups |
/// | `photo` | base64 string or `null` | JPEG, PNG, GIF or WebP |
/// | `extras` | array of strings | vCard properties Carnet does not model, each an unfolded content line kept verbatim |
/// | `favorite` | boolean | whether the contact is a favorite |
/// | `createdAt`, `updatedAt` | string | ISO 8601 in UTC with milliseconds |
/// | `version` | integer | starts at 1, grows by one with every saved edit |
///
/// The keys of the contact's fields are their `ContactFieldSpec.key`s, so the list is
/// `ContactFields.all` in order; every key is always written (`null` for no photo, `""` and `[]`
/// for empty fields), sorted. On input only a name is required (`name`, or a `given` or
/// `family` to make it from): a file written by hand may leave out the rest, and so may an entry
/// (`{"value": "ada@example.com"}` has no label and is not preferred). `id`, `favorite`,
/// `createdAt` and `version` restore a backup into a new file and are otherwise the database's
/// business. A file of Carnet's first schema still imports: its `position` becomes title and
/// organization (split at the first ", "), its `email` and `phone` the preferred entries.
/// Dates are ISO 8601 in UTC with milliseconds, the precision contacts are stored with, so they
/// survive a round trip.
public struct ContactJSON: Codable, Sendable, Equatable {
    public var id: Int64?
    public var uid: String?
    /// The editable fields, each under its `ContactFieldSpec.key` (see `ContactFields`).
    public var draft: ContactDraft
    public var favorite: Bool?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var version: Int?
    /// The names of the groups the contact is in, as `carnet show --json` prints them; never
    /// read on import (a group lists its members, not the other way round).
    public var groups: [String]?

    public init(
        id: Int64? = nil, uid: String? = nil, draft: ContactDraft, favorite: Bool? = nil, createdAt: Date? = nil,
        updatedAt: Date? = nil, version: Int? = nil
    ) {
        self.id = id
        self.uid = uid
        self.draft = draft
        self.favorite = favorite
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    public init(contact: Contact, favorite: Bool) {
        self.init(
            id: contact.id, uid: contact.uid, draft: contact.draft, favorite: favorite, createdAt: contact.createdAt,
            updatedAt: contact.updatedAt, version: contact.version)
    }

    public var name: String { draft.name }

    /// The fields an import uses, with `InterchangeRecord.line` 1 (`ContactJSONCoding/decode(_:)`
    /// sets the real line).
    public var record: InterchangeRecord { record(line: 1) }

    /// The fields an import uses, at the given line.
    public func record(line: Int) -> InterchangeRecord {
        var draft = draft
        if draft.photo?.isEmpty == true { draft.photo = nil }
        return InterchangeRecord(
            uid: uid?.isEmpty == true ? nil : uid, draft: draft, updatedAt: updatedAt, line: line,
            id: id, createdAt: createdAt, version: version, favorite: favorite)
    }

    typealias Key = FieldCodingKey

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        uid = try c.decodeIfPresent(String.self, forKey: .uid)
        draft = ContactDraft()
        for spec in ContactFields.all {
            let key = Key(spec.key)
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath):
                draft[keyPath: keyPath] = try c.decodeIfPresent(String.self, forKey: key) ?? ""
            case let .photo(keyPath):
                draft[keyPath: keyPath] = try c.decodeIfPresent(Data.self, forKey: key)
            case let .list(list):
                try list.decode(&draft, c, key)
            }
        }
        // A file from Carnet's first schema: one position, email and phone.
        if draft.title.isEmpty, draft.organization.isEmpty, let position = try c.decodeIfPresent(String.self, forKey: .position) {
            draft.position = position
        }
        if draft.emails.isEmpty, let email = try c.decodeIfPresent(String.self, forKey: .email) { draft.email = email }
        if draft.phones.isEmpty, let phone = try c.decodeIfPresent(String.self, forKey: .phone) { draft.phone = phone }
        if draft.name.isEmpty && draft.nameParts.isEmpty {
            // The name is required: say so as JSON decoding does for a missing key.
            _ = try c.decode(String.self, forKey: Key("name"))
        }
        // A group card: only there for groups, so a person's JSON is as it was.
        if try c.decodeIfPresent(String.self, forKey: .kind) == ContactKind.group.rawValue {
            draft.kind = .group
            draft.groupForm = try c.decodeIfPresent(String.self, forKey: .groupForm).flatMap(GroupForm.init(rawValue:))
            draft.members = try c.decodeIfPresent([String].self, forKey: .members) ?? []
        }
        favorite = try c.decodeIfPresent(Bool.self, forKey: .favorite)
        createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
        version = try c.decodeIfPresent(Int.self, forKey: .version)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        func put<T: Encodable>(_ value: T?, _ key: Key) throws {
            if let value { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
        }
        try put(id, .id)
        try put(uid, .uid)
        for spec in ContactFields.all {
            let key = Key(spec.key)
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath): try c.encode(draft[keyPath: keyPath], forKey: key)
            case let .photo(keyPath): try put(draft[keyPath: keyPath], key)
            case let .list(list): try list.encode(draft, &c, key)
            }
        }
        if draft.kind == .group {
            try c.encode(draft.kind.rawValue, forKey: .kind)
            try c.encodeIfPresent(draft.groupForm?.rawValue, forKey: .groupForm)
            try c.encode(draft.members, forKey: .members)
        }
        try put(favorite, .favorite)
        try put(createdAt, .createdAt)
        try put(updatedAt, .updatedAt)
        try put(version, .version)
        try c.encodeIfPresent(groups, forKey: .groups)
    }
}

extension ContactJSON {
    /// Every key a contact object may have: the fields' keys, the record's own, a group's, the
    /// `groups` `show --json` prints, and the first schema's `position`, `email` and `phone`.
    /// Any other key is refused on import rather than dropped without a word.
    static let keys: Set<String> = Set(ContactFields.all.map(\.key)).union([
        "id", "uid", "favorite", "createdAt", "updatedAt", "version", "kind", "groupForm", "members", "groups",
        "position", "email", "phone",
    ])
}

extension FieldCodingKey {
    static let id = Self("id"), uid = Self("uid"), favorite = Self("favorite")
    static let createdAt = Self("createdAt"), updatedAt = Self("updatedAt"), version = Self("version")
    static let position = Self("position"), email = Self("email"), phone = Self("phone")
    static let kind = Self("kind"), groupForm = Self("groupForm"), members = Self("members"), groups = Self("groups")
}

/// The one JSON configuration Carnet uses, so `list --json`, export and import agree on dates
/// (ISO 8601, UTC, milliseconds), data (base64) and layout (sorted keys, pretty-printed).
public enum ContactJSONCoding {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InterchangeDate.extended(date))
        }
        return encoder
    }

    /// Reads dates with or without milliseconds, in any zone (`Z`, `+01:00`).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = InterchangeDate.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date (write it like 2026-11-23T08:55:07.123Z)")
            }
            return date
        }
        return decoder
    }

    /// The JSON array of `contacts`, as `carnet list --json` prints it.
    public static func encode(_ contacts: [ContactJSON]) throws -> Data {
        try encoder().encode(contacts)
    }

    /// The records of a JSON array of contacts (or of a single contact object), each with the
    /// line its object starts on. A syntax error or a wrong value is reported with its line.
    /// A key given twice in one object, or a contact's key Carnet does not read, is an error
    /// (see `keyProblem(_:firstLine:)`).
    public static func decode(_ data: Data) throws(InterchangeError) -> [InterchangeRecord] {
        if let problem = keyProblem([UInt8](data)) { throw problem }
        return try decode(checked: data)
    }

    /// `decode(_:)` of text whose keys `keyProblem(_:firstLine:)` found nothing wrong with.
    static func decode(checked data: Data) throws(InterchangeError) -> [InterchangeRecord] {
        let bytes = [UInt8](data)
        let decoder = decoder()
        do {
            let firstByte = bytes.first(where: { !JSONLocator.isSpace($0) })
            let items = firstByte == 123 ? [try decoder.decode(ContactJSON.self, from: data)] : try decoder.decode([ContactJSON].self, from: data)
            var locator = JSONLocator(bytes, target: nil)
            _ = locator.run()
            return items.enumerated().map { index, item in
                item.record(line: index < locator.elementLines.count ? locator.elementLines[index] : 1)
            }
        } catch let error as DecodingError {
            throw interchangeError(error, bytes)
        } catch {
            throw InterchangeError(line: 1, message: "cannot read the JSON: \(error)")
        }
    }

    /// A key given twice in one object, or a contact's key Carnet does not read, the first in
    /// the text, with its line counted from `firstLine`; nil for text that is not valid JSON
    /// (the decoder names what is wrong with it). JSON readers disagree on a repeated key
    /// (Foundation keeps the first, Python, JavaScript and jq the last), so which value was meant
    /// cannot be known; an unknown key is most often a typing slip, and what it holds would
    /// otherwise be lost without a word.
    static func keyProblem(_ bytes: [UInt8], firstLine: Int = 1) -> InterchangeError? {
        var locator = JSONLocator(bytes, target: nil, firstLine: firstLine)
        guard locator.run() == nil, let problem = locator.keyProblem else { return nil }
        let which = locator.elementDepth == 0 ? "" : "contact \(problem.element + 1): "
        switch problem.kind {
        case let .repeated(first):
            return InterchangeError(line: problem.line, message: "\(which)\"\(problem.key)\" is given twice (first on line \(first)): write it once")
        case .unknown:
            let near = closestKey(to: problem.key).map { " (did you mean \"\($0)\"?)" } ?? ""
            return InterchangeError(
                line: problem.line,
                message: "\(which)\"\(TextRules.escapedForDisplay(problem.key))\" is not a key Carnet reads\(near): rename it, "
                    + "or put what it holds in \"note\" or \"extras\" (see docs/formats.md)")
        }
    }

    /// The known key `key` was most likely meant to be: the same but for case, or at most two
    /// edits away (one for a key of three letters or fewer).
    private static func closestKey(to key: String) -> String? {
        let typed = Array(key.lowercased().unicodeScalars)
        guard typed.count <= 40 else { return nil }
        let limit = typed.count <= 3 ? 1 : 2
        var best: (key: String, distance: Int)?
        for known in ContactJSON.keys.sorted() {
            let distance = editDistance(typed, Array(known.lowercased().unicodeScalars))
            if distance <= limit, distance < best?.distance ?? .max { best = (known, distance) }
        }
        return best?.key
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    private static func interchangeError(_ error: DecodingError, _ bytes: [UInt8]) -> InterchangeError {
        let context: DecodingError.Context
        switch error {
        case let .typeMismatch(_, c), let .valueNotFound(_, c), let .keyNotFound(_, c), let .dataCorrupted(c):
            context = c
        @unknown default:
            return InterchangeError(line: 1, message: "cannot read the JSON: \(error)")
        }
        // The path is [element index, key] for an array, [key] for a single object.
        let path = context.codingPath
        let single = bytes.first(where: { !JSONLocator.isSpace($0) }) == 123
        let index = single ? 0 : path.first?.intValue
        let key = (single ? path.first : path.dropFirst().first)?.stringValue
        var locator = JSONLocator(bytes, target: index)
        if let syntax = locator.run() {
            return InterchangeError(line: syntax.line, message: "not valid JSON: \(syntax.message)")
        }
        let elementLine = index.flatMap { $0 < locator.elementLines.count ? locator.elementLines[$0] : nil } ?? 1
        let line = key.flatMap { locator.keyLines[$0] } ?? elementLine
        let what = key.map { "\"\($0)\"" } ?? "the value"
        switch error {
        case let .keyNotFound(missing, _):
            return InterchangeError(line: elementLine, message: "the contact has no \"\(missing.stringValue)\"")
        case let .valueNotFound(type, _):
            return InterchangeError(line: line, message: "\(what) must not be null (expected \(describe(type)))")
        case let .typeMismatch(type, _):
            if path.isEmpty {
                return InterchangeError(line: 1, message: "expected an array of contacts")
            }
            if key == nil {
                return InterchangeError(line: elementLine, message: "expected a contact object")
            }
            return InterchangeError(line: line, message: "\(what) must be \(describe(type))")
        default:
            if key == nil, single, let (culprit, found) = culprit(bytes) {
                let expected = expectations[culprit] ?? "another kind of value"
                return InterchangeError(line: locator.keyLines[culprit] ?? elementLine, message: "\"\(culprit)\" must be \(expected), found \(found)")
            }
            return InterchangeError(line: line, message: "\(what): \(context.debugDescription)")
        }
    }

    /// What the keys whose type Foundation's decoder may fail to name hold.
    private static let expectations = [
        "id": "an integer", "version": "an integer", "favorite": "true or false",
        "createdAt": "an ISO 8601 date string", "updatedAt": "an ISO 8601 date string",
    ]

    /// The key of a contact object whose value the decoder refused without saying where (as
    /// Foundation does for `1.5` where an integer belongs: "The given data was not valid
    /// JSON."), and that value as the file wrote it: the one key without which the object reads.
    private static func culprit(_ bytes: [UInt8]) -> (key: String, found: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        let decoder = decoder()
        for key in object.keys.sorted() {
            var rest = object
            rest[key] = nil
            guard let data = try? JSONSerialization.data(withJSONObject: rest),
                  (try? decoder.decode(ContactJSON.self, from: data)) != nil,
                  let value = object[key] else { continue }
            let text = (try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed))
                .map { String(decoding: $0.prefix(40), as: UTF8.self) } ?? "?"
            return (key, TextRules.escapedForDisplay(text))
        }
        return nil
    }

    private static func describe(_ type: Any.Type) -> String {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): return "a string"
        case ObjectIdentifier(Bool.self): return "true or false"
        case ObjectIdentifier(Int.self), ObjectIdentifier(Int64.self): return "an integer"
        case ObjectIdentifier(Data.self): return "a base64 string"
        case ObjectIdentifier(Date.self): return "an ISO 8601 date string"
        case ObjectIdentifier([ContactJSON].self), ObjectIdentifier(Array<Any>.self): return "an array"
        default: return "a \(type)"
        }
    }
}

/// Finds lines in JSON text, which `JSONDecoder` does not report: where each element of the
/// top-level array starts, where the keys of one element are, and where a syntax error is.
struct JSONLocator {
    private let bytes: [UInt8]
    private let target: Int?
    /// The depth of the objects that are contacts: 0 for a single object, 1 inside an array.
    let elementDepth: Int
    private var i = 0
    private var line: Int
    /// The line each top-level element starts on (one entry for a top-level object).
    private(set) var elementLines: [Int] = []
    /// The line of each key of the `target` element.
    private(set) var keyLines: [String: Int] = [:]

    /// A key given twice in one object, or a contact's own key Carnet does not read.
    struct KeyProblem {
        enum Kind {
            /// Given before on that line.
            case repeated(Int)
            case unknown
        }

        let kind: Kind
        let key: String
        let line: Int
        /// The index of the contact it is in.
        let element: Int
    }

    /// The first key problem in the text.
    private(set) var keyProblem: KeyProblem?

    /// `firstLine`: the line the text starts on in its file.
    init(_ bytes: [UInt8], target: Int?, firstLine: Int = 1) {
        self.bytes = bytes
        self.target = target
        line = firstLine
        elementDepth = bytes.first(where: { !Self.isSpace($0) }) == 123 ? 0 : 1
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }

    struct Failure: Error {
        let line: Int
        let message: String
    }

    /// Scans the whole text; returns its first syntax error, if any.
    mutating func run() -> (line: Int, message: String)? {
        do throws(Failure) {
            skipSpace()
            guard i < bytes.count else { throw Failure(line: line, message: "the file is empty") }
            if bytes[i] == 123 {
                elementLines.append(line)
                try value(depth: 0, element: 0)
            } else {
                try value(depth: 0, element: nil)
            }
            skipSpace()
            if i < bytes.count { throw Failure(line: line, message: "unexpected text after the end of the JSON") }
            return nil
        } catch {
            return (error.line, error.message)
        }
    }

    private mutating func skipSpace() {
        while i < bytes.count, Self.isSpace(bytes[i]) {
            if bytes[i] == 10 { line += 1 }
            i += 1
        }
    }

    private func found() -> String {
        guard i < bytes.count else { return "the end of the file" }
        return "'" + InterchangeText.string(bytes[i..<min(bytes.count, i + 12)]).prefix(while: { !$0.isNewline }) + "'"
    }

    /// `element` is the index of the top-level element this value is (depth 1), or belongs to.
    private mutating func value(depth: Int, element: Int?) throws(Failure) {
        guard depth < 512 else { throw Failure(line: line, message: "nested too deeply") }
        skipSpace()
        guard i < bytes.count else { throw Failure(line: line, message: "expected a value, found the end of the file") }
        switch bytes[i] {
        case 123:
            if opensEmpty(closedBy: 125) { return }
            var seen: [String: Int] = [:]
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == 34 else {
                    throw Failure(line: line, message: "expected a key in quotes, found \(found())")
                }
                let keyLine = line
                let key = try string()
                if let element, element == target, depth == elementDepth, keyLines[key] == nil {
                    keyLines[key] = keyLine
                }
                if keyProblem == nil, let element {
                    let name = Self.unescaped(key)
                    if let first = seen[name] {
                        keyProblem = KeyProblem(kind: .repeated(first), key: name, line: keyLine, element: element)
                    } else if depth == elementDepth, !ContactJSON.keys.contains(name) {
                        keyProblem = KeyProblem(kind: .unknown, key: name, line: keyLine, element: element)
                    }
                    seen[name] = keyLine
                }
                skipSpace()
                guard i < bytes.count, bytes[i] == 58 else { throw Failure(line: line, message: "expected ':' after a key, found \(found())") }
                i += 1
                try value(depth: depth + 1, element: element)
                if try closes(with: 125) { return }
            }
        case 91:
            if opensEmpty(closedBy: 93) { return }
            var index = 0
            while true {
                skipSpace()
                if depth == 0 { elementLines.append(line) }
                try value(depth: depth + 1, element: depth == 0 ? index : element)
                index += 1
                if try closes(with: 93) { return }
            }
        case 34:
            _ = try string()
        case 116: try literal("true")
        case 102: try literal("false")
        case 110: try literal("null")
        case 45, 48...57: try number()
        default:
            throw Failure(line: line, message: "expected a value, found \(found())")
        }
    }

    /// Steps over an object's or an array's opening bracket; true, and past `close` too, when
    /// the container is empty.
    private mutating func opensEmpty(closedBy close: UInt8) -> Bool {
        i += 1
        skipSpace()
        guard i < bytes.count, bytes[i] == close else { return false }
        i += 1
        return true
    }

    /// After a member or an element: steps over the comma (false) or the container's `close`
    /// (true); anything else is the error.
    private mutating func closes(with close: UInt8) throws(Failure) -> Bool {
        skipSpace()
        guard i < bytes.count, bytes[i] == 44 || bytes[i] == close else {
            throw Failure(line: line, message: "expected ',' or '\(Character(Unicode.Scalar(close)))', found \(found())")
        }
        i += 1
        return bytes[i - 1] == close
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard i + expected.count <= bytes.count, Array(bytes[i..<(i + expected.count)]) == expected else {
            throw Failure(line: line, message: "expected a value, found \(found())")
        }
        i += expected.count
    }

    private mutating func number() throws(Failure) {
        if bytes[i] == 45 { i += 1 }
        if i + 1 < bytes.count, bytes[i] == 48, bytes[i + 1] >= 48, bytes[i + 1] <= 57 {
            throw Failure(line: line, message: "a number has a leading zero")
        }
        func digits() -> Int {
            let from = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            return i - from
        }
        guard digits() > 0 else { throw Failure(line: line, message: "a number has no digits") }
        if i < bytes.count, bytes[i] == 46 {
            i += 1
            guard digits() > 0 else { throw Failure(line: line, message: "a number has no digits after '.'") }
        }
        if i < bytes.count, bytes[i] == 101 || bytes[i] == 69 {
            i += 1
            if i < bytes.count, bytes[i] == 43 || bytes[i] == 45 { i += 1 }
            guard digits() > 0 else { throw Failure(line: line, message: "a number has no exponent digits") }
        }
    }

    /// A key as `string()` returns it with its escapes (`n\u0061me`) read.
    private static func unescaped(_ key: String) -> String {
        guard key.contains("\\") else { return key }
        return (try? JSONDecoder().decode(String.self, from: Data(("\"" + key + "\"").utf8))) ?? key
    }

    /// Reads the string at `i` (a quote) and returns its content, escapes left as they are.
    private mutating func string() throws(Failure) -> String {
        let startLine = line
        i += 1
        let start = i
        while i < bytes.count {
            switch bytes[i] {
            case 34:
                let raw = bytes[start..<i]
                i += 1
                return InterchangeText.string(raw)
            case 92:
                guard i + 1 < bytes.count else { throw Failure(line: startLine, message: "a string is never closed") }
                let escape = bytes[i + 1]
                guard [34, 92, 47, 98, 102, 110, 114, 116, 117].contains(escape) else {
                    throw Failure(line: line, message: "a string has an invalid escape '\\\(InterchangeText.latin1([escape]))'")
                }
                i += 2
            case 10:
                throw Failure(line: startLine, message: "a string is not closed on its line (line breaks in strings are written \\n)")
            case 0..<32:
                throw Failure(line: line, message: "a string holds a control character (write it as \\u00XX)")
            default:
                i += 1
            }
        }
        throw Failure(line: startLine, message: "a string is never closed")
    }
}
