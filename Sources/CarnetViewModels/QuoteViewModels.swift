import CarnetModels
import CarnetState
import Observation

/// The quote screen: the current quote, and the collection to choose it from.
@MainActor
@Observable
public final class QuoteViewModel {
    /// All quotes, oldest first, as of the last ``onAppear()`` or change made here.
    public private(set) var quotes: [Quote] = []

    @ObservationIgnored private let state: StateController

    public init(state: StateController) {
        self.state = state
    }

    /// The quote to show; updates at once when any screen sharing the state changes it.
    public var quote: Quote? { state.currentQuote }

    /// The screen appears: pick up changes made elsewhere.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
        quotes = try state.quotes()
    }

    /// The edit-quote screen for the current quote (or a given one).
    public func edit(_ quote: Quote? = nil) -> EditQuoteViewModel {
        let edit = EditQuoteViewModel(state: state, quote: quote ?? state.currentQuote)
        edit.onSave = { [weak self] _ in try? self?.reloadQuotes() }
        return edit
    }

    /// The screen to write a new quote, made current when saved.
    public func add() -> EditQuoteViewModel {
        let edit = EditQuoteViewModel(state: state, quote: nil)
        edit.onSave = { [weak self] _ in try? self?.reloadQuotes() }
        return edit
    }

    /// One quote by id, read from the file (for an edit screen opened on it).
    public func quote(id: Int64) throws(CarnetError) -> Quote {
        try state.quote(id: id)
    }

    public func use(_ id: Int64) throws(CarnetError) {
        try state.useQuote(id: id)
        try reloadQuotes()
    }

    public func delete(_ id: Int64) throws(CarnetError) {
        try state.deleteQuote(id: id)
        try reloadQuotes()
    }

    private func reloadQuotes() throws(CarnetError) {
        quotes = try state.quotes()
    }
}

/// The edit-quote screen, on a draft like ``EditContactViewModel``: a new quote becomes current.
@MainActor
@Observable
public final class EditQuoteViewModel {
    public var draft: QuoteDraft
    public private(set) var original: Quote?
    public private(set) var conflict: QuoteConflict?
    /// After a reload, the fields both edits changed (see ``EditContactViewModel/clashes``).
    public private(set) var clashes: [Field] = []
    /// Whether a new quote becomes the current one when saved (default true).
    public var makesCurrent = true
    @ObservationIgnored public var onSave: ((Quote) -> Void)?
    @ObservationIgnored public var onCancel: (() -> Void)?

    @ObservationIgnored private let state: StateController

    public init(state: StateController, quote: Quote?) {
        self.state = state
        original = quote
        draft = quote?.draft ?? QuoteDraft()
    }

    public var isNew: Bool { original == nil }
    public var isDirty: Bool { draft.normalized() != (original?.draft ?? QuoteDraft()).normalized() }
    public var issues: [FieldIssue] { draft.issues() }

    @discardableResult
    public func save() throws(CarnetError) -> Quote {
        do {
            let saved: Quote
            if let original {
                saved = try state.updateQuote(original, with: draft)
            } else {
                saved = try state.addQuote(draft, makeCurrent: makesCurrent)
            }
            finish(saved)
            return saved
        } catch let .quoteConflict(found) {
            conflict = found
            throw .quoteConflict(found)
        }
    }

    @discardableResult
    public func resolve(_ resolution: ConflictResolution) throws(CarnetError) -> Quote? {
        guard let conflict else { return nil }
        switch resolution {
        case .reload:
            let merge = DraftMerge.merge(base: conflict.base.draft, theirs: conflict.current.draft, mine: draft.normalized())
            original = conflict.current
            draft = merge.draft
            clashes = merge.clashes
            self.conflict = nil
            return nil
        case .overwrite:
            do {
                let saved = try state.updateQuote(conflict.current, with: conflict.mine)
                finish(saved)
                return saved
            } catch let .quoteConflict(found) {
                // Saved again meanwhile: the new conflict replaces the old one, so a second
                // overwrite goes over the version that is there now.
                self.conflict = found
                throw .quoteConflict(found)
            }
        case .cancel:
            cancel()
            return nil
        }
    }

    public func keepMine(_ field: Field) {
        clashes.removeAll { $0 == field }
    }

    public func takeTheirs(_ field: Field) {
        guard clashes.contains(field), let theirs = original?.draft else { return }
        draft.take(field, from: theirs)
        clashes.removeAll { $0 == field }
    }

    public func cancel() {
        draft = original?.draft ?? QuoteDraft()
        conflict = nil
        clashes = []
        onCancel?()
    }

    private func finish(_ saved: Quote) {
        original = saved
        draft = saved.draft
        conflict = nil
        clashes = []
        onSave?(saved)
    }
}
