import CarnetModels
import Foundation

/// Reads a JSON array of contacts (or one contact object) as it arrives, one element at a
/// time, so a JSON file is read in the memory of one contact, like a vCard or CSV file, and an
/// endless or broken stream (`/dev/zero`, an unclosed string) is refused after at most
/// `InterchangeLimits.recordBytes` of it rather than read until memory runs out.
///
/// Each element is decoded on its own by ``ContactJSONCoding/decode(_:)`` (its errors keep their
/// lines in the file); the reader itself checks only what lies between elements. After a syntax
/// error the rest of the input is ignored: JSON has no line to start again from.
public struct ContactJSONReader: ChunkReader, Sendable {
    private enum Phase: Sendable {
        /// Before the first byte that is not a space.
        case start
        /// After `[` or `,`: an element (or, after `[`, the closing `]`) comes next.
        case beforeElement(afterComma: Bool)
        case inElement
        /// After an element: `,` or `]`.
        case afterElement
        /// After the closing `]` (or the single object): only spaces.
        case trailing
        case failed
    }

    private var phase = Phase.start
    private var line = 1
    private var element: [UInt8] = []
    private var elementLine = 1
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var single = false
    private var elementCount = 0
    /// The byte order mark of UTF-8 bytes still to skip at the start.
    private var bomSeen = 0

    public init() {}

    public mutating func feed(_ chunk: Data) -> [Result<InterchangeRecord, InterchangeError>] {
        chunk.withUnsafeBytes { feed(bytes: $0) }
    }

    public mutating func feed(text chunk: String) -> [Result<InterchangeRecord, InterchangeError>] {
        chunk.withUTF8Bytes { feed(bytes: $0) }
    }

    /// Ends the input: fails if it stopped inside the array or a contact, or held nothing.
    @discardableResult
    public mutating func finish() throws(InterchangeError) -> InterchangeRecord? {
        switch phase {
        case .start:
            phase = .failed
            throw InterchangeError(line: line, message: "not valid JSON: the file is empty")
        case .beforeElement, .afterElement:
            phase = .failed
            throw InterchangeError(line: line, message: "not valid JSON: the file ends inside the array (is its ] missing?)")
        case .inElement:
            phase = .failed
            throw InterchangeError(line: elementLine, message: "not valid JSON: the file ends inside this contact")
        case .trailing, .failed:
            return nil
        }
    }

    private mutating func fail(_ message: String, line: Int? = nil) -> Result<InterchangeRecord, InterchangeError> {
        phase = .failed
        element = []
        return .failure(InterchangeError(line: line ?? self.line, message: message))
    }

    private static func found(_ byte: UInt8) -> String {
        switch byte {
        case 0: return "a NUL byte"
        case 32...126: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "the byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    private mutating func feed(bytes: UnsafeRawBufferPointer) -> [Result<InterchangeRecord, InterchangeError>] {
        var results: [Result<InterchangeRecord, InterchangeError>] = []
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            switch phase {
            case .failed:
                return results
            case .start:
                if bomSeen < 3, byte == [0xEF, 0xBB, 0xBF][bomSeen], line == 1 {
                    bomSeen += 1
                } else if JSONLocator.isSpace(byte) {
                    if byte == 10 { line += 1 }
                } else if byte == 91 {
                    phase = .beforeElement(afterComma: false)
                } else if byte == 123 {
                    single = true
                    begin(byte)
                } else if byte == 0xFF || byte == 0xFE {
                    results.append(fail(InterchangeText.utf16Message(byte == 0xFF ? "UTF-16LE" : "UTF-16BE")))
                } else {
                    results.append(fail("not valid JSON: expected an array of contacts, found \(Self.found(byte))"))
                }
            case let .beforeElement(afterComma):
                if byte == 0, !afterComma {
                    // `[` then NUL: the `[` of a UTF-16LE file without its byte order mark.
                    results.append(fail(InterchangeText.utf16Message("UTF-16LE")))
                } else if JSONLocator.isSpace(byte) {
                    if byte == 10 { line += 1 }
                } else if byte == 93, !afterComma {
                    phase = .trailing
                } else if byte == 93 || byte == 44 {
                    results.append(fail("not valid JSON: expected a contact, found \(Self.found(byte))"))
                } else {
                    begin(byte)
                    if depth == 0, !inString, !isScalarByte(byte) {
                        results.append(fail("not valid JSON: expected a contact, found \(Self.found(byte))"))
                    }
                }
            case .inElement:
                if depth == 0, !inString, !isScalarByte(byte) {
                    // A bare scalar element ends at the byte after it, which belongs to what follows.
                    results.append(complete())
                    continue
                }
                element.append(byte)
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == 92 {
                        escaped = true
                    } else if byte == 34 {
                        inString = false
                        if depth == 0 { results.append(complete()) }
                    } else if byte < 32 {
                        results.append(fail("not valid JSON: a control character inside a string (is a quote missing?)"))
                    }
                } else if byte == 34 {
                    inString = true
                } else if byte == 123 || byte == 91 {
                    depth += 1
                } else if byte == 125 || byte == 93 {
                    depth -= 1
                    if depth == 0 { results.append(complete()) }
                } else if byte == 10 {
                    line += 1
                }
                if case .inElement = phase, element.count > InterchangeLimits.recordBytes {
                    results.append(fail("this contact is longer than \(InterchangeLimits.recordBytes) bytes (is a bracket or quote missing?)", line: elementLine))
                }
            case .afterElement:
                if JSONLocator.isSpace(byte) {
                    if byte == 10 { line += 1 }
                } else if byte == 44 {
                    phase = .beforeElement(afterComma: true)
                } else if byte == 93 {
                    phase = .trailing
                } else {
                    results.append(fail("not valid JSON: expected ',' or ']' after the contact, found \(Self.found(byte))"))
                }
            case .trailing:
                if JSONLocator.isSpace(byte) {
                    if byte == 10 { line += 1 }
                } else {
                    results.append(fail("not valid JSON: unexpected text after the end of the JSON"))
                }
            }
            i += 1
        }
        return results
    }

    /// What a bare scalar element (a number, `true`, `null`: never a contact) may be made of.
    private func isScalarByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || byte == 45 || byte == 43 || byte == 46
    }

    private mutating func begin(_ byte: UInt8) {
        phase = .inElement
        elementLine = line
        element = [byte]
        depth = byte == 123 || byte == 91 ? 1 : 0
        inString = byte == 34
        escaped = false
    }

    private mutating func complete() -> Result<InterchangeRecord, InterchangeError> {
        let bytes = element
        element = []
        elementCount += 1
        // The element's number in the array, so a message names the record as well as its line.
        let which = single ? "" : "contact \(elementCount): "
        phase = single ? .trailing : .afterElement
        let startLine = elementLine
        guard bytes.first == 123 else {
            return .failure(InterchangeError(line: startLine, message: which + "expected a contact object"))
        }
        if let problem = ContactJSONCoding.keyProblem(bytes, firstLine: startLine) {
            return .failure(InterchangeError(line: problem.line, message: which + problem.message))
        }
        do throws(InterchangeError) {
            guard var record = try ContactJSONCoding.decode(checked: Data(bytes)).first else {
                return .failure(InterchangeError(line: startLine, message: "expected a contact object"))
            }
            record.line = startLine
            return .success(record)
        } catch {
            return .failure(InterchangeError(line: startLine + error.line - 1, message: which + error.message))
        }
    }
}
