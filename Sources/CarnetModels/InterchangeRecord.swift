import Foundation

/// One contact read from an interchange file, before the storage layer validates it.
///
/// Codecs check syntax only, so a card with a blank name still comes back as a record: the caller
/// validates ``draft`` the same way it validates a typed-in contact, with the same messages.
/// ``line`` is kept so those messages can point at the record in the file.
public struct InterchangeRecord: Sendable, Equatable {
    /// The vCard `UID`, CSV `uid` column or JSON `uid`; nil when the file has none, so the
    /// importer can tell "new contact" from "update the contact with this uid".
    public var uid: String?
    public var draft: ContactDraft
    /// The vCard `REV`, CSV `updated_at` or JSON `updatedAt`, when the file has one.
    public var updatedAt: Date?
    /// The 1-based line where the record starts in the input.
    public var line: Int
    /// The file the record was read from when an import reads several (a vdir directory, one
    /// card per file); nil when the import names one file or standard input.
    public var file: String?
    /// What a Carnet JSON export also carries, so importing it into a new file restores it as it
    /// was: the id (kept when free), creation date, version and favorite flag. Nil elsewhere.
    public var id: Int64?
    public var createdAt: Date?
    public var version: Int?
    public var favorite: Bool?
    /// What the reader did not take as the file said, for the import report: a value Carnet's
    /// rules refuse, kept verbatim in ``ContactDraft/extras`` instead (`line 7: TEL "BusinessPhone"
    /// kept as an unmodelled property: …`). Empty when everything mapped as written.
    public var notes: [InterchangeNote]

    public init(
        uid: String? = nil, draft: ContactDraft, updatedAt: Date? = nil, line: Int = 1,
        id: Int64? = nil, createdAt: Date? = nil, version: Int? = nil, favorite: Bool? = nil,
        notes: [InterchangeNote] = []
    ) {
        self.uid = uid
        self.draft = draft
        self.updatedAt = updatedAt
        self.line = line
        self.id = id
        self.createdAt = createdAt
        self.version = version
        self.favorite = favorite
        self.notes = notes
    }
}

/// Something an import should tell the person about one record, at the line it concerns.
public struct InterchangeNote: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// What became of the property (or CSV cell) the note is about. Properties that mapped onto
    /// a field as written have no note.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A property Carnet models whose value its rules refuse (a phone `BusinessPhone`): kept
        /// verbatim in the contact's extras instead.
        case refused
        /// A property Carnet has no field for: kept verbatim in the contact's extras.
        case unmodelled
        /// Mapped onto a field in another form: a vendor's name for a date (`X-MS-ANNIVERSARY`),
        /// a quoted-printable or `CHARSET=` value decoded, an inline photo, an Outlook date.
        /// Nothing is ever read and dropped, so there is no kind for that.
        case converted
    }

    /// 1-based line of the input.
    public let line: Int
    /// Printable: control characters from the file are escaped.
    public let message: String
    public let kind: Kind

    public init(line: Int, message: String, kind: Kind = .refused) {
        self.line = line
        self.message = message
        self.kind = kind
    }

    public var description: String { "line \(line): \(message)" }
}

/// A syntax error in an interchange file, with the line to look at, so the message can be acted
/// on in an editor: `line 12: PHOTO is not valid base64`.
public struct InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the input.
    public let line: Int
    public let message: String
    /// The file, when an import reads several (see ``InterchangeRecord/file``).
    public var file: String?

    public init(line: Int, message: String, file: String? = nil) {
        self.line = line
        self.message = message
        self.file = file
    }

    public var description: String { "line \(line): \(message)" }
}

extension InterchangeRecord {
    /// The UID an import of this card before Carnet kept UIDs byte for byte gave its contact: a
    /// `urn:uuid:` UUID without the prefix. An import also matches a contact by it, so a file
    /// imported then updates the contacts it made instead of adding them again. Nil for any other UID.
    public var earlierUID: String? {
        guard let uid, uid.count == 45, uid.prefix(9).lowercased() == "urn:uuid:" else { return nil }
        let rest = uid.dropFirst(9)
        let isUUID = rest.utf8.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-") : UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte
                || UInt8(ascii: "a")...UInt8(ascii: "f") ~= byte || UInt8(ascii: "A")...UInt8(ascii: "F") ~= byte
        }
        return isUUID ? String(rest) : nil
    }

    /// A UID for a card that has none, derived from its name, email and phone (FNV-1a), so
    /// importing the same UID-less file twice finds the contacts it added the first time; a
    /// reader that names the cards of its file to each other (LDIF's mailing lists) names them
    /// by it. `draft` as the import saves it (validated).
    public static func derivedUID(_ draft: ContactDraft) -> String {
        "derived-" + StableHash.hex16([draft.name, draft.email, draft.phone].joined(separator: "\u{1F}").asciiLowercased)
    }

    /// The UID an import gives this record's card: its own, or one derived from the draft as
    /// the import saves it.
    public var importUID: String {
        uid ?? Self.derivedUID((try? draft.validated()) ?? draft)
    }
}
