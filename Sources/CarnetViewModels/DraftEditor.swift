import CarnetModels
import CarnetState
import Observation

/// How to settle a save that found someone else's newer version.
public enum ConflictResolution: Sendable, Equatable {
    /// Start again from their version, merged with this edit: fields only they changed take
    /// their values, fields only this edit changed keep it, and fields both changed to different
    /// values are listed in `clashes` for the screen to ask about (the draft keeps mine there
    /// until `takeTheirs(_:)`). Nothing is written.
    case reload
    /// Save this draft over theirs, knowingly.
    case overwrite
    /// Leave without saving.
    case cancel
}

/// A kind of record an edit screen can save through the state controller: contacts and quotes.
public protocol DraftSaving: EditableRecord {
    /// What adding a new one may be told (a new quote: whether it becomes the current one).
    associatedtype AddOptions: Sendable
    static var defaultAddOptions: AddOptions { get }
    @MainActor static func add(_ draft: Draft, options: AddOptions, in state: StateController) throws(CarnetError) -> Self
    @MainActor static func update(_ base: Self, with draft: Draft, in state: StateController) throws(CarnetError) -> Self
    /// The conflict `error` reports for this kind of record, if it is one.
    static func conflict(in error: CarnetError) -> Conflict<Self>?
}

/// Nothing to choose when adding.
public struct NoAddOptions: Sendable, Equatable {}

/// Where a new contact goes: the address book it was added from (nil: the default book).
public struct ContactAddOptions: Sendable, Equatable {
    public var bookID: Int64?
    public init(bookID: Int64? = nil) { self.bookID = bookID }
}

extension Contact: DraftSaving {
    public static var defaultAddOptions: ContactAddOptions { ContactAddOptions() }

    @MainActor public static func add(_ draft: ContactDraft, options: ContactAddOptions, in state: StateController) throws(CarnetError) -> Contact {
        try state.addContact(draft, bookID: options.bookID)
    }

    @MainActor public static func update(_ base: Contact, with draft: ContactDraft, in state: StateController) throws(CarnetError) -> Contact {
        try state.updateContact(base, with: draft)
    }

    public static func conflict(in error: CarnetError) -> Conflict<Contact>? {
        if case let .conflict(.contact(conflict)) = error { return conflict }
        return nil
    }
}

/// What a new quote may be told: whether it becomes the current quote (default yes).
public struct QuoteAddOptions: Sendable, Equatable {
    public var makesCurrent = true
    public init(makesCurrent: Bool = true) { self.makesCurrent = makesCurrent }
}

extension Quote: DraftSaving {
    public static var defaultAddOptions: QuoteAddOptions { QuoteAddOptions() }

    @MainActor public static func add(_ draft: QuoteDraft, options: QuoteAddOptions, in state: StateController) throws(CarnetError) -> Quote {
        try state.addQuote(draft, makeCurrent: options.makesCurrent)
    }

    @MainActor public static func update(_ base: Quote, with draft: QuoteDraft, in state: StateController) throws(CarnetError) -> Quote {
        try state.updateQuote(base, with: draft)
    }

    public static func conflict(in error: CarnetError) -> Conflict<Quote>? {
        if case let .conflict(.quote(conflict)) = error { return conflict }
        return nil
    }
}

/// The one edit screen for contacts and quotes (`EditContactViewModel`, `EditQuoteViewModel`).
/// It works on a draft: nothing is written until `save()` succeeds, and `cancel()` leaves no
/// trace. A save that finds someone else's newer version keeps it in `conflict` for
/// `resolve(_:)`: reload (merge field by field), overwrite, or cancel.
@MainActor
@Observable
public final class DraftEditor<Record: DraftSaving> {
    /// The fields being edited. Bind the screen's fields to it.
    public var draft: Record.Draft {
        get {
            changes.readDraft()
            return storedDraft
        }
        set {
            storedDraft = newValue
            changes.changedDraft()
        }
        _modify {
            changes.readDraft()
            defer { changes.changedDraft() }
            yield &storedDraft
        }
    }
    /// The record the edit started from (nil when adding).
    public private(set) var original: Record? {
        get {
            changes.readOriginal()
            return storedOriginal
        }
        set {
            storedOriginal = newValue
            changes.changedOriginal()
        }
    }

    // `draft` and `original` are observed through a small non-generic object rather than by the
    // macro: in a generic class the macro's `\.draft` builds a new key path on every read and
    // write (a measurable part of every save), while a non-generic key path is built once per
    // process. Observers see the same thing: a read registers, a write notifies.
    @ObservationIgnored private var storedDraft: Record.Draft
    @ObservationIgnored private var storedOriginal: Record?
    @ObservationIgnored private let changes = EditorChanges()
    /// Set when `save()` found that someone else saved the record since the edit started.
    public private(set) var conflict: Conflict<Record>?
    /// After `resolve(_:)` with `ConflictResolution/reload`: the fields both edits changed,
    /// each its own way. The draft holds this edit's value for them and `original` theirs;
    /// settle each with `keepMine(_:)` or `takeTheirs(_:)` (a save keeps the draft as it is).
    public private(set) var clashes: [Field] = []
    /// What adding a new record is told (see `QuoteAddOptions`).
    public var addOptions: Record.AddOptions
    /// Called after a save commits, with the saved record.
    @ObservationIgnored public var onSave: ((Record) -> Void)?
    /// Called when the user leaves without saving.
    @ObservationIgnored public var onCancel: (() -> Void)?

