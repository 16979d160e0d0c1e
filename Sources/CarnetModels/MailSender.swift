import Foundation

/// Who sent an email message: the `From:` header's display name (RFC 2047 encoded words
/// decoded) and address, as `carnet add-email` offers to add them to the address book.
public struct MailSender: Sendable, Equatable {
    /// The display name, decoded; empty when the header gives none.
    public let name: String
    public let email: String

    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }

    /// The sender of `message` (its bytes as read from a mail client's pipe): the first
    /// `From:` header of the header block, unfolded. Nil when there is none with an address.
    public static func from(message: Data) -> MailSender? {
        // Headers are ASCII by the RFC; a mailer that wrote 8-bit bytes meant UTF-8, or else Latin-1.
        let text = String(data: message, encoding: .utf8) ?? String(data: message, encoding: .isoLatin1) ?? ""
        guard let value = headers(text).first(where: { $0.name.lowercased() == "from" })?.value else { return nil }
        return parse(from: value)
    }

    /// The header block's fields, unfolded, in order (up to the first empty line).
    static func headers(_ text: String) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        // "\r\n" is one Character: a line ends at either.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty { break }
            if line.first == " " || line.first == "\t" {
                if !fields.isEmpty { fields[fields.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces) }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                           String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        return fields
    }

    /// One mailbox of a `From:` value: `Name <address>`, `"Name" <address>`, `address (Name)` or
    /// `address`. The first mailbox of a list.
    static func parse(from value: String) -> MailSender? {
        if let open = value.firstIndex(of: "<"), let close = value[open...].firstIndex(of: ">") {
            let email = value[value.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            guard email.contains("@") else { return nil }
            return MailSender(name: displayName(String(value[..<open])), email: email)
        }
        let mailbox = value.split(separator: ",").first.map(String.init) ?? value
        var name = ""
        var rest = mailbox
        if let open = mailbox.firstIndex(of: "("), let close = mailbox.lastIndex(of: ")"), open < close {
            name = String(mailbox[mailbox.index(after: open)..<close])
            rest = String(mailbox[..<open]) + String(mailbox[mailbox.index(after: close)...])
        }
        let email = rest.trimmingCharacters(in: .whitespaces)
        guard email.contains("@"), !email.contains(" ") else { return nil }
        return MailSender(name: displayName(name), email: email)
    }

    /// A display name as written: encoded words decoded, quotes and their escapes undone.
    static func displayName(_ raw: String) -> String {
        var text = decodeEncodedWords(raw.trimmingCharacters(in: .whitespaces))
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            text = String(text.dropFirst().dropLast())
            var unescaped = ""
            var escaping = false
            for ch in text {
                if escaping || ch != "\\" {
                    unescaped.append(ch)
                    escaping = false
                } else {
                    escaping = true
                }
            }
            text = unescaped
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// RFC 2047: every `=?charset?B|Q?text?=` replaced by its text in any charset Foundation
    /// knows (one it does not know is left as written); white space between two encoded words
    /// goes with them.
    public static func decodeEncodedWords(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        var pendingSpace = ""
        var lastWasEncoded = false
        while !rest.isEmpty {
            if rest.hasPrefix("=?"), let (decoded, after) = encodedWord(rest) {
                if !lastWasEncoded { out += pendingSpace }
                pendingSpace = ""
                out += decoded
                rest = after
                lastWasEncoded = true
                continue
            }
            let ch = rest.removeFirst()
            if ch == " " || ch == "\t" {
                pendingSpace.append(ch)
                continue
            }
            out += pendingSpace
            pendingSpace = ""
            out.append(ch)
            lastWasEncoded = false
        }
        return out + pendingSpace
    }

    /// The encoded word at the start of `text`, decoded, and what follows it.
    private static func encodedWord(_ text: Substring) -> (String, Substring)? {
        let parts = text.dropFirst(2).split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("=") else { return nil }
        let charset = parts[0].split(separator: "*").first.map(String.init) ?? ""
        let payload = parts[2]
        guard !payload.contains(" "), let encoding = String.Encoding(ianaName: charset) else { return nil }
        let bytes: Data?
        switch parts[1].uppercased() {
        case "B":
            var base64 = String(payload)
            while base64.count % 4 != 0 { base64 += "=" }
            bytes = Data(base64Encoded: base64)
        case "Q":
            bytes = quotedPrintable(payload)
        default:
            bytes = nil
        }
        guard let bytes, let decoded = String(data: bytes, encoding: encoding) else { return nil }
        return (decoded, parts[3].dropFirst())
    }

    /// RFC 2047's Q encoding: `_` is a space, `=XX` a byte.
    private static func quotedPrintable(_ text: Substring) -> Data? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            switch byte {
            case UInt8(ascii: "_"): bytes.append(0x20)
            case UInt8(ascii: "="):
                guard let high = utf8.popFirst(), let low = utf8.popFirst(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            default: bytes.append(byte)
            }
        }
        return Data(bytes)
    }
}
