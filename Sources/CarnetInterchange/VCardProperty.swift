import CarnetModels
import Foundation

/// One unfolded content line of a vCard, `[group.]NAME[;param…]:value`, parsed just enough to map
/// it, with its bytes kept so a property Carnet does not map can be carried verbatim.
struct VCardProperty: Sendable {
    /// The whole unfolded line, as the file had it (quoted-printable soft breaks joined).
    let bytes: [UInt8]
    /// The 1-based line of the file the property starts on.
    let line: Int
    /// `item1` in `item1.EMAIL`, lower-cased (groups match ignoring case); nil without one.
    let group: String?
    /// Upper-cased, without its group.
    let name: String
    let parameters: [VCardParameter]
    /// Where the group and name end (at the first `;` or `:`).
    private let nameEnd: Int
    /// Where the value starts (after the `:`).
    private let valueStart: Int

    var value: ArraySlice<UInt8> { bytes[valueStart...] }

    init(_ bytes: [UInt8], line: Int) throws(InterchangeError) {
        self.bytes = bytes
        self.line = line
        var i = 0
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i < bytes.count, i > 0, bytes[i] == 58 || bytes[i] == 59 else {
            throw InterchangeError(line: line, message: "expected a property (NAME:value), found \(InterchangeText.preview(bytes))")
        }
        nameEnd = i
        let dot = bytes[..<i].lastIndex(of: 46)
        let nameStart = dot.map { $0 + 1 } ?? 0
        guard nameStart < i else {
            throw InterchangeError(line: line, message: "expected a property name after the group in \(InterchangeText.preview(bytes))")
        }
        group = dot.map { String(decoding: bytes[..<$0].map(asciiLower), as: UTF8.self) }
        name = String(decoding: bytes[nameStart..<i].map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
        if bytes[i] == 58 {
            parameters = []
            valueStart = i + 1
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
            throw InterchangeError(line: line, message: "\(InterchangeText.escapedName(name)): \(why)")
        }
        valueStart = j + 1
        parameters = Self.parameters(bytes, (i + 1)..<j)
    }

    /// Letters, digits and the punctuation odd exporters put in names (`X-messaging/gadu-All`):
    /// every visible ASCII character but the separators `" , : ; =`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte > 32 && byte < 127 && byte != 34 && byte != 44 && byte != 58 && byte != 59 && byte != 61
    }

