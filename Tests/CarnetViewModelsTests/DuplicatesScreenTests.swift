import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation
import TestNeeds
import Testing

/// The duplicates screen and the merge screen, driven as a screen drives them.
@MainActor
@Suite struct DuplicatesScreenTests {
    let dir = TempDirectory()

    func twoAdas(_ state: StateController) throws -> (Contact, Contact) {
        var first = ContactDraft(name: "Ada Lovelace")
        first.emails = [LabeledValue("ada@example.com", label: "work")]
        first.title = "Analyst"
        var second = ContactDraft(name: "Lovelace, Ada")
        second.emails = [LabeledValue("Ada@Example.com", label: "home")]
        second.phones = [LabeledValue("+44 20 7946 0000", label: "cell")]
        second.title = "Countess"
        return (try state.addContact(first), try state.addContact(second))
    }

    @Test func theScreenListsGroupsWithReasonsAndMergesOneWithAChoiceThenUndoBringsItBack() throws {
        let state = try makeState(dir.database)
        let (ada, lovelace) = try twoAdas(state)
        _ = try state.addContact(ContactDraft(name: "Grace Hopper"))
        let tabs = try shownTabs(state)
        let screen = DuplicatesViewModel(state: state)
        try screen.refresh()
        #expect(screen.rows.map { $0.members.map(\.name) } == [["Ada Lovelace", "Lovelace, Ada"]])
        #expect(screen.rows[0].reasons == ["same email ada@example.com", "same name “ada lovelace”"])
        #expect(screen.contactCount == 3)

        let merge = try screen.mergeScreen(for: screen.rows[0])
        var saved: Contact?
        merge.onSave = { saved = $0 }
        #expect(merge.questions.map(\.field) == [.name, .title])
        #expect(merge.editor.draft.title == "Analyst")
        #expect(merge.editor.draft.phones.map(\.value) == ["+44 20 7946 0000"])
        #expect(merge.editor.draft.emails.map(\.label) == ["work,home"])
        merge.choose(.title, from: 1)
        #expect(merge.editor.draft.title == "Countess")
        #expect(merge.questions.first { $0.field == .title }?.chosen == 1)
        // The draft is edited like any contact's before saving.
        merge.editor.draft.note = "merged by hand"
        #expect(merge.canSave)
        try merge.save()
        #expect(saved?.id == ada.id && saved?.draft.title == "Countess")
        try screen.refresh()  // back on the duplicates screen
        #expect(screen.rows.isEmpty)
        #expect(state.contactCount == 2)
        #expect(tabs.all.rows.map(\.contact.name) == ["Ada Lovelace", "Grace Hopper"])
        #expect(state.undoTitle == "Undo Merge Ada Lovelace")

        try state.undo()
        #expect(try state.contact(id: lovelace.id).draft == lovelace.draft)
        #expect(try state.contact(id: ada.id).draft == ada.draft)
        try screen.refresh()
        #expect(screen.rows.count == 1)
    }

    /// A chain of reasons too long for one group is listed as several groups that share
    /// contacts: merging all merges the first of each overlap and leaves the rest for the next
    /// search, which finds them with the merged contact; one undo takes a merge-all back.
    @Test func mergeAllMergesOverlappingGroupsOneAtATime() throws {
        let state = try makeState(dir.database)
        // Fourteen people, each sharing an email with the next: one chain of fourteen.
        for i in 0..<14 {
            var draft = ContactDraft(name: "Person \(i) Chain")
            draft.emails = [LabeledValue("p\(i)@example.com"), LabeledValue("p\(i + 1)@example.com")]
            draft.title = "Title \(i)"
            _ = try state.addContact(draft)
        }
        let screen = DuplicatesViewModel(state: state)
        try screen.refresh()
        #expect(screen.rows.count > 1, "\(screen.rows.map(\.id))")
        let alone = try screen.mergeAll()
        #expect(alone.merged.isEmpty && alone.overlapping.isEmpty && alone.left.count == screen.rows.count, "the titles differ")
        let first = try screen.mergeAll(keepingFirst: true)
        #expect(!first.merged.isEmpty && !first.overlapping.isEmpty)
        let ids = first.merged.flatMap(\.contactIDs)
        #expect(Set(ids).count == ids.count, "no contact merged twice")
        #expect(first.merged.allSatisfy { $0.settled.map(\.subject) == [.field(.name), .field(.title)] })
        _ = try state.undo()
        #expect(try state.contactCount(matching: "") == 14)
        var rounds = 0
        while !(try screen.mergeAll(keepingFirst: true)).merged.isEmpty { rounds += 1 }
        let remaining = try state.contactCount(matching: "")
        #expect(rounds >= 2 && remaining == 1, "\(rounds) rounds, \(remaining) left")
    }

