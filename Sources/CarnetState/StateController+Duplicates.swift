import CarnetModels
import CarnetStorage

/// Duplicates: finding them, merging them, saying two contacts are different people.
extension StateController {
    /// The groups of contacts likely to be one person, strongest first.
    public func duplicates(scope: DuplicateScope = DuplicateScope()) throws(CarnetError) -> DuplicateSearch {
        try storage.duplicates(scope: scope)
    }

    /// Merges `contacts` into the first with `draft` (one action of the history); every list
    /// and the favorites are read again, since contacts went and one changed.
    @discardableResult
    public func mergeContacts(_ contacts: [Contact], into draft: ContactDraft) throws(CarnetError) -> Contact {
        let merged = try storage.mergeContacts(contacts, into: draft)
        try reloadEverything()
        return merged
    }

    /// Merges each group into its first contact with its draft, all as one action of the history
    /// (see `StorageController/mergeContactGroups(_:)`); everything is read again.
    @discardableResult
    public func mergeContactGroups(_ merges: [(contacts: [Contact], draft: ContactDraft)]) throws(CarnetError) -> [Contact] {
        let merged = try storage.mergeContactGroups(merges)
        try reloadEverything()
        return merged
    }

    /// Merges groups given by their contacts' ids, each read and merged inside one write, all as
    /// one action of the history (see `StorageController/mergeContactGroups(ids:merging:merged:)`);
    /// everything is read again when one was merged.
    @discardableResult
    public func mergeContactGroups(
        ids groups: [[Int64]], merging: @escaping ([Contact]) -> ContactDraft?, merged: @escaping ([Contact], Contact) -> Void
    ) throws(CarnetError) -> Int {
        let count = try storage.mergeContactGroups(ids: groups, merging: merging, merged: merged)
        if count > 0 { try reloadEverything() }
        return count
    }

    /// Records that two contacts are different people (one action of the history).
    public func markDifferentPeople(_ a: Int64, _ b: Int64) throws(CarnetError) {
        try storage.markDifferentPeople(a, b)
        try reloadEverything()
    }

    /// The contact with that UID, or the one a contact with that UID was merged into.
    public func contact(resolvingUID uid: String) throws(CarnetError) -> Contact? {
        try storage.contact(resolvingUID: uid)
    }
}