    private static func parameters(_ bytes: [UInt8], _ range: Range<Int>) -> [VCardParameter] {
        var result: [VCardParameter] = []
        for piece in VCardText.split(bytes[range], at: 59) where !piece.isEmpty {
            let pieceRange = piece.startIndex..<piece.endIndex
            if let equals = VCardText.firstUnquoted(61, in: piece) {
                let key = String(decoding: piece[..<equals].map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
                let values = VCardText.split(piece[(equals + 1)...], at: 44).map(parameterValue)
                result.append(VCardParameter(name: key, values: values, range: pieceRange))
            } else {
                // vCard 2.1 writes bare parameters: `TEL;CELL;PREF:` or `PHOTO;JPEG;BASE64:`.
                let value = parameterValue(piece)
                let key = bareEncodings.contains(value.uppercased()) ? "ENCODING" : "TYPE"
                result.append(VCardParameter(name: key, values: [value], range: pieceRange))
            }
        }
        return result
    }

    /// The bare 2.1 parameters that name an encoding rather than a type.
    private static let bareEncodings: Set<String> = ["BASE64", "B", "QUOTED-PRINTABLE", "8BIT", "7BIT"]

    /// A parameter value without its quotes, with RFC 6868 `^n` `^^` `^'` decoded.
    private static func parameterValue(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        if slice.count >= 2, slice.first == 34, slice.last == 34 { slice = slice.dropFirst().dropLast() }
        var text = InterchangeText.string(slice)
        if slice.contains(94) {
            text = text.replacingOccurrences(of: "^^", with: "\u{0}")
                .replacingOccurrences(of: "^n", with: "\n").replacingOccurrences(of: "^N", with: "\n")
                .replacingOccurrences(of: "^'", with: "\"").replacingOccurrences(of: "\u{0}", with: "^")
        }
        return text
    }

    // MARK: Parameters

    /// Every value of every parameter called `name` (upper case), in order.
    func values(_ name: String) -> [String] {
        var result: [String] = []
        for parameter in parameters where parameter.name == name { result += parameter.values }
        return result
    }

    func first(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

    /// `ENCODING`, lower-cased.
    var encoding: String? { first("ENCODING")?.asciiLowercased }

    var isQuotedPrintable: Bool { encoding == "quoted-printable" }

    /// `VALUE`, lower-cased.
    var valueType: String? { first("VALUE")?.asciiLowercased }

    /// 1 is most preferred (`PREF=1`, or `TYPE=pref` as 3.0 and 2.1 write it); 101, past
    /// `PREF`'s range, means no preference.
    var preferenceRank: Int {
        var rank = 101
        if let pref = first("PREF").flatMap({ Int(VCardText.trimmed($0)) }), (1...100).contains(pref) { rank = pref }
        if values("TYPE").contains(where: { $0.asciiLowercased == "pref" }) { rank = min(rank, 1) }
        return rank
    }

    /// The names of the parameters that are not in `understood` (nor `CHARSET` and a
    /// quoted-printable or 8-bit `ENCODING`, which only say how the value is written).
    func parameterNames(notIn understood: Set<String>) -> [String] {
        if parameters.isEmpty { return [] }
        var names: [String] = []
        var seen: Set<String> = []
        for parameter in parameters where !understood.contains(parameter.name) && seen.insert(parameter.name).inserted {
            switch parameter.name {
            case "CHARSET": continue
            case "ENCODING" where ["quoted-printable", "8bit", "7bit"].contains(parameter.values.first?.asciiLowercased ?? ""):
                continue
            default: names.append(parameter.name)
            }
        }
        return names
    }

    // MARK: The value

    /// The value as text, decoded (quoted-printable, charset) but still escaped.
    func rawText() -> String {
        if parameters.isEmpty { return InterchangeText.string(value) }
        guard isQuotedPrintable else { return InterchangeText.string(value, charset: first("CHARSET")) }
        return InterchangeText.string(VCardText.decodeQuotedPrintable(Array(value)), charset: first("CHARSET"))
    }

    /// A text value with its escapes resolved.
    func text() -> String {
        VCardText.unescape(rawText())
    }

    /// A structured value (`N`, `ADR`, `ORG`): split at unescaped `;`, then unescaped.
    func components() -> [String] {
        VCardText.splitComponents(rawText(), at: ";").map(VCardText.unescape)
    }

    /// A list value (`CATEGORIES`): split at unescaped `,`, then unescaped.
    func listItems() -> [String] {
        VCardText.splitComponents(rawText(), at: ",").map(VCardText.unescape)
    }

    /// The bytes of an inline image (3.0 `ENCODING=b`, 2.1 `BASE64`, a 4.0 `data:` URI); nil for
    /// a link, or for data that cannot be decoded.
    func inlineData() -> Data? {
        if let encoding, encoding == "b" || encoding == "base64" {
            return InterchangeBase64.decode(value)
        }
        let text = VCardText.trimmed(InterchangeText.string(value))
        guard text.hasASCIIPrefixIgnoringCase("data:"), let comma = text.firstIndex(of: ",") else { return nil }
        let meta = String(text[text.index(text.startIndex, offsetBy: 5)..<comma]).asciiLowercased
        let payload = text[text.index(after: comma)...]
        if meta.hasSuffix(";base64") { return InterchangeBase64.decode(payload.utf8) }
        return String(payload).removingPercentEncoding.map { Data($0.utf8) }
    }

    /// The line as text to keep in ``ContactDraft/extras``, the same line the file had. A line
    /// in UTF-8 is kept as it is. A value in another charset becomes text in Carnet (and UTF-8
    /// in every file it writes), so it is decoded and its `CHARSET` parameter, no longer true,
    /// is left out; a quoted-printable value keeps its bytes and its `CHARSET`.
    func verbatim() -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let keepsCharset = isQuotedPrintable
        var text = InterchangeText.string(bytes[..<nameEnd])
        for parameter in parameters where keepsCharset || parameter.name != "CHARSET" {
            text += ";" + InterchangeText.string(bytes[parameter.range])
        }
        text += ":"
        text += keepsCharset ? InterchangeText.string(value) : InterchangeText.string(value, charset: first("CHARSET"))
        return text
    }

    /// The start of the line, printable, for a note: `TEL;WORK;VOICE:BusinessPhone`.
    var preview: String {
        var text = verbatim()
        if text.unicodeScalars.count > 60 { text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(59))) + "…" }
        return TextRules.escapedForDisplay(text)
    }
}

/// One parameter of a property: `TYPE=work,voice`, or a bare 2.1 `CELL` (read as `TYPE=CELL`).
struct VCardParameter: Sendable {
    /// Upper-cased.
    let name: String
    let values: [String]
    /// Its bytes in the line, without the `;` before it.
    let range: Range<Int>
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
        if text.utf8.allSatisfy({ $0 != 92 && $0 != 44 && $0 != 59 && $0 != 10 && $0 != 13 }) { return text }
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

    /// A parameter value as RFC 6350 and RFC 6868 write it: in quotes when it holds `,` `;` or
    /// `:`, with `^` `"` and line breaks as `^^` `^'` `^n`.
    static func parameterValue(_ text: String) -> String {
        var value = text
        if value.contains("^") { value = value.replacingOccurrences(of: "^", with: "^^") }
        if value.contains("\"") { value = value.replacingOccurrences(of: "\"", with: "^'") }
        if value.contains("\n") { value = value.replacingOccurrences(of: "\n", with: "^n") }
        if value.utf8.contains(where: { $0 == 44 || $0 == 58 || $0 == 59 }) { value = "\"" + value + "\"" }
        return value
    }

    /// Splits an escaped structured value at its unescaped `separator`.
    static func splitComponents(_ text: String, at separator: Unicode.Scalar) -> [String] {
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
            } else if scalar == separator {
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

extension InterchangeText {
    /// A property name for a message, with anything a terminal should not receive escaped.
    static func escapedName(_ name: String) -> String { TextRules.escapedForDisplay(name) }
}
