import Foundation

/// Reads vCards (RFC 6350 4.0, RFC 2426 3.0, and the 2.1 that old phones export) one line at a
/// time and hands back each contact as soon as its `END:VCARD` arrives, so importing a file of
/// a million cards holds one card in memory, not the file.
///
/// Feed it lines with ``feed(line:)`` or chunks of bytes with `feed(_:)`, then call
/// ``finish()``; do not mix the two ways on one reader. `parse(_:)` does all of it for
/// text that is already in memory.
///
/// What becomes of each property:
/// - `FN` is the name. Without a (non-blank) `FN`, the name is built from `N`
///   (`Family;Given;Additional;Prefix;Suffix`) as "Prefix Given Additional Family Suffix".
/// - `TITLE` and `ORG` make the position: "TITLE, ORG", or whichever one is there. Only the first
///   component of `ORG` (the organization, not its units) is used. ``VCardWriter`` splits a
///   position the other way, so the mapping survives a round trip.
/// - `EMAIL` and `TEL`: a card may have several; the preferred one wins (lowest `PREF=` as in
///   4.0, or `TYPE=pref` as in 3.0 and 2.1, which counts as `PREF=1`), else the first. A `tel:`
///   or `mailto:` URI prefix is removed.
/// - `PHOTO`: inline images only, as 3.0 `ENCODING=b` (or `BASE64`) or a 4.0 `data:` URI;
///   photos that are links (`http:`, `https:`, …) are ignored. Invalid base64 is an error.
/// - `UID` (without the `urn:uuid:` prefix of a UUID) and `REV` (a timestamp; one that cannot be read is
///   ignored, as it is only a hint of freshness).
/// - Every other property is ignored, but must still look like a property (`NAME:value`).
///
/// Line folding (a line starting with a space or tab continues the previous one), CRLF or LF,
/// property groups (`item1.EMAIL`), case-insensitive names, `CHARSET=`, quoted-printable and
/// value escapes (`\,` `\;` `\\` `\n`) are handled. Folded lines are joined before decoding, so a
/// writer that split a multi-byte character across a fold still reads correctly.
///
/// After an error the reader skips the rest of the broken card and carries on, so an importer can
/// list every problem in one run if it wants to.
public struct VCardReader: InterchangeReader, LineConsumingReader {
    private var lineNumber = 0
    var splitter = LineSplitter()
    /// The logical line being assembled from folded physical lines; only inside a card.
    private var pending: PendingLine?
    private var card: CardBuilder?
    /// The open card already had an error: ignore it up to its END:VCARD.
    private var skipping = false

    public init() {}

    /// Ends the input: reads a last line that had no line break, and fails if a card is still
    /// open (its `END:VCARD` is missing). Returns the contact that last line completed, if any.
    @discardableResult
    public mutating func finish() throws(InterchangeError) -> InterchangeRecord? {
        var record: InterchangeRecord?
        if let last = splitter.flush() {
            record = try consume(last)
        }
        if let open = card {
            card = nil
            pending = nil
            skipping = false
            throw InterchangeError(line: open.line, message: "this card has no END:VCARD (the file ends inside it)")
        }
        return record
    }

    mutating func consume(_ raw: [UInt8]) throws(InterchangeError) -> InterchangeRecord? {
        lineNumber += 1
        var bytes = raw
        if lineNumber == 1 { bytes.dropByteOrderMark() }
        let folded = bytes.first == 32 || bytes.first == 9

        guard card != nil else {
            // Between cards only blank lines and BEGIN:VCARD belong.
            if bytes.isBlankLine { return nil }
            if bytes.matchesKeyword("BEGIN:VCARD") {
                card = CardBuilder(line: lineNumber)
                skipping = false
                return nil
            }
            let what = folded ? "a folded continuation line" : InterchangeText.preview(bytes)
            throw InterchangeError(line: lineNumber, message: "expected BEGIN:VCARD, found \(what) outside a card")
        }

        if var line = pending {
            // A folded line continues the pending one; so does any line after a vCard 2.1
            // quoted-printable value ending in "=" (a soft line break, not indented).
            if folded || line.isQuotedPrintableSoftBreak {
                pending = nil  // so `line` is the only reference and appending does not copy it
                if folded {
                    line.bytes.append(contentsOf: bytes.dropFirst())
                } else {
                    line.bytes.removeLast()
                    line.bytes.append(contentsOf: bytes)
                }
                try keep(line)
                return nil
            }
        } else if folded && !bytes.isBlankLine {
            skipping = true
            throw InterchangeError(line: lineNumber, message: "a folded continuation line follows no property")
        }

        // The previous logical line is complete: apply it, then look at this one.
        var problem: InterchangeError?
        if let line = pending {
            pending = nil
            if !skipping {
                do throws(InterchangeError) {
                    try card?.apply(line)
                } catch {
                    problem = error
                    skipping = true
                }
            }
        }

        var record: InterchangeRecord?
        if bytes.isBlankLine {
            // Blank lines inside a card are harmless (2.1 puts one after a base64 photo).
        } else if bytes.matchesKeyword("END:VCARD") {
            if !skipping { record = card?.build() }
            card = nil
            skipping = false
        } else if bytes.matchesKeyword("BEGIN:VCARD") {
            if !skipping, let open = card, problem == nil {
                problem = InterchangeError(
                    line: lineNumber,
                    message: "BEGIN:VCARD inside the card that began at line \(open.line) (is its END:VCARD missing?)")
            }
            card = CardBuilder(line: lineNumber)
            skipping = false
        } else {
            pending = PendingLine(bytes: bytes, line: lineNumber)
        }
        if let problem { throw problem }
        return record
    }