    @ObservationIgnored private let state: StateController

    /// - Parameters:
    ///   - state: the state shared by every screen.
    ///   - record: the record to edit, passed forward; nil to add a new one.
    public init(state: StateController, editing record: Record?) {
        self.state = state
        storedOriginal = record
        storedDraft = record?.draft ?? Record.Draft()
        addOptions = Record.defaultAddOptions
    }

    public var isNew: Bool { original == nil }

    /// Whether the draft differs from what the edit started with.
    public var isDirty: Bool { draft.normalized() != (original?.draft ?? Record.Draft()).normalized() }

    /// Every broken rule of the draft as it stands, for messages beside the fields.
    public var issues: [FieldIssue] { draft.issues() }

    /// The messages for one field.
    public func messages(for field: Field) -> [String] {
        issues.filter { $0.field == field }.map(\.message)
    }

    public var canSave: Bool { issues.isEmpty }

    /// Validates and commits the draft through the state controller, then calls `onSave`.
    /// On a conflict, sets `conflict` (see `resolve(_:)`) and rethrows; nothing is written.
    @discardableResult
    public func save() throws(CarnetError) -> Record {
        do {
            let saved: Record
            if let original = storedOriginal {
                saved = try Record.update(original, with: storedDraft, in: state)
            } else {
                saved = try Record.add(storedDraft, options: addOptions, in: state)
            }
            finish(saved)
            return saved
        } catch {
            conflict = Record.conflict(in: error) ?? conflict
            throw error
        }
    }

    /// Settles a `conflict`. Returns the saved record for `ConflictResolution/overwrite`.
    @discardableResult
    public func resolve(_ resolution: ConflictResolution) throws(CarnetError) -> Record? {
        guard let conflict else { return nil }
        switch resolution {
        case .reload:
            let merge = DraftMerge.merge(
                base: conflict.base.draft, theirs: conflict.current.draft, mine: draft.normalized(), phones: try state.phoneNormalForm())
            original = conflict.current
            draft = merge.draft
            clashes = merge.clashes
            self.conflict = nil
            return nil
        case .overwrite:
            do {
                let saved = try Record.update(conflict.current, with: conflict.mine, in: state)
                finish(saved)
                return saved
            } catch {
                // Saved again meanwhile: the new conflict replaces the old one, so a second
                // overwrite goes over the version that is there now.
                if let found = Record.conflict(in: error) { self.conflict = found }
                throw error
            }
        case .cancel:
            cancel()
            return nil
        }
    }

    /// Settles a clash with this edit's value (the one the draft already holds).
    public func keepMine(_ field: Field) {
        clashes.removeAll { $0 == field }
    }

    /// Settles a clash with the other writer's value.
    public func takeTheirs(_ field: Field) {
        guard clashes.contains(field), let theirs = original?.draft else { return }
        draft.take(field, from: theirs)
        clashes.removeAll { $0 == field }
    }

    /// Leaves without saving: the draft is dropped, nothing was written.
    public func cancel() {
        draft = original?.draft ?? Record.Draft()
        conflict = nil
        clashes = []
        onCancel?()
    }

    private func finish(_ saved: Record) {
        original = saved
        draft = saved.draft
        // Observers hear of a change only when there is one (most saves had no conflict); the
        // macro's backing values are read, as a read through the property builds a key path.
        if _conflict != nil { conflict = nil }
        if !_clashes.isEmpty { clashes = [] }
        onSave?(saved)
    }
}

/// What an editor's `draft` and `original` observers register on (see `DraftEditor`).
@MainActor
@Observable
final class EditorChanges {
    private var draft = 0
    private var original = 0

    func readDraft() { _ = draft }
    func changedDraft() { draft &+= 1 }
    func readOriginal() { _ = original }
    func changedOriginal() { original &+= 1 }
}

/// The add-contact and edit-contact screen.
public typealias EditContactViewModel = DraftEditor<Contact>

/// The add-quote and edit-quote screen: a new quote becomes the current one unless told not to.
public typealias EditQuoteViewModel = DraftEditor<Quote>

extension DraftEditor where Record == Contact {
    /// - Parameters:
    ///   - state: the state shared by every screen.
    ///   - contact: the contact to edit, passed forward; nil to add a new one.
    public convenience init(state: StateController, contact: Contact? = nil) {
        self.init(state: state, editing: contact)
    }

    /// The add-contact screen of one address book (passed forward by the list it was opened from).
    public convenience init(state: StateController, addingTo book: AddressBook?) {
        self.init(state: state, editing: nil)
        addOptions.bookID = book?.id
    }
}

extension DraftEditor where Record == Quote {
    public convenience init(state: StateController, quote: Quote?) {
        self.init(state: state, editing: quote)
    }

    /// Whether a new quote becomes the current one when saved (default true).
    public var makesCurrent: Bool {
        get { addOptions.makesCurrent }
        set { addOptions.makesCurrent = newValue }
    }
}