    @Test func cancellingTheMergeScreenLeavesNoTrace() throws {
        let state = try makeState(dir.database)
        let (ada, lovelace) = try twoAdas(state)
        let before = fileState(dir.database)
        let screen = DuplicatesViewModel(state: state)
        try screen.refresh()
        let merge = try screen.mergeScreen(for: screen.rows[0], into: lovelace.id)
        var cancelled = false
        merge.onCancel = { cancelled = true }
        #expect(merge.survivor?.id == lovelace.id)
        #expect(merge.editor.draft.name == "Lovelace, Ada")
        merge.editor.draft.emails.append(LabeledValue("not an email"))
        #expect(!merge.canSave)
        merge.cancel()
        #expect(cancelled)
        #expect(fileState(dir.database) == before)
        #expect(try state.contact(id: ada.id) == ada)
    }

    @Test func sayingTwoAreDifferentPeopleTakesTheGroupOffTheScreen() throws {
        let state = try makeState(dir.database)
        let (ada, lovelace) = try twoAdas(state)
        let screen = DuplicatesViewModel(state: state)
        try screen.refresh()
        try screen.markDifferent(ada.id, lovelace.id)
        #expect(screen.rows.isEmpty)
        #expect(state.undoTitle == "Undo Mark Different Ada Lovelace")
        try state.undo()
        try screen.refresh()
        #expect(screen.rows.count == 1)
    }
}

/// What an add says of a new contact that looks like one already there is found among the
/// contacts the search finds by its emails, numbers and names, not by reading the whole book; the
/// answer is the one the whole book gives.
@MainActor
@Suite struct LikelyDuplicateNeighbourhoodTests {
    let dir = TempDirectory()

    /// A fixed sequence, so a failure comes back with its seed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        // SplitMix64: every bit of the result varies, as `random(in:using:)` needs.
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: seeds([1, 2, 3] as [UInt64]))
    func theNeighbourhoodGivesWhatTheWholeBookGives(seed: UInt64) throws {
        let state = try makeState(dir.database)
        var rng = Seeded(state: seed)
        let first = ["Ada", "Grace", "Alan", "Katherine", "Jon", "John"], last = ["Lovelace", "Hopper", "Turing", "Johnson", "King"]
        let domains = ["example.com", "example.org", "mail.example"]
        func draft(_ i: Int) -> ContactDraft {
            var draft = ContactDraft(name: "\(first[Int.random(in: 0..<first.count, using: &rng)]) \(last[Int.random(in: 0..<last.count, using: &rng)])")
            if Bool.random(using: &rng) { draft.emails = [LabeledValue("p\(Int.random(in: 0..<40, using: &rng))@\(domains[i % 3])")] }
            if Int.random(in: 0..<3, using: &rng) == 0 { draft.phones = [LabeledValue("+1 555 01\(Int.random(in: 10..<40, using: &rng))")] }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                draft.addresses = [PostalAddress(street: "\(Int.random(in: 1..<9, using: &rng)) Main St", locality: "Springfield")]
            }
            return draft
        }
        for i in 0..<300 { _ = try state.addContact(draft(i)) }
        var said = 0
        for i in 0..<40 {
            let new = try state.addContact(draft(i))
            let near = DuplicatesViewModel(state: state)
            let whole = DuplicatesViewModel(state: state)
            whole.neighbourhoodLimit = 0
            let found = try near.likelyDuplicates(ofAdded: [new.id])
            #expect(found == (try whole.likelyDuplicates(ofAdded: [new.id])), "\(new.draft)")
            said += found.count
        }
        #expect(said > 5, "the book should give some likely duplicates to compare")
    }
}