    private mutating func keep(_ line: PendingLine) throws(InterchangeError) {
        guard line.bytes.count <= InterchangeLimits.recordBytes else {
            pending = nil
            skipping = true
            throw InterchangeError(line: line.line, message: "this property is longer than \(InterchangeLimits.recordBytes) bytes")
        }
        pending = line
    }
}

/// One logical (unfolded) content line and the physical line it starts on.
private struct PendingLine: Sendable {
    var bytes: [UInt8]
    let line: Int

    var isQuotedPrintableSoftBreak: Bool {
        guard bytes.last == 61, let colon = bytes.firstIndex(of: 58) else { return false }
        return InterchangeText.latin1(bytes[..<colon]).uppercased().contains("QUOTED-PRINTABLE")
    }
}

/// The properties of one card that Carnet keeps, gathered as its lines arrive.
private struct CardBuilder: Sendable {
    let line: Int
    var formattedName: String?
    var structuredName: [String]?
    var title: String?
    var organization: String?
    var email: Preferred?
    var phone: Preferred?
    var photo: Data?
    var hasPhoto = false
    var uid: String?
    var revision: Date?

    struct Preferred: Sendable {
        let value: String
        let rank: Int
    }

    init(line: Int) { self.line = line }

    mutating func apply(_ pending: PendingLine) throws(InterchangeError) {
        let property = try ContentLine(pending.bytes, line: pending.line)
        switch property.name {
        case "FN":
            let value = property.text()
            if formattedName == nil, !VCardText.isBlank(value) { formattedName = value }
        case "N":
            if structuredName == nil { structuredName = property.components() }
        case "TITLE":
            let value = VCardText.trimmed(property.text())
            if title == nil, !value.isEmpty { title = value }
        case "ORG":
            let value = VCardText.trimmed(property.components().first ?? "")
            if organization == nil, !value.isEmpty { organization = value }
        case "EMAIL":
            var value = VCardText.trimmed(property.text())
            if value.hasASCIIPrefixIgnoringCase("mailto:") { value = String(value.dropFirst(7)) }
            offer(value, property, to: &email)
        case "TEL":
            var value = VCardText.trimmed(property.text())
            if value.hasASCIIPrefixIgnoringCase("tel:") {
                value = String(value.dropFirst(4))
                if let params = value.firstIndex(of: ";") { value = String(value[..<params]) }
            }
            offer(value, property, to: &phone)
        case "PHOTO":
            if !hasPhoto, let image = try property.inlineImage() {
                hasPhoto = true
                photo = image.isEmpty ? nil : image
            }
        case "UID":
            var value = VCardText.trimmed(property.text())
            if property.parameters.value != "text", value.hasASCIIPrefixIgnoringCase("urn:uuid:"),
               VCardText.isUUID(value.utf8.dropFirst(9)) {
                value = String(value.dropFirst(9))
            }
            if uid == nil, !value.isEmpty { uid = value }
        case "REV":
            if revision == nil { revision = InterchangeDate.parse(property.text()) }
        case "BEGIN":
            throw InterchangeError(line: pending.line, message: "BEGIN:\(InterchangeText.string(property.value)) inside a card")
        case "END":
            throw InterchangeError(line: pending.line, message: "END:\(InterchangeText.string(property.value)) does not close a card (expected END:VCARD)")
        default:
            break
        }
    }

    private func offer(_ value: String, _ property: ContentLine, to slot: inout Preferred?) {
        guard !value.isEmpty else { return }
        let rank = property.parameters.preferenceRank
        if slot == nil || rank < slot!.rank { slot = Preferred(value: value, rank: rank) }
    }

