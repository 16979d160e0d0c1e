import CarnetModels
import CarnetState

/// A mail client's query (`carnet query`): the groups whose name matches, each one entry that
/// addresses all its members, then the people a mail user means by what they typed. Not a screen
/// anyone watches, so not observable: it is started at every completion.
@MainActor
public final class MailQueryViewModel {
    private let state: StateController

    public init(state: StateController) {
        self.state = state
    }

    /// A group as one completion: every member's preferred address, members of groups within it
    /// included once (a group inside itself, however deep, is not entered again).
    public struct GroupEntry: Sendable, Equatable {
        public let group: Contact
        /// Each member with an address, once, in the group's order.
        public let members: [Contact]
    }

    /// The groups whose name `search` finds, each with its members (nested groups expanded).
    public func groups(matching search: String) throws(CarnetError) -> [GroupEntry] {
        var entries: [GroupEntry] = []
        for group in try GroupsViewModel(state: state).groups(matching: search) {
            var seenGroups: Set<Int64> = [group.id]
            var seenPeople: Set<Int64> = []
            var members: [Contact] = []
            // Depth first, in each group's order: a group within is read once, where it stands.
            var pending = ArraySlice(group.members.reversed())
            while let card = pending.popLast() {
                switch card.kind {
                case .individual:
                    if !card.draft.email.isEmpty, seenPeople.insert(card.id).inserted { members.append(card) }
                case .group:
                    if seenGroups.insert(card.id).inserted { pending.append(contentsOf: try state.resolved(group: card).members.reversed()) }
                }
            }
            entries.append(GroupEntry(group: group.contact, members: members))
        }
        return entries
    }

    /// Up to `limit` contacts `search` finds, as a mail user means them: those whose name holds
    /// the words in the order typed (each whole but the last, which may be a word's start); if
    /// none, those whose names, nickname or email addresses hold every word; if none, those whose
    /// organisation does too; only if none again, everything the search finds (a street, a note). Best matches first
    /// (as `list --sort relevance`).
    public func entries(matching search: String, limit: Int, bookID: Int64? = nil) throws(CarnetError) -> [MailEntry] {
        let found = try state.mailEntries(query: ContactQuery(search: search, order: .relevance, bookID: bookID), limit: limit)
        let words = SearchText.tokens(search)
        guard !words.isEmpty, found.count > 0 else { return found }
        func holdsEveryWord(_ entry: MailEntry, organization: Bool) -> Bool {
            var texts = [entry.name, entry.otherNames] + entry.emails.map(\.value)
            if organization { texts.append(entry.organization) }
            let tokens = texts.flatMap(SearchText.tokens)
            return words.allSatisfy { word in tokens.contains { $0.hasPrefix(word) } }
        }
        // The words as typed, in order, starting consecutive words of a name: what abook's
        // substring match finds ("gale ma" is Gale Ma, not Mark Gale).
        func namesInOrder(_ entry: MailEntry) -> Bool {
            [entry.name, entry.otherNames].contains { text in
                let tokens = SearchText.tokens(text)
                guard tokens.count >= words.count else { return false }
                return (0...(tokens.count - words.count)).contains { start in
                    words.indices.allSatisfy { index in
                        index == words.count - 1 ? tokens[start + index].hasPrefix(words[index]) : tokens[start + index] == words[index]
                    }
                }
            }
        }
        let inOrder = found.filter(namesInOrder)
        if !inOrder.isEmpty { return inOrder }
        let byName = found.filter { holdsEveryWord($0, organization: false) }
        if !byName.isEmpty { return byName }
        let byWork = found.filter { holdsEveryWord($0, organization: true) }
        return byWork.isEmpty ? found : byWork
    }
}
