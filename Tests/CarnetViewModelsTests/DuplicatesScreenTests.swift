import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation
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
