import CarnetModels
import CarnetState

/// A mail client's query (`carnet query`): the groups whose name matches, expanded to their
/// members, then the contacts the search finds, each with only what the answer shows. Not a
/// screen anyone watches, so not observable: it is started at every completion.
@MainActor
public final class MailQueryViewModel {
    private let state: StateController

    public init(state: StateController) {
        self.state = state
    }

    /// The groups whose name `search` finds, each with its members.
    public func groups(matching search: String) throws(CarnetError) -> [ContactGroup] {
        try GroupsViewModel(state: state).groups(matching: search)
    }

    /// Up to `limit` contacts `search` finds, best matches first (as `list --sort relevance`).
    public func entries(matching search: String, limit: Int, bookID: Int64? = nil) throws(CarnetError) -> [MailEntry] {
        try state.mailEntries(query: ContactQuery(search: search, order: .relevance, bookID: bookID), limit: limit)
    }
}
