import CarnetModels
import Foundation

/// Limits that keep a streaming reader's memory bounded when a file is broken (an unterminated
/// CSV quote or a runaway folded line would otherwise swallow the rest of a huge file).
enum InterchangeLimits {
    /// A photo is at most 1 MiB, about 1.4 MB in base64; anything much longer is a broken file.
    /// Also the longest line a reader holds: a longer one is refused as it arrives.
    static let recordBytes = 8 << 20
}

/// Timestamps as interchange files write them, in UTC, computed with integers so a
/// millisecond-precise `Date` (as `Contact` holds) survives a write and a read unchanged.
enum InterchangeDate {
    /// `2026-11-23T08:55:07.123Z`: ISO 8601 extended, milliseconds, UTC; the same text (and the
    /// same rounding) as the database's `Timestamp`.
    static func extended(_ date: Date) -> String {
        Timestamp.string(date)
    }

    /// `20261123T085507Z`: the RFC 6350 timestamp (whole seconds, UTC).
    static func basic(_ date: Date) -> String {
        let (y, mo, d, h, mi, s, _) = parts(date)
        return "\(pad(y, 4))\(pad(mo, 2))\(pad(d, 2))T\(pad(h, 2))\(pad(mi, 2))\(pad(s, 2))Z"
    }

