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
