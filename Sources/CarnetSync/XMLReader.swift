import Foundation

/// Reads a WebDAV answer into an ``XMLNode`` tree, namespaces resolved: elements, text, CDATA,
/// comments and processing instructions, and the predefined and numeric character references.
/// A DOCTYPE is skipped (an entity it would declare is not known, so a reference to one makes the
/// document unreadable, as it does for a reader that refuses external entities). Attributes are
/// kept by the name they are written with (`version`, `x:lang`), their values normalized as XML
/// says (a literal tab or line end is a space); `xmlns` declarations are namespaces, not
/// attributes. CardDAV says what a collection stores in attributes
/// (`<C:address-data-type content-type="text/vcard" version="4.0"/>`).
///
/// Carnet's own rather than FoundationXML's XMLParser: that links libxml2 and ICU into every
/// `carnet` command, slowing each start, for the few kilobytes of XML a sync reads.
/// StandardImplementationTests holds it to XMLParser on real servers' answers; the one difference
/// is that a literal CR LF stays as it is (XML reads it as LF), so a card keeps its line ends.
enum XMLReader {
    /// The root element, or nil when `data` is not well-formed XML (UTF-8).
    static func parse(_ data: Data) -> XMLNode? {
        // Read in place: a copy of a large answer would hold it twice.
        data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.document()
        }
    }

    /// Appended to arrays as buffers (`UnsafeBufferPointer(rebasing:)`): a copy in one go, not byte by byte.
    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    private struct Open {
        var node: XMLNode
        var qualifiedName: Bytes
        /// The prefixes this element declares (`""` for the default namespace).
        var declarations: [String: String]
        var text: [UInt8] = []
    }

    /// An attribute as written, before its element's declarations are all read.
    private struct Attribute {
        var name: Bytes
        var value: String
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var open: [Open] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func document() -> XMLNode? {
            var root: XMLNode?
            while index < bytes.count {
                if bytes[index] != UInt8(ascii: "<") {
                    let start = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                    if open.isEmpty {
                        // Outside the root only white space may stand.
                        guard bytes[start..<index].allSatisfy(Self.isSpace) else { return nil }
                    } else {
                        guard Self.decode(bytes[start..<index], into: &open[open.count - 1].text) else { return nil }
                    }
                } else if starts(with: "<?") {
                    guard skip(past: "?>") else { return nil }
                } else if starts(with: "<!--") {
                    guard skip(past: "-->") else { return nil }
                } else if starts(with: "<![CDATA[") {
                    guard !open.isEmpty else { return nil }
                    let start = index + 9
                    guard skip(past: "]]>") else { return nil }
                    open[open.count - 1].text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(index - 3)]))
                } else if starts(with: "<!") {
                    guard root == nil, open.isEmpty, skipDeclaration() else { return nil }
                } else if starts(with: "</") {
                    index += 2
                    let name = self.name()
                    skipSpace()
                    guard !name.isEmpty, consume(">"), let last = open.popLast(), last.qualifiedName.elementsEqual(name) else { return nil }
                    guard close(last, root: &root) else { return nil }
                } else {
                    guard root == nil, startTag(root: &root) else { return nil }
                }
            }
            return open.isEmpty ? root : nil
        }

        /// `<name attributes…>` or `<name …/>`, at `<`.
        private mutating func startTag(root: inout XMLNode?) -> Bool {
            index += 1
            let name = self.name()
            guard !name.isEmpty else { return false }
            var declarations: [String: String] = [:]
            // Most elements of a WebDAV answer have none: no array is made for them.
            var attributes: [Attribute] = []
            while true {
                let hadSpace = skipSpace()
                let empty = consume("/")
                if empty || consume(">") {
                    guard !empty || consume(">"), var element = resolve(name, declarations),
                          attributes.isEmpty || resolve(attributes, of: &element)
                    else { return false }
                    if empty { return close(element, root: &root) }
                    open.append(element)
                    return true
                }
                let attribute = self.name()
                guard hadSpace, !attribute.isEmpty else { return false }
                skipSpace()
                guard consume("=") else { return false }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return false }
                let quote = bytes[index]
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != quote, bytes[index] != UInt8(ascii: "<") { index += 1 }
                guard consume(quote) else { return false }
                var value: [UInt8] = []
                guard Self.decodeAttribute(bytes[start..<(index - 1)], into: &value) else { return false }
                if attribute.elementsEqual("xmlns".utf8) {
                    declarations[""] = String(decoding: value, as: UTF8.self)
                } else if attribute.starts(with: "xmlns:".utf8) {
                    declarations[String(decoding: attribute.dropFirst(6), as: UTF8.self)] = String(decoding: value, as: UTF8.self)
                } else {
                    attributes.append(Attribute(name: attribute, value: String(decoding: value, as: UTF8.self)))
                }
            }
        }

        /// Puts `attributes` on `element` by the names they are written with; false, as XML
        /// says, when one is written twice, when a prefix is not declared, or when two prefixes
        /// of one namespace name it twice.
        private func resolve(_ attributes: [Attribute], of element: inout Open) -> Bool {
            var qualified: Set<String> = []
            for attribute in attributes {
                guard let colon = attribute.name.firstIndex(of: UInt8(ascii: ":")) else { continue }
                let prefix = String(decoding: attribute.name[..<colon], as: UTF8.self)
                guard let namespace = namespace(of: prefix, declarations: element.declarations),
                      qualified.insert(namespace + " " + String(decoding: attribute.name[(colon + 1)...], as: UTF8.self)).inserted
                else { return false }
            }
            for attribute in attributes {
                let name = String(decoding: attribute.name, as: UTF8.self)
                guard element.node.attributes.updateValue(attribute.value, forKey: name) == nil else { return false }
            }
            return true
        }

        /// The element named `qualifiedName`, its prefix looked up in its own declarations and then
        /// in those of the elements it is inside; nil for an undeclared prefix.
        private func resolve(_ qualifiedName: Bytes, _ declarations: [String: String]) -> Open? {
            let colon = qualifiedName.firstIndex(of: UInt8(ascii: ":"))
            let prefix = colon.map { String(decoding: qualifiedName[..<$0], as: UTF8.self) } ?? ""
            let local = colon.map { qualifiedName[qualifiedName.index(after: $0)...] } ?? qualifiedName
            guard !local.isEmpty else { return nil }
            guard let namespace = namespace(of: prefix, declarations: declarations) ?? (prefix.isEmpty ? "" : nil) else { return nil }
            return Open(node: XMLNode(namespace: namespace, name: String(decoding: local, as: UTF8.self)), qualifiedName: qualifiedName, declarations: declarations)
        }

        /// The namespace `prefix` stands for in an element declaring `declarations`, inside the
        /// open ones; nil when none declares it.
        private func namespace(of prefix: String, declarations: [String: String]) -> String? {
            var namespace = declarations[prefix]
            for element in open.reversed() where namespace == nil { namespace = element.declarations[prefix] }
            if namespace == nil, prefix == "xml" { namespace = "http://www.w3.org/XML/1998/namespace" }
            return namespace
        }

        /// Ends `element`: a child of the element it is in, or the root. A second root is refused.
        private mutating func close(_ element: Open, root: inout XMLNode?) -> Bool {
            var node = element.node
            node.text = String(decoding: element.text, as: UTF8.self)
            if open.isEmpty {
                guard root == nil else { return false }
                root = node
            } else {
                open[open.count - 1].node.children.append(node)
            }
            return true
        }

        /// An XML name: letters, digits and `-._:`, and every byte of a multi-byte UTF-8 character.
        private mutating func name() -> Bytes {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                let isNameByte = byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
                guard isNameByte else { break }
                index += 1
            }
            return bytes[start..<index]
        }

        /// A `<!DOCTYPE …>` with its internal subset in brackets, if any.
        private mutating func skipDeclaration() -> Bool {
            var depth = 0
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "]") {
                    depth -= 1
                } else if byte == UInt8(ascii: ">"), depth == 0 {
                    return true
                }
            }
            return false
        }

        private func starts(with text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
        }

        /// Moves past the next `marker`; false when there is none.
        private mutating func skip(past marker: StaticString) -> Bool {
            while index < bytes.count {
                if starts(with: marker) {
                    index += marker.utf8CodeUnitCount
                    return true
                }
                index += 1
            }
            return false
        }

        private mutating func consume(_ character: Unicode.Scalar) -> Bool {
            consume(UInt8(ascii: character))
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        @discardableResult
        private mutating func skipSpace() -> Bool {
            let start = index
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            return index > start
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        /// An attribute's value as `decode(_:into:)` reads text, with each literal tab, CR, LF
        /// or CR LF read as one space (XML 1.0, section 3.3.3; a reference such as `&#9;` stays).
        static func decodeAttribute(_ text: Bytes, into output: inout [UInt8]) -> Bool {
            guard text.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return decode(text, into: &output) }
            var spaced: [UInt8] = []
            spaced.reserveCapacity(text.count)
            var previous: UInt8 = 0
            for byte in text {
                if byte == 0x0A, previous == 0x0D {
                    previous = byte
                    continue
                }
                spaced.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
                previous = byte
            }
            return spaced.withUnsafeBufferPointer { decode($0[...], into: &output) }
        }

        /// Appends `text` with its character references replaced; false for an unknown or
        /// malformed one, or a bare `&`.
        static func decode(_ text: Bytes, into output: inout [UInt8]) -> Bool {
            var index = text.startIndex
            let buffer = text.base
            while index < text.endIndex {
                // Indexed on the buffer itself: the slice's generic search crawls in a debug build.
                var ampersand = index
                while ampersand < text.endIndex, buffer[ampersand] != UInt8(ascii: "&") { ampersand += 1 }
                guard ampersand < text.endIndex else {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: text[index...]))
                    return true
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: text[index..<ampersand]))
                guard let semicolon = text[ampersand...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return false }
                let reference = String(decoding: text[(ampersand + 1)..<semicolon], as: UTF8.self)
                switch reference {
                case "lt": output.append(UInt8(ascii: "<"))
                case "gt": output.append(UInt8(ascii: ">"))
                case "amp": output.append(UInt8(ascii: "&"))
                case "quot": output.append(UInt8(ascii: "\""))
                case "apos": output.append(UInt8(ascii: "'"))
                default:
                    let number: UInt32?
                    if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
                        number = UInt32(reference.dropFirst(2), radix: 16)
                    } else if reference.hasPrefix("#") {
                        number = UInt32(reference.dropFirst(), radix: 10)
                    } else {
                        number = nil
                    }
                    guard let number, number != 0, let scalar = Unicode.Scalar(number) else { return false }
                    output += Array(String(Character(scalar)).utf8)
                }
                index = semicolon + 1
            }
            return true
        }
    }
}
