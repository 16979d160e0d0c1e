#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output for long listings: UTF-8 gathered in one byte buffer and written 64 KiB at a
/// time, instead of a `print` (a lock, a few Strings) per row. At 100k rows into a pipe, per-row
/// overhead is what separates `carnet list` from `sqlite3` printing the same rows.
///
/// Each flush first flushes stdio, so whatever was printed before stays before; whatever is
/// printed after a flush comes after.
final class OutputBuffer {
    static let chunkSize = 64 * 1024
    private var bytes: [UInt8] = []
    private var failed = false
    private let console: Console

    init(console: Console) {
        self.console = console
        bytes.reserveCapacity(Self.chunkSize + 4096)
    }

    deinit { flush() }

    /// Writes what is gathered to standard output. A reader that went away (EPIPE with SIGPIPE
    /// ignored) gets nothing more, as with `print`.
    func flush() {
        guard !bytes.isEmpty else { return }
        console.flush()
        bytes.withUnsafeBufferPointer { buffer in
            guard var next = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 && !failed {
                let written = console.writeUnbuffered(next, left)
                if written > 0 {
                    next += written
                    left -= written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    failed = true
                }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Flushes once a chunk is full. Called between rows, so what a flush hands over ends at
    /// the end of a row.
    @inline(__always)
    func flushIfFull() {
        if bytes.count >= Self.chunkSize { flush() }
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    func write(byte: UInt8) {
        bytes.append(byte)
    }

    /// A whole number in decimal, as `String(value)` writes it.
    func write(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0"))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    func write(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: utf8)
    }

    /// `value` as one tab-separated field, exactly as `value.tsvField` writes it. Almost every
    /// value has nothing to escape: its UTF-8 is copied as it is, with no String made.
    func writeTSVField(_ value: String) {
        var value = value
        let copied = value.withUTF8 { utf8 in
            guard Self.isPlain(utf8, tsv: true) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !copied { write(value.tsvField) }
    }

    /// Whether `tsvField` would give `utf8` back unchanged: no backslash or character below
    /// U+0020, and nothing ``isPlainForDisplay(_:)`` refuses.
    static func isPlainTSV(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        isPlain(utf8, tsv: true)
    }

    /// Whether `utf8` holds none of the characters `TextRules.needsEscapeForDisplay` escapes at or
    /// above U+007F: DEL and the C1 controls, U+2028–U+202E, U+2066–U+2069 and U+FEFF (below
    /// U+0020 is the caller's business: JSON escapes those itself).
    static func isPlainForDisplay(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        isPlain(utf8, tsv: false)
    }

    /// Judged on the UTF-8 bytes. A string's UTF-8 is valid, so a lead byte is always followed
    /// by its continuation bytes; continuation bytes (0x80–0xBF) never match a lead byte below.
    @inline(__always)
    private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>, tsv: Bool) -> Bool {
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            index += 1
            if byte < 0x80 {
                if byte == 0x7F || (tsv && (byte < 0x20 || byte == UInt8(ascii: "\\"))) { return false }
                continue
            }
            switch byte {
            case 0xC2:  // U+0080–U+00BF: U+0080–U+009F are the C1 controls
                if index < count && utf8[index] < 0xA0 { return false }
            case 0xE2:  // U+2000–U+2FFF
                guard index + 1 < count else { break }
                let second = utf8[index], third = utf8[index + 1]
                if second == 0x80 && third >= 0xA8 && third <= 0xAE { return false }  // U+2028–U+202E
                if second == 0x81 && third >= 0xA6 && third <= 0xA9 { return false }  // U+2066–U+2069
            case 0xEF:  // U+F000–U+FFFF
                if index + 1 < count && utf8[index] == 0xBB && utf8[index + 1] == 0xBF { return false }  // U+FEFF
            default:
                break
            }
        }
        return true
    }
}
