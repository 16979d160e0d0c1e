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
        // Each entry's words, folded once: every tier below reads them.
        let tokens = found.map { entry in
            (names: [SearchText.tokens(entry.name), SearchText.tokens(entry.otherNames)],
             emails: entry.emails.flatMap { SearchText.tokens($0.value) }, organization: SearchText.tokens(entry.organization))
        }
        func holdsEveryWord(_ texts: [String]) -> Bool {
            words.allSatisfy { word in texts.contains { $0.hasPrefix(word) } }
        }
        // The words as typed, in order, starting consecutive words of a name: what abook's
        // substring match finds ("gale ma" is Gale Ma, not Mark Gale).
        func inOrder(_ name: [String]) -> Bool {
            guard name.count >= words.count else { return false }
            return (0...(name.count - words.count)).contains { start in
                words.indices.allSatisfy { index in
                    index == words.count - 1 ? name[start + index].hasPrefix(words[index]) : name[start + index] == words[index]
                }
            }
        }
        func tier(_ holds: (Int) -> Bool) -> [MailEntry] { found.indices.filter(holds).map { found[$0] } }
        let byOrder = tier { tokens[$0].names.contains(where: inOrder) }
        if !byOrder.isEmpty { return byOrder }
        let byName = tier { holdsEveryWord(tokens[$0].names.joined() + tokens[$0].emails) }
        if !byName.isEmpty { return byName }
        let byWork = tier { holdsEveryWord(tokens[$0].names.joined() + tokens[$0].emails + tokens[$0].organization) }
        return byWork.isEmpty ? found : byWork
    }
}
