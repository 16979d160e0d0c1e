import Foundation

/// What an action in the history did: add, edit, delete, … Open-ended (a file written by a newer
/// Carnet may hold kinds this one does not know, and shows them as they are).
public struct HistoryKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let add = HistoryKind(rawValue: "add")
    public static let edit = HistoryKind(rawValue: "edit")
    public static let delete = HistoryKind(rawValue: "delete")
    public static let favorite = HistoryKind(rawValue: "favorite")
    public static let unfavorite = HistoryKind(rawValue: "unfavorite")
    public static let moveFavorite = HistoryKind(rawValue: "move favorite")
    public static let addQuote = HistoryKind(rawValue: "add quote")
    public static let editQuote = HistoryKind(rawValue: "edit quote")
    public static let deleteQuote = HistoryKind(rawValue: "delete quote")
    public static let useQuote = HistoryKind(rawValue: "use quote")
    public static let `import` = HistoryKind(rawValue: "import")
    public static let sample = HistoryKind(rawValue: "sample")
    public static let sync = HistoryKind(rawValue: "sync")
    public static let addBook = HistoryKind(rawValue: "add book")
    public static let renameBook = HistoryKind(rawValue: "rename book")
    public static let deleteBook = HistoryKind(rawValue: "delete book")
    public static let moveContact = HistoryKind(rawValue: "move")
    public static let copyContact = HistoryKind(rawValue: "copy")

    /// The verb as a menu shows it after "Undo": "Edit", "Move Favorite".
    public var title: String {
        rawValue.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    public var description: String { rawValue }
}

/// One action of the history, as `carnet history` lists it.
public struct HistoryEntry: Sendable, Equatable, Identifiable {
    /// Grows with every action; never reused.
    public let id: Int64
    public let time: Date
    public let kind: HistoryKind
    /// What it was done to, as it was shown then: a contact's name, a file, a quote.
    public let subject: String
    /// One line: "edited Ada Lovelace: phone", "imported 1,204 contacts".
    public let summary: String
    /// Undone and not redone: on the redo list.
    public let isUndone: Bool
    /// The size of what the history keeps to undo and redo it.
    public let bytes: Int

    public init(id: Int64, time: Date, kind: HistoryKind, subject: String, summary: String, isUndone: Bool, bytes: Int) {
        self.id = id
        self.time = time
        self.kind = kind
        self.subject = subject
        self.summary = summary
        self.isUndone = isUndone
        self.bytes = bytes
    }

    /// "Edit Ada Lovelace", "Import contacts.vcf": what follows "Undo" or "Redo" in a menu.
    public var title: String {
        subject.isEmpty ? kind.title : "\(kind.title) \(subject)"
    }
}

/// What an undo or redo did.
public struct HistoryStep: Sendable, Equatable {
    /// The actions undone or redone, in the order it went through them (newest first for undo).
    public let entries: [HistoryEntry]
    /// The contacts whose rows it wrote (restored, removed or changed), by id.
    public let contactIDs: IDRanges
    /// The synced books it brought back whose link to their collection came back with them.
    public let relinked: [RelinkedBook]

    public init(entries: [HistoryEntry], contactIDs: IDRanges, relinked: [RelinkedBook] = []) {
        self.entries = entries
        self.contactIDs = contactIDs
        self.relinked = relinked
    }
}

/// A deleted book that an undo brought back, linked again to the collection it synced with.
public struct RelinkedBook: Sendable, Equatable {
    public let book: String
    public let collectionURL: String

    public init(book: String, collectionURL: String) {
        self.book = book
        self.collectionURL = collectionURL
    }
}

/// Where the history stands: what undo and redo would do next.
public struct HistoryStatus: Sendable, Equatable {
    /// The newest action not undone: what undo takes back.
    public let nextUndo: HistoryEntry?
    /// The oldest undone action: what redo brings back.
    public let nextRedo: HistoryEntry?

    public init(nextUndo: HistoryEntry?, nextRedo: HistoryEntry?) {
        self.nextUndo = nextUndo
        self.nextRedo = nextRedo
    }
}

/// Why an undo or redo was refused. Nothing was written.
public enum HistoryRefusal: Sendable, Equatable, CustomStringConvertible {
    /// No action to undo (the history is empty, or every action in it is undone).
    case nothingToUndo
    /// No undone action to redo (nothing was undone, or a new action cleared the redo list).
    case nothingToRedo
    /// `undo --to ID` names an action the history does not hold (never recorded, or trimmed).
    case unknownAction(Int64)
    /// `undo --to ID` names an action already undone.
    case alreadyUndone(Int64)

    public var description: String {
        switch self {
        case .nothingToUndo: "nothing to undo"
        case .nothingToRedo: "nothing to redo"
        case let .unknownAction(id): "the history has no action \(id) (carnet history lists them)"
        case let .alreadyUndone(id): "action \(id) is already undone (carnet redo brings it back)"
        }
    }
}

/// A row an action touched was changed since by something outside the history (a hand edit with
/// sqlite3, another program): undoing or redoing it would overwrite that change, so nothing was
/// written.
public struct HistoryConflict: Sendable, Equatable, CustomStringConvertible {
    /// The action that could not be undone or redone.
    public let entry: HistoryEntry
    /// Whether it was being undone (else redone).
    public let undoing: Bool
    /// What was found changed, in words: "contact 3's phones were changed".
    public let changed: String

    public init(entry: HistoryEntry, undoing: Bool, changed: String) {
        self.entry = entry
        self.undoing = undoing
        self.changed = changed
    }

    public var description: String {
        "cannot \(undoing ? "undo" : "redo") action \(entry.id) (\(entry.summary)): \(changed) outside Carnet's history since; nothing was written"
    }
}