    func build() -> InterchangeRecord {
        var name = formattedName ?? ""
        if formattedName == nil, let parts = structuredName {
            // N is Family;Given;Additional;Prefix;Suffix; a name reads Prefix Given Additional Family Suffix.
            let part = { (index: Int) -> String in index < parts.count ? parts[index] : "" }
            name = [part(3), part(1), part(2), part(0), part(4)]
                .map { VCardText.trimmed($0.replacingOccurrences(of: ",", with: " ")) }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
        }
        let position = [title, organization].compactMap { $0 }.joined(separator: ", ")
        let draft = ContactDraft(
            name: name, position: position, email: email?.value ?? "", phone: phone?.value ?? "", photo: photo)
        return InterchangeRecord(uid: uid, draft: draft, updatedAt: revision, line: line)
    }
}

/// A parsed content line: `[group.]NAME[;param=value…]:value`.
private struct ContentLine {
    /// Upper-cased, without its group.
    let name: String
    let value: ArraySlice<UInt8>
    let line: Int
    /// Parsed only for the properties Carnet reads (see ``CardBuilder/apply(_:)``); empty for others.
    private(set) var parameters = Parameters()

    /// The properties whose parameters and value are read.
    static let used: Set<String> = ["FN", "N", "TITLE", "ORG", "EMAIL", "TEL", "PHOTO", "UID", "REV"]

    init(_ bytes: [UInt8], line: Int) throws(InterchangeError) {
        self.line = line
        var i = 0
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i < bytes.count, i > 0, bytes[i] == 58 || bytes[i] == 59 else {
            throw InterchangeError(line: line, message: "expected a property (NAME:value), found \(InterchangeText.preview(bytes))")
        }
        let fullName = bytes[..<i]
        let nameStart = (fullName.lastIndex(of: 46) ?? -1) + 1
        guard nameStart < i else {
            throw InterchangeError(line: line, message: "expected a property name after the group in \(InterchangeText.preview(bytes))")
        }
        name = String(decoding: bytes[nameStart..<i].map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
        if bytes[i] == 58 {
            value = bytes[(i + 1)...]
            return
        }
        var j = i + 1
        var quoted = false
        while j < bytes.count {
            if bytes[j] == 34 {
                quoted.toggle()
            } else if bytes[j] == 58, !quoted {
                break
            }
            j += 1
        }
        guard j < bytes.count else {
            let why = quoted ? "a quoted parameter value is not closed" : "there is no ':' before the value"
            throw InterchangeError(line: line, message: "\(name): \(why)")
        }
        value = bytes[(j + 1)...]
        if Self.used.contains(name) { parameters = Self.parameters(bytes[(i + 1)..<j]) }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
            || byte == 45 || byte == 95 || byte == 46
    }

    private static func parameters(_ parameterBytes: ArraySlice<UInt8>) -> Parameters {
        var result = Parameters()
        for piece in VCardText.split(parameterBytes, at: 59) where !piece.isEmpty {
            let equals = VCardText.firstUnquoted(61, in: piece)
            let values = VCardText.split(equals.map { piece[($0 + 1)...] } ?? piece[...], at: 44).map(parameterValue)
            if let equals {
                let key = InterchangeText.latin1(piece[..<equals]).uppercased()
                result.values[key, default: []].append(contentsOf: values)
            } else {
                // vCard 2.1 writes bare parameters: `TEL;CELL;PREF:` or `PHOTO;JPEG;BASE64:`.
                for value in values {
                    let upper = value.uppercased()
                    let key = ["BASE64", "B", "QUOTED-PRINTABLE", "8BIT", "7BIT"].contains(upper) ? "ENCODING" : "TYPE"
                    result.values[key, default: []].append(value)
                }
            }
        }
        return result
    }

    /// A parameter value without its quotes, with RFC 6868 `^n` `^^` `^'` decoded.
    private static func parameterValue(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        if slice.count >= 2, slice.first == 34, slice.last == 34 { slice = slice.dropFirst().dropLast() }
        var text = InterchangeText.string(slice)
        if text.contains("^") {
            text = text.replacingOccurrences(of: "^^", with: "\u{0}")
                .replacingOccurrences(of: "^n", with: "\n").replacingOccurrences(of: "^N", with: "\n")
                .replacingOccurrences(of: "^'", with: "\"").replacingOccurrences(of: "\u{0}", with: "^")
        }
        return text
    }

    /// The value as text, decoded (quoted-printable, charset) but still escaped.
    func rawText() -> String {
        var bytes = Array(value)
        if parameters.encoding == "quoted-printable" {
            bytes = VCardText.decodeQuotedPrintable(bytes)
        }
        return InterchangeText.string(bytes, charset: parameters.first("CHARSET"))
    }

    /// A text value with its escapes resolved.
    func text() -> String {
        VCardText.unescape(rawText())
    }

    /// A structured value (`N`, `ORG`): split at unescaped `;`, then unescaped.
    func components() -> [String] {
        VCardText.splitComponents(rawText()).map(VCardText.unescape)
    }

    /// The bytes of an inline photo, nil for a photo given as a link.
    func inlineImage() throws(InterchangeError) -> Data? {
        if let encoding = parameters.encoding, encoding == "b" || encoding == "base64" {
            guard let data = InterchangeBase64.decode(value) else {
                throw InterchangeError(line: line, message: "\(name): the inline image is not valid base64")
            }
            return data
        }
        let text = VCardText.trimmed(InterchangeText.string(value))
        guard text.hasASCIIPrefixIgnoringCase("data:") else { return nil }
        guard let comma = text.firstIndex(of: ",") else {
            throw InterchangeError(line: line, message: "\(name): the data: URI has no ','")
        }
        let meta = String(text[text.index(text.startIndex, offsetBy: 5)..<comma]).asciiLowercased
        let payload = text[text.index(after: comma)...]
        if meta.hasSuffix(";base64") {
            guard let data = InterchangeBase64.decode(payload.utf8) else {
                throw InterchangeError(line: line, message: "\(name): the data: URI is not valid base64")
            }
            return data
        }
        guard let decoded = String(payload).removingPercentEncoding else {
            throw InterchangeError(line: line, message: "\(name): the data: URI has a bad %-escape")
        }
        return Data(decoded.utf8)
    }
}

/// The parameters of one property, keys upper-cased.
private struct Parameters {
    var values: [String: [String]] = [:]

