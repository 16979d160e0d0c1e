import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import Testing

/// The edit screen's lists, driven the way a screen binds them: add, change, remove, move, make
/// preferred, for any list the field description has.
@MainActor
@Suite struct ListEditingTests {
    let dir = TempDirectory()

    @Test func theListsAreTheFieldDescriptionsLists() {
        #expect(EditContactViewModel.listFields == [.email, .phone, .address, .url, .handle, .date, .category, .expertise, .hobby, .interest, .extra])
        #expect(EditQuoteViewModel.listFields.isEmpty)
        #expect(EditContactViewModel.hasPreferredEntry(.email) && EditContactViewModel.hasPreferredEntry(.address))
        #expect(!EditContactViewModel.hasPreferredEntry(.date) && !EditContactViewModel.hasPreferredEntry(.category))
    }

    @Test func addRemoveMoveAndPreferOnEveryList() throws {
        let state = try makeState(dir.database)
        let edit = EditContactViewModel(state: state)
        edit.draft.name = "Everything"
        // One operation set, every list: no method per list.
        let samples: [Field: [String]] = [
            .email: ["work:a@example.com", "home:b@example.com"],
            .phone: ["cell:+1 555 0100", "work:+1 555 0199"],
            .address: ["home:1 Main St; Springfield", "work:2 High St; Shelbyville"],
            .url: ["https://a.example", "work:https://b.example"],
            .handle: ["mastodon:@a@example.social", "skype:b"],
            .date: ["birthday:1815-12-10", "anniversary:--06-01"],
            .category: ["friends", "work"],
            .expertise: ["expert:Swift", "Rust"],
            .hobby: ["high:sailing", "chess"],
            .interest: ["low:astronomy", "looms"],
            .extra: ["X-A:1", "X-B:2"],
        ]
        for field in EditContactViewModel.listFields {
            let texts = try #require(samples[field], "\(field)")
            #expect(try edit.addEntry(texts[0], to: field) == 0)
            #expect(try edit.addEntry(texts[1], to: field) == 1)
            let added = edit.entries(in: field)
            #expect(added.count == 2, "\(field)")
            try edit.moveEntry(from: 1, to: 0, in: field)
            #expect(edit.entries(in: field) == [added[1], added[0]], "\(field)")
            if EditContactViewModel.hasPreferredEntry(field) {
                try edit.makePreferred(at: 1, in: field)
                #expect(edit.entryRows(in: field).map { $0.entryLabel.hasSuffix("preferred") } == [false, true], "\(field)")
            }
            try edit.removeEntry(at: 0, from: field)
            #expect(edit.entries(in: field).count == 1, "\(field)")
        }
        #expect(edit.issues.isEmpty, "\(edit.issues)")
        let saved = try edit.save()
        #expect(saved.emails == [LabeledValue("a@example.com", label: "work", preferred: true)])
        #expect(saved.dates == [ContactDate(label: ContactDate.birthday, year: 1815, month: 12, day: 10)])
        #expect(saved.categories == ["friends"] && saved.extras == ["X-A:1"])
    }

    @Test func anAddedPreferredEntryIsTheOnlyPreferredOne() throws {
        let state = try makeState(dir.database)
        let edit = EditContactViewModel(state: state, contact: try saveAda(state))
        try edit.addEntry("other,pref:ada@elsewhere.example", to: .email)
        #expect(edit.entries(in: .email) == ["work:ada@example.com", "home:ada@home.example", "other,pref:ada@elsewhere.example"])
        #expect(edit.draft.email == "ada@elsewhere.example")
        try edit.setEntry(at: 0, to: "work,pref:countess@example.com", in: .email)
        #expect(edit.entries(in: .email) == ["work,pref:countess@example.com", "home:ada@home.example", "other:ada@elsewhere.example"])
        #expect(edit.entryRows(in: .email).map(\.entryLabel) == ["work, preferred", "home", "other"])
        #expect(edit.entryRows(in: .email).map(\.index) == [0, 1, 2])
        #expect(edit.issues.isEmpty)
    }

