import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// Each address book of a file syncs with its own collection: setup links every address book
/// of the home set by name, a sync runs each book on its own, and a contact moved between two
/// synced books leaves one collection and reaches the other with its UID, on either server.
@Suite(.serialized, .needs("radicale", "xandikos")) struct BookSyncTests {
    /// Makes an address book `path` named `name` in the user's home, as another client would.
    static func makeCollection(_ fixture: SyncFixture, _ path: String, named name: String) throws {
        let url = fixture.server.collection(SyncFixture.user, path)
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>\
            <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>\(name)</d:displayname></d:prop></d:set></d:mkcol>
            """
        let response = try RawClient(user: SyncFixture.user, password: SyncFixture.password).send("MKCOL", url, body: body)
        #expect(response.isSuccess, "MKCOL \(path): \(response.status)")
    }

    /// The UIDs of the cards in collection `path`, read from the server's own folder.
    static func uids(_ fixture: SyncFixture, _ path: String) -> [String] {
        fixture.server.storedCards(user: SyncFixture.user, collection: path).compactMap { name in
            fixture.server.storedCard(user: SyncFixture.user, collection: path, name: name)?
                .split(whereSeparator: \.isNewline).first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }.sorted()
    }

    @Test(arguments: ServerKind.allCases)
    func aContactMovedBetweenTwoSyncedBooksMovesBetweenTheirCollections(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        try Self.makeCollection(fixture, "personal", named: "Personal")
        try Self.makeCollection(fixture, "work", named: "Work")

        let mine = try fixture.book("mine", setUp: false)
        let setup = try mine.engine.setup(
            url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "", certificateAuthority: nil, book: nil)
        #expect(setup.links.map(\.book.name) == ["Personal", "Work"])
        let allMade = setup.links.allSatisfy { $0.madeBook }
        #expect(allMade)
        #expect(try mine.storage.addressBooks().map(\.name) == ["Contacts", "Personal", "Work"])
        let personal = try mine.storage.addressBook(named: "Personal")
        let work = try mine.storage.addressBook(named: "Work")

        let ada = try mine.storage.insertContact(ContactDraft(name: "Ada Lovelace", phone: "+44 20 7946 0000"), bookID: personal.id)
        let grace = try mine.storage.insertContact(ContactDraft(name: "Grace Hopper"), bookID: work.id)
        try mine.storage.insertContact(ContactDraft(name: "Alan Turing"))  // the default book is not linked: it stays here
        let outcomes = try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil)
        #expect(outcomes.map(\.book) == ["Personal", "Work"] && outcomes.allSatisfy { $0.failure == nil })
        #expect(Self.uids(fixture, "personal") == [ada.uid])
        #expect(Self.uids(fixture, "work") == [grace.uid])

        // Moved here: deleted from the old collection, put in the new one, with its UID.
        try mine.storage.moveContact(id: ada.id, toBook: "Work")
        let moved = try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil)
        #expect(moved.first { $0.book == "Personal" }?.report?.deletedRemotely == 1)
        #expect(moved.first { $0.book == "Work" }?.report?.uploaded == 1)
        #expect(Self.uids(fixture, "personal") == [])
        #expect(Self.uids(fixture, "work") == [ada.uid, grace.uid].sorted())
        #expect(try mine.storage.contact(id: ada.id).uid == ada.uid)
        #expect(try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil).allSatisfy { $0.report?.changedNothing == true })

        // Another client's file sees it in Work, with the same UID.
        let theirs = try fixture.book("theirs", setUp: false)
        _ = try theirs.engine.setup(
            url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "", certificateAuthority: nil, book: nil)
        try theirs.sync()
        let theirAda = try theirs.contact(named: "Ada Lovelace")
        let theirWork = try theirs.storage.addressBook(named: "Work")
        #expect(theirAda.uid == ada.uid && theirAda.bookID == theirWork.id)
        #expect(try theirs.storage.addressBook(named: "Personal").contactCount == 0)

        // They move it back; this file follows, keeping the contact (its id) and its UID.
        try theirs.storage.moveContact(id: theirAda.id, toBook: "personal")
        try theirs.sync()
        #expect(Self.uids(fixture, "personal") == [ada.uid])
        try mine.storage.addFavorite(contactID: ada.id)
        let back = try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil)
        #expect(back.allSatisfy { $0.failure == nil }, "\(back)")
        let followed = try mine.storage.contact(id: ada.id)
        #expect(followed.bookID == personal.id && followed.uid == ada.uid && followed.draft == ada.draft)
        #expect(try mine.storage.favorites().map(\.contact.id) == [ada.id])
        #expect(try mine.storage.syncStatuses().allSatisfy { $0.cardsNotSynced.isEmpty && $0.pendingNew + $0.pendingChanged + $0.pendingDeletes == 0 })
        #expect(Self.uids(fixture, "work") == [grace.uid])
    }

    @Test func setupWithABookLinksOnlyThatCollectionAndOneBooksFailureLeavesTheOthers() throws {
        let fixture = try SyncFixture(.radicale)
        defer { fixture.server.stop() }
        try Self.makeCollection(fixture, "personal", named: "Personal")
        try Self.makeCollection(fixture, "work", named: "Work")
        let mine = try fixture.book("mine", setUp: false)
        let only = try mine.engine.setup(
            url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "", certificateAuthority: nil, book: "work")
        #expect(only.links.map(\.book.name) == ["Work"])
        guard case .refused? = carnetError({
            try mine.engine.setup(url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "", certificateAuthority: nil, book: "Nope")
        }) else { Issue.record("a book the server does not have"); return }

        // The default book linked to the collection itself, by its URL.
        _ = try mine.engine.setup(
            url: fixture.server.collection(SyncFixture.user, "personal").absoluteString, username: SyncFixture.user, passwordCommand: "",
            certificateAuthority: nil, book: nil)
        #expect(try mine.storage.syncAccounts().map(\.bookName) == ["Contacts", "Work"])
        try mine.storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        try mine.storage.insertContact(ContactDraft(name: "Grace Hopper"), bookID: try mine.storage.addressBook(named: "Work").id)

        // Work's collection goes: its sync fails, the default book's still syncs, and says so.
        let gone = try RawClient(user: SyncFixture.user, password: SyncFixture.password).send("DELETE", fixture.server.collection(SyncFixture.user, "work"))
        #expect(gone.isSuccess)
        let outcomes = try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil)
        #expect(outcomes.map(\.book) == ["Contacts", "Work"])
        #expect(outcomes[0].report?.uploaded == 1 && outcomes[0].failure == nil)
        #expect(outcomes[1].failure != nil && outcomes[1].report == nil)
        #expect(Self.uids(fixture, "personal").count == 1)
        // Only one book, by name.
        let one = try mine.engine.syncBooks("contacts", options: SyncOptions(), progress: nil)
        #expect(one.map(\.book) == ["Contacts"] && one[0].failure == nil)
    }

    @Test(arguments: ServerKind.allCases)
    func undoingASyncedBooksDeletionBringsItsLinkBack(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        try Self.makeCollection(fixture, "personal", named: "Personal")
        try Self.makeCollection(fixture, "work", named: "Work")
        let mine = try fixture.book("mine", setUp: false)
        _ = try mine.engine.setup(
            url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "", certificateAuthority: nil, book: nil)
        let work = try mine.storage.addressBook(named: "Work")
        var draft = ContactDraft(name: "Ada Lovelace", phone: "+44 20 7946 0000")
        draft.title = "Analyst"
        let ada = try mine.storage.insertContact(draft, bookID: work.id)
        #expect(try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil).allSatisfy { $0.failure == nil })
        let linked = try #require(try mine.storage.syncAccounts().first { $0.bookID == work.id })

        // The phone has Work too.
        let phone = try fixture.book("phone", setUp: false)
        _ = try phone.engine.setup(
            url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "", certificateAuthority: nil, book: nil)
        try phone.sync()

        // Deleted here, synced (the cards stay on the server), changed on the phone meanwhile.
        try mine.storage.deleteAddressBook(named: "Work", withContacts: true)
        #expect(try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil).map(\.book) == ["Personal"])
        #expect(Self.uids(fixture, "work") == [ada.uid])
        try phone.edit("Ada Lovelace") { $0.title = "Countess" }
        try phone.sync()

        // The undo brings the book, its contact and its link back, and says so.
        let step = try mine.storage.undo()
        #expect(step.relinked.map(\.book) == ["Work"])
        #expect(step.relinked.map(\.collectionURL) == [linked.collectionURL])
        let back = try #require(try mine.storage.syncAccounts().first { $0.bookID == work.id }, "Work is linked again")
        #expect(back.collectionURL == linked.collectionURL)
        // A redo deletes it again, setting the link aside again; the next undo brings it back again.
        try mine.storage.redo()
        #expect(try mine.storage.syncAccounts().map(\.bookName) == ["Personal"])
        #expect(try mine.storage.undo().relinked.map(\.book) == ["Work"])

        // The phone's change comes as a change, merged against the card as last synced: no clash.
        let outcomes = try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil)
        #expect(outcomes.map(\.book) == ["Personal", "Work"] && outcomes.allSatisfy { $0.failure == nil }, "\(outcomes)")
        let report = try #require(outcomes.first { $0.book == "Work" }?.report)
        #expect(report.clashes.isEmpty)
        let now = try mine.storage.contact(id: ada.id)
        #expect(now.draft.title == "Countess" && now.draft.phones == ada.draft.phones && now.bookID == work.id)
        #expect(try mine.storage.syncStatuses().allSatisfy { $0.conflicts.isEmpty && $0.pendingNew + $0.pendingChanged + $0.pendingDeletes == 0 })
        #expect(Self.uids(fixture, "work") == [ada.uid])
        try phone.sync()
        #expect(try phone.contact(named: "Ada Lovelace").draft.title == "Countess")
    }
}