    func first(_ key: String) -> String? { values[key]?.first }

    /// `ENCODING`, lower-cased.
    var encoding: String? { first("ENCODING")?.asciiLowercased }

    /// `VALUE`, lower-cased.
    var value: String? { first("VALUE")?.asciiLowercased }

    /// 1 is most preferred (`PREF=1` or `TYPE=pref`); 101, past PREF's range, means no preference.
    var preferenceRank: Int {
        var rank = 101
        if let pref = first("PREF").flatMap({ Int(VCardText.trimmed($0)) }), (1...100).contains(pref) { rank = pref }
        if values["TYPE"]?.contains(where: { $0.asciiLowercased == "pref" }) == true { rank = min(rank, 1) }
        return rank
    }
}

/// vCard value escaping and the small text chores around it.
enum VCardText {
    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(92) else { return text }
        var result = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard let next = iterator.next() else {
                result.append(scalar)
                break
            }
            result.append(next == "n" || next == "N" ? "\n" : next)
        }
        return String(result)
    }

    /// `\`, `,`, `;` and line breaks escaped, as RFC 6350 section 3.4 asks of text values.
    static func escape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case ",": result.append(contentsOf: "\\,".unicodeScalars)
            case ";": result.append(contentsOf: "\\;".unicodeScalars)
            case "\r": result.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if !previousWasCR { result.append(contentsOf: "\\n".unicodeScalars) }
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Splits an escaped structured value at its unescaped `;`.
    static func splitComponents(_ text: String) -> [String] {
        var parts: [String] = []
        var current = String.UnicodeScalarView()
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                current.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                current.append(scalar)
                escaped = true
            } else if scalar == ";" {
                parts.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        parts.append(String(current))
        return parts
    }

    /// Splits at `separator` outside double quotes.
    static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var quoted = false
        for i in bytes.indices {
            if bytes[i] == 34 {
                quoted.toggle()
            } else if bytes[i] == separator, !quoted {
                pieces.append(bytes[start..<i])
                start = i + 1
            }
        }
        pieces.append(bytes[start...])
        return pieces
    }

    static func firstUnquoted(_ byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int? {
        var quoted = false
        for i in bytes.indices {
            if bytes[i] == 34 { quoted.toggle() } else if bytes[i] == byte, !quoted { return i }
        }
        return nil
    }

    static func decodeQuotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: return byte - 48
            case 65...70: return byte - 55
            case 97...102: return byte - 87
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 61, i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// Whether the bytes are a UUID in its 8-4-4-4-12 hex form.
    static func isUUID(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == 45 else { return false }
            } else {
                guard (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) else { return false }
            }
        }
        return true
    }

    static func isBlank(_ text: String) -> Bool { text.unicodeScalars.allSatisfy(\.properties.isWhitespace) }

    static func trimmed(_ text: String) -> String {
        // Most values start and end with a visible ASCII character: nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last, first > 32, first < 127, last > 32, last < 127 {
            return text
        }
        return Rules.trimmed(text)
    }
}