    @Test func removingByValueWorksLikeTheRemoveFlags() throws {
        let state = try makeState(dir.database)
        let edit = EditContactViewModel(state: state, contact: try saveAda(state))
        #expect(try edit.removeEntries(matching: "ADA@home.example", from: .email) == 1)
        #expect(try edit.removeEntries(matching: "nobody@example.com", from: .email) == 0)
        #expect(edit.entries(in: .email) == ["work,pref:ada@example.com"])
        #expect(try edit.removeEntries(matching: "Friends", from: .category) == 1)
        #expect(edit.draft.categories.isEmpty)
    }

    /// An entry that breaks a rule is kept and named, as a bad value in a one-line field is;
    /// text that is no entry at all, a blank entry and a missing index change nothing.
    @Test func badEntriesAreNamedOrRefusedAndTheDraftIsKept() throws {
        let state = try makeState(dir.database)
        let original = try saveAda(state)
        let edit = EditContactViewModel(state: state, contact: original)
        try edit.addEntry("nope", to: .email)
        #expect(edit.messages(for: .email) == ["3 (nope) must look like name@example.com (no spaces or invisible characters)"])
        #expect(edit.issues.map(\.description) == ["email: 3 (nope) must look like name@example.com (no spaces or invisible characters)"])
        #expect(!edit.canSave)
        #expect(throws: CarnetError.invalid(edit.issues)) { try edit.save() }
        #expect(try state.contact(id: original.id) == original)
        #expect(edit.entries(in: .email).count == 3)  // still there to fix or remove
        try edit.removeEntry(at: 2, from: .email)
        #expect(edit.canSave)

        let before = edit.draft
        #expect(throws: CarnetError.invalid([FieldIssue(.date, "\"tomorrow\" is not a date like 1815-12-10, or --12-10 without a year")])) {
            try edit.addEntry("birthday:tomorrow", to: .date)
        }
        #expect(throws: CarnetError.invalid([FieldIssue(.email, "an entry must not be blank")])) { try edit.addEntry("work:  ", to: .email) }
        #expect(throws: CarnetError.invalid([FieldIssue(.email, "has no entry 5; it has 2")])) { try edit.removeEntry(at: 4, from: .email) }
        #expect(throws: CarnetError.invalid([FieldIssue(.phone, "has no entry 2; it has 1")])) { try edit.moveEntry(from: 0, to: 1, in: .phone) }
        #expect(throws: CarnetError.invalid([FieldIssue(.address, "has no entry 1; it has none")])) { try edit.setEntry(at: 0, to: "x", in: .address) }
        #expect(throws: CarnetError.self) { try edit.makePreferred(at: 0, in: .date) }
        #expect(throws: CarnetError.invalid([FieldIssue(.name, "is not a list")])) { try edit.addEntry("x", to: .name) }
        #expect(edit.draft == before)
        #expect(!edit.isDirty)
    }

    @Test func aSaveThatChangesListsMakesOneNewVersion() throws {
        let state = try makeState(dir.database)
        let original = try saveAda(state)
        let list = ContactsViewModel(state: state)
        try list.onAppear()
        let detail = list.detail(for: original)
        let edit = detail.edit()
        #expect(!edit.isDirty)
        try edit.moveEntry(from: 1, to: 0, in: .email)
        #expect(edit.isDirty)  // order is a change
        try edit.makePreferred(at: 0, in: .email)
        try edit.addEntry("work:+44 20 7946 0001", to: .phone)
        try edit.removeEntry(at: 0, from: .category)
        try edit.addEntry("anniversary:--06-01", to: .date)
        let saved = try edit.save()
        #expect(saved.version == original.version + 1)
        #expect(try state.contact(id: original.id) == saved)
        #expect(saved.emails.map(\.entryText) == ["home,pref:ada@home.example", "work:ada@example.com"])
        #expect(saved.phones.count == 2 && saved.categories.isEmpty && saved.dates.count == 2)
        #expect(detail.contact == saved)                  // back through the closure
        #expect(list.highlightedID == saved.id)           // and the delegate
        #expect(list.rows.first { $0.id == saved.id }?.contact.email == "ada@home.example")
        #expect(!edit.isDirty)
        // Saving the same lists again writes nothing new.
        #expect(try edit.save().version == saved.version)
    }

    @Test func cancelAfterListEditsLeavesNoTrace() throws {
        let state = try makeState(dir.database)
        let original = try saveAda(state)
        let before = fileState(dir.database)
        var cancelled = false
        let edit = EditContactViewModel(state: state, contact: original)
        edit.onCancel = { cancelled = true }
        try edit.addEntry("home:+44 20 7946 0002", to: .phone)
        try edit.moveEntry(from: 0, to: 1, in: .email)
        try edit.removeEntry(at: 0, from: .date)
        try edit.makePreferred(at: 1, in: .email)
        #expect(edit.isDirty)
        edit.cancel()
        #expect(cancelled)
        #expect(edit.draft == original.draft && !edit.isDirty)
        #expect(fileState(dir.database) == before)
        #expect(try state.contact(id: original.id) == original)
    }

    /// A list is one field to a merge: different lists merge, the same list is asked about.
    @Test func conflictsMergeListByList() throws {
        let state = try makeState(dir.database)
        let original = try saveAda(state)
        let other = try makeState(dir.database)

        let mine = EditContactViewModel(state: state, contact: original)
        try mine.addEntry("work:+44 20 7946 0001", to: .phone)
        let theirs = EditContactViewModel(state: other, contact: original)
        try theirs.removeEntry(at: 1, from: .email)
        try theirs.addEntry("family", to: .category)
        let theirSave = try theirs.save()
        #expect(throws: CarnetError.self) { try mine.save() }
        #expect(mine.conflict?.changedFields == [.email, .category])
        try mine.resolve(.reload)
        #expect(mine.clashes.isEmpty)
        #expect(mine.entries(in: .email) == ["work,pref:ada@example.com"])
        #expect(mine.draft.categories == ["friends", "family"])
        #expect(mine.entries(in: .phone).count == 2)
        let merged = try mine.save()
        #expect(merged.version == theirSave.version + 1)
        #expect(merged.emails.count == 1 && merged.phones.count == 2 && merged.categories == ["friends", "family"])

        // Both add an email: lists merge entry by entry, so both are kept and nothing is asked.
        let mine2 = EditContactViewModel(state: state, contact: merged)
        try mine2.addEntry("mine@example.com", to: .email)
        try mine2.addEntry("--03-14", to: .date)
        let theirs2 = EditContactViewModel(state: other, contact: merged)
        try theirs2.makePreferred(at: 0, in: .email)  // already preferred: no change
        try theirs2.addEntry("theirs@example.com", to: .email)
        try theirs2.save()
        #expect(throws: CarnetError.self) { try mine2.save() }
        try mine2.resolve(.reload)
        #expect(mine2.clashes.isEmpty)
        let both = try mine2.save()
        #expect(both.emails.map(\.value) == ["ada@example.com", "mine@example.com", "theirs@example.com"])

        // Both change the same entry, differently: the one field to ask about.
        let mine3 = EditContactViewModel(state: state, contact: both)
        try mine3.setEntry(at: 1, to: "home:mine@example.com", in: .email)
        let theirs3 = EditContactViewModel(state: other, contact: both)
        try theirs3.setEntry(at: 1, to: "other:mine@example.com", in: .email)
        try theirs3.save()
        #expect(throws: CarnetError.self) { try mine3.save() }
        try mine3.resolve(.reload)
        #expect(mine3.clashes == [.email])
        #expect(mine3.entries(in: .email)[1] == "home:mine@example.com")  // mine until settled
        mine3.takeTheirs(.email)
        #expect(mine3.entries(in: .email)[1] == "other:mine@example.com")
        let settled = try mine3.save()
        #expect(settled.emails.map(\.label) == ["work", "other", ""])
        #expect(settled.dates.count == 2)
    }
}