    /// Reads ISO 8601 dates and date-times in basic or extended form: `20261123T085507Z`,
    /// `2026-11-23T08:55:07Z`, `2026-11-23 08:55:07.123+01:00`, `2026-11-23`. A time without a
    /// zone is taken as UTC. Anything else is nil.
    static func parse(_ text: some StringProtocol) -> Date? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 32 || last == 9 { bytes.removeLast() }
        while let first = bytes.first, first == 32 || first == 9 { bytes.removeFirst() }
        var i = 0
        func digits(_ count: Int) -> Int64? {
            guard i + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for k in i..<(i + count) {
                guard bytes[k] >= 48, bytes[k] <= 57 else { return nil }
                value = value * 10 + Int64(bytes[k] - 48)
            }
            i += count
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        func atDigit() -> Bool { i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 }

        guard let year = digits(4) else { return nil }
        let dashed = skip(45)
        guard let month = digits(2) else { return nil }
        if dashed, !skip(45) { return nil }
        guard let day = digits(2) else { return nil }
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, millis: Int64 = 0, offset: Int64 = 0
        if i < bytes.count {
            guard skip(84) || skip(116) || skip(32), let h = digits(2) else { return nil }
            let colons = skip(58)
            guard let m = digits(2) else { return nil }
            hour = h
            minute = m
            if colons ? skip(58) : atDigit() {
                guard let s = digits(2) else { return nil }
                second = s
                if skip(46) || skip(44) {
                    guard atDigit() else { return nil }
                    var scale: Int64 = 100
                    while atDigit() {
                        millis += Int64(bytes[i] - 48) * scale
                        scale /= 10
                        i += 1
                    }
                }
            }
            if skip(90) || skip(122) {
                // UTC
            } else if i < bytes.count, bytes[i] == 43 || bytes[i] == 45 {
                let sign: Int64 = bytes[i] == 45 ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                var om: Int64 = 0
                if skip(58) || atDigit() {
                    guard let m = digits(2) else { return nil }
                    om = m
                }
                offset = sign * (oh * 60 + om)
            }
        }
        guard i == bytes.count, (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59,
              second <= 60, offset > -24 * 60, offset < 24 * 60
        else { return nil }
        let days = days(fromCivil: year, month, day)
        let ms = ((days * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + millis
        return Timestamp.date(milliseconds: ms)
    }

    private static func parts(_ date: Date) -> (Int64, Int64, Int64, Int64, Int64, Int64, Int64) {
        let ms = Timestamp.milliseconds(date)
        var days = ms / 86_400_000
        var msOfDay = ms % 86_400_000
        if msOfDay < 0 {
            days -= 1
            msOfDay += 86_400_000
        }
        let (y, m, d) = civil(fromDays: days)
        return (y, m, d, msOfDay / 3_600_000, msOfDay / 60_000 % 60, msOfDay / 1000 % 60, msOfDay % 1000)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(max(0, value))
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func days(fromCivil y: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        Timestamp.days(fromCivil: y, m, d)
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        Timestamp.civil(fromDays: days)
    }
}

/// Base64 as files carry it: line breaks and spaces inside are fine, missing `=` padding is
/// forgiven, any other stray character makes the whole value invalid.
enum InterchangeBase64 {
    static func decode(_ bytes: some Sequence<UInt8>) -> Data? {
        var clean: [UInt8] = []
        clean.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes where byte != 32 && byte != 9 && byte != 10 && byte != 13 {
            clean.append(byte)
        }
        if clean.isEmpty { return Data() }
        switch clean.count % 4 {
        case 1: return nil
        case 2: clean.append(contentsOf: [61, 61])
        case 3: clean.append(61)
        default: break
        }
        return Data(base64Encoded: Data(clean))
    }
}

/// Bytes to text. UTF-8 unless a vCard `CHARSET` names another encoding Foundation knows
/// (Shift_JIS, Windows-1250, ISO-8859-2, …); bytes that are not valid in it are read as
/// Windows-1252 (a superset of Latin-1's printable characters), which is what old spreadsheet and
/// phone exports almost always are, rather than failing or inventing U+FFFD.
enum InterchangeText {
    static func string(_ bytes: some Collection<UInt8>, charset: String? = nil) -> String {
        if let charset {
            switch charset.asciiLowercased {
            case "utf-8", "utf8": break
            case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "us-ascii", "ascii":
                return latin1(bytes)
            case "windows-1252", "cp1252":
                return windows1252(bytes)
            default:
                if let encoding = encoding(named: charset), let text = String(bytes: Array(bytes), encoding: encoding) {
                    return text
                }
            }
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return windows1252(bytes)
    }

    /// The encoding an IANA charset name (as vCard's `CHARSET` gives it) stands for, if
    /// Foundation can decode it.
    static func encoding(named name: String) -> String.Encoding? {
        let key = String(name.asciiLowercased.unicodeScalars.filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch key {
        case "utf8": return .utf8
        case "usascii", "ascii": return .ascii
        case "iso88591", "latin1", "l1": return .isoLatin1
        case "iso88592", "latin2", "l2": return .isoLatin2
        case "windows1250", "cp1250", "xcp1250": return .windowsCP1250
        case "windows1251", "cp1251", "xcp1251": return .windowsCP1251
        case "windows1252", "cp1252", "xcp1252": return .windowsCP1252
        case "windows1253", "cp1253": return .windowsCP1253
        case "windows1254", "cp1254": return .windowsCP1254
        case "shiftjis", "sjis", "xsjis", "windows31j", "cp932", "mskanji", "csshiftjis": return .shiftJIS
        case "eucjp", "xeucjp": return .japaneseEUC
        case "iso2022jp", "csiso2022jp": return .iso2022JP
        case "utf16": return .utf16
        case "utf16be": return .utf16BigEndian
        case "utf16le": return .utf16LittleEndian
        case "macintosh", "macroman", "mac": return .macOSRoman
        default:
            // Encodings Foundation knows by their CoreFoundation number (0x80000000 | CFStringEncoding).
            let coreFoundation: [String: UInt] = [
                "gb2312": 0x0930, "euccn": 0x0930, "gbk": 0x0631, "cp936": 0x0631, "gb18030": 0x0632, "big5": 0x0A03,
                "euckr": 0x0940, "ksc56011987": 0x0940, "koi8r": 0x0A02, "koi8u": 0x0A08, "iso88595": 0x0205,
                "iso88597": 0x0207, "iso88599": 0x0209, "iso885913": 0x020D, "iso885915": 0x020F, "latin9": 0x020F,
                "windows1255": 0x0505, "windows1256": 0x0506, "windows1257": 0x0507, "windows1258": 0x0508,
            ]
            return coreFoundation[key].map { String.Encoding(rawValue: 0x8000_0000 | $0) }
        }
    }

    static func latin1(_ bytes: some Collection<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    static func windows1252(_ bytes: some Collection<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { byte -> Unicode.Scalar in
            guard byte >= 0x80, byte <= 0x9F, let scalar = Unicode.Scalar(cp1252[Int(byte) - 0x80]) else {
                return Unicode.Scalar(byte)
            }
            return scalar
        }))
    }

    private static let cp1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152, 0x8D, 0x17D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178,
    ]

    /// "UTF-16LE" or "UTF-16BE" when the first line of a file is UTF-16 (a byte order mark, or
    /// ASCII with a NUL after or before every character), which Carnet does not read.
    static func utf16Encoding(_ firstLine: [UInt8]) -> String? {
        if firstLine.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if firstLine.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        guard firstLine.count >= 4 else { return nil }
        let pairs = firstLine.prefix(16)
        let even = stride(from: 0, to: pairs.count - 1, by: 2).map { pairs[$0] }
        let odd = stride(from: 1, to: pairs.count, by: 2).map { pairs[$0] }
        if odd.allSatisfy({ $0 == 0 }), even.allSatisfy({ $0 >= 32 && $0 < 127 }) { return "UTF-16LE" }
        if even.allSatisfy({ $0 == 0 }), odd.allSatisfy({ $0 >= 32 && $0 < 127 }) { return "UTF-16BE" }
        return nil
    }

    static func utf16Message(_ encoding: String) -> String {
        "the file is \(encoding) text, which Carnet does not read; save it as UTF-8 (iconv -f \(encoding) -t UTF-8 FILE > NEW)"
    }

    /// A short, printable excerpt of a line for an error message: characters a terminal should
    /// not receive raw (a stray carriage return, an escape sequence) are written as `\u{D}`.
    static func preview(_ bytes: some Collection<UInt8>) -> String {
        let text = string(bytes)
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"" + TextRules.escapedForDisplay(shown) + "\""
    }
}

/// Splits chunks of bytes into lines, keeping an unfinished last line for the next chunk, so a
/// reader fed 64 KiB at a time never holds more than a line of the file.
///
/// A line ends at LF, CRLF, a lone CR (classic Mac OS) or CRCRLF (what iOS 5 and 6 write): a run
/// of CRs and the LF after it are one line break, so none of them makes a blank line that would
/// cut a folded property in two.
///
/// A line longer than `InterchangeLimits/recordBytes` is handed on cut to one byte past that
/// length (for the reader to refuse) and the rest of it is skipped as it arrives, so an endless
/// line (`/dev/zero`) holds no more than that in memory.
struct LineSplitter: Sendable {
    private var partial: [UInt8] = []
    /// The last byte seen ended a line with CR: more CRs and one LF still belong to that break.
    private var inBreak = false
    /// The line being read was already handed on cut: skip up to its line break.
    private var skippingLine = false

    /// The complete lines in `chunk` (after what earlier chunks left), without their line breaks.
    mutating func split(_ chunk: UnsafeRawBufferPointer) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        var i = 0
        let count = chunk.count
        while i < count {
            let byte = chunk[i]
            if byte != 10 && byte != 13 {
                inBreak = false
                i += 1
                continue
            }
            if skippingLine {
                skippingLine = false
                inBreak = byte == 13
                i += 1
                start = i
                continue
            }
            if inBreak {
                // The CRs and LF that follow a CR are the same line break.
                if byte == 10 { inBreak = false }
                i += 1
                start = i
                continue
            }
            // Copied in one go from the chunk's bytes: appending a slice of the buffer grew the
            // array byte by byte, a visible part of a vCard import.
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[start..<i])
            if partial.isEmpty {
                lines.append(Array(bytes))
            } else {
                partial.append(contentsOf: bytes)
                lines.append(partial)
                partial = []
            }
            inBreak = byte == 13
            i += 1
            start = i
        }
        if skippingLine { return lines }
        let rest = UnsafeRawBufferPointer(rebasing: chunk[start..<count])
        let limit = InterchangeLimits.recordBytes + 1
        if partial.count + rest.count >= limit {
            partial.append(contentsOf: rest.prefix(limit - partial.count))
            lines.append(partial)
            partial = []
            skippingLine = true
        } else {
            partial.append(contentsOf: rest)
        }
        return lines
    }

    /// What is left after the last line break, if anything: the file's last line when it has
    /// no final newline.
    mutating func flush() -> [UInt8]? {
        defer {
            partial = []
            inBreak = false
            skippingLine = false
        }
        guard !partial.isEmpty else { return nil }
        return partial
    }

    /// Whether part of a line is waiting for the rest.
    var isEmpty: Bool { partial.isEmpty }
}

extension Array where Element == UInt8 {
    /// Removes a UTF-8 byte order mark, which some exporters put at the start of the file.
    mutating func dropByteOrderMark() {
        if starts(with: [0xEF, 0xBB, 0xBF]) { removeFirst(3) }
    }

    /// Whether the bytes are empty or only spaces and tabs.
    var isBlankLine: Bool { allSatisfy { $0 == 32 || $0 == 9 } }

    /// Case-insensitive ASCII comparison with `keyword`, ignoring trailing spaces and tabs.
    func matchesKeyword(_ keyword: String) -> Bool {
        var end = count
        while end > 0, self[end - 1] == 32 || self[end - 1] == 9 { end -= 1 }
        guard end == keyword.utf8.count else { return false }
        return zip(self[..<end], keyword.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }
}

extension String {
    /// `hasPrefix` ignoring ASCII case, without lower-casing a copy of the whole string.
    func hasASCIIPrefixIgnoringCase(_ prefix: String) -> Bool {
        var mine = utf8.makeIterator()
        for byte in prefix.utf8 {
            guard let other = mine.next(), asciiLower(other) == asciiLower(byte) else { return false }
        }
        return true
    }

    /// The UTF-8 bytes of the string, read without copying when it is contiguous.
    func withUTF8Bytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}
