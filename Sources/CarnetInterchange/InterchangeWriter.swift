import CarnetModels
import Foundation

/// A format's writer, the other half of `InterchangeReader`: what comes before the first
/// contact, each contact's text, what comes after the last. A format is its writer and reader
/// and one case of `InterchangeFormat`; the CLI's export streams any of them the same way.
public protocol InterchangeWriter {
    /// Text before the first contact ("" for none).
    var header: String { get }
    /// The contact's text, or nil for a contact the format has no place for (a group card in a
    /// table of people).
    mutating func entry(_ contact: Contact, favorite: Bool) throws -> String?
    /// Text after the last contact.
    func footer() -> String
    /// What of the contact goes out in another form than it came in, or not at all, one line
    /// each, for `export --verbose`.
    func notes(on contact: Contact) -> [InterchangeWriterNote]
    /// Why a value noted `.notWritten` is not in the file, to end with "it" or "them"
    /// ("LDIF has no attribute for").
    var notWrittenReason: String { get }
}

/// One thing a writer says of a contact it wrote.
public struct InterchangeWriterNote: Sendable, Equatable, CustomStringConvertible {
    /// A value the format has no room for (counted even without --verbose), or one it writes in
    /// another form than the one it was read in.
    public enum Kind: Sendable { case notWritten, converted }

    public let kind: Kind
    public let text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    public var description: String { text }
}

extension InterchangeWriter {
    public var header: String { "" }
    public func footer() -> String { "" }
    public func notes(on contact: Contact) -> [InterchangeWriterNote] { [] }
    public var notWrittenReason: String { "the format has no room for" }
}

extension InterchangeFormat {
    /// The writer of a file of this format (a vdir's files are each one vCard). `groupMembers`,
    /// the member UIDs of the groups to be written (`GroupMember/uid(of:)`), lets a writer that
    /// names members by another handle (LDIF's DNs) keep the handles of those contacts only;
    /// nil keeps every contact's.
    public func writer(vCardVersion: VCardVersion = .v4, groupMembers: Set<String>? = nil) -> any InterchangeWriter {
        switch self {
        case .vcf, .vdir: VCardFileWriter(version: vCardVersion)
        case .csv: CSVFileWriter()
        case .json: JSONArrayWriter()
        case .ldif: LDIFFileWriter(groupMembers: groupMembers)
        }
    }
}

/// vCard: one card after another, groups included.
public struct VCardFileWriter: InterchangeWriter {
    public let version: VCardVersion

    public init(version: VCardVersion) { self.version = version }

    public func entry(_ contact: Contact, favorite: Bool) -> String? {
        VCardWriter.card(contact: contact, version: version)
    }

    public func notes(on contact: Contact) -> [InterchangeWriterNote] {
        VCardWriter.conversions(of: contact.draft, version: version).map { InterchangeWriterNote(.converted, "\($0)") }
    }
}

/// Carnet's CSV: the header row, then a row per person (a group card has no row).
public struct CSVFileWriter: InterchangeWriter {
    public init() {}
    public var header: String { CSVWriter.header }

    public func entry(_ contact: Contact, favorite: Bool) -> String? {
        contact.kind == .group ? nil : CSVWriter.row(contact: contact)
    }
}

/// LDIF as Thunderbird reads it: an entry per person, and a group as Thunderbird's mailing list
/// (`groupOfNames`) naming its members by the DNs their entries have in the file (groups come
/// after the people in an export); what LDIF has no attribute for is named.
public struct LDIFFileWriter: InterchangeWriter {
    /// The DN each contact written so far has, by its member UID (`GroupMember/uid(of:)`): of
    /// the groups' members only, when they were named, so an export of a million people holds
    /// the DNs a mailing list refers to, not a million.
    private var dns: [String: String] = [:]
    private let groupMembers: Set<String>?

    /// `groupMembers`: see `InterchangeFormat/writer(vCardVersion:groupMembers:)`.
    public init(groupMembers: Set<String>? = nil) {
        self.groupMembers = groupMembers
    }
    public var header: String { LDIFWriter.header }

    public mutating func entry(_ contact: Contact, favorite: Bool) -> String? {
        let memberDNs = contact.draft.members.compactMap { dns[GroupMember.uid(of: $0)] }
        let text = LDIFWriter.entry(contact.draft, uid: contact.uid, memberDNs: memberDNs)
        let key = GroupMember.uid(of: contact.uid)
        if groupMembers?.contains(key) ?? true, dns[key] == nil { dns[key] = LDIFWriter.dn(contact.draft) }
        return text
    }

    public func notes(on contact: Contact) -> [InterchangeWriterNote] {
        let missing = contact.draft.members.filter { dns[GroupMember.uid(of: $0)] == nil }
        return LDIFWriter.left(contact.draft, membersWritten: contact.draft.members.count).map {
            InterchangeWriterNote(.notWritten, "\($0) not written: \(notWrittenReason) it")
        } + missing.map {
            InterchangeWriterNote(.notWritten, "member \($0.shownBriefly) not written: LDIF names a member by its entry's DN, and it has no entry in this file")
        }
    }

    public var notWrittenReason: String { "LDIF has no attribute for" }
}

/// The JSON array `carnet list --json` prints: `[`, one contact a line, `]`.
public struct JSONArrayWriter: InterchangeWriter {
    private var count = 0

    public init() {}
    public var header: String { "[\n" }

    public mutating func entry(_ contact: Contact, favorite: Bool) throws -> String? {
        defer { count += 1 }
        return (count == 0 ? "" : ",\n") + (try ContactJSONCoding.line(ContactJSON(contact: contact, favorite: favorite)))
    }

    public func footer() -> String { count == 0 ? "]\n" : "\n]\n" }
}

extension ContactJSONCoding {
    /// One value on one line, for arrays streamed element by element.
    public static func line(_ value: some Encodable) throws -> String {
        let encoder = encoder()
        encoder.outputFormatting.remove(.prettyPrinted)
        return escapedForDisplay(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// JSON with the characters a terminal should not receive raw (DEL, C1 controls, line
    /// separators, direction overrides; the encoder already escapes the rest) written as
    /// `\uXXXX` escapes: the same JSON to a parser, harmless on a screen.
    public static func escapedForDisplay(_ json: String) -> String {
        // Below 0x20 only the layout's own line feeds remain: the encoder escaped the rest.
        let raw = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && TextRules.needsEscapeForDisplay(scalar) }
        guard json.unicodeScalars.contains(where: raw) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if raw(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
