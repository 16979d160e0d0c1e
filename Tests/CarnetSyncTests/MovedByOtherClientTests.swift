import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// Another client (vdirsyncer, khard, curl) moves a card between two collections that this
/// file links to two books: it deletes the card from one and puts it, same UID, in the other.
/// The contact here moves with it (same id, favorite and UID), whichever book syncs first, in
/// one `carnet sync` or in syncs of one book at a time; a card deleted for good is still deleted.
@Suite(.serialized, .needs("radicale", "xandikos")) struct MovedByOtherClientTests {
    /// This file, linked to Personal and Work on `fixture`'s server: Ada (a favorite) in
    /// Personal, Grace in Work, both synced.
    struct Linked {
        let mine: Book
        let personal: AddressBook
        let work: AddressBook
        let ada: Contact
        let grace: Contact

        init(_ fixture: SyncFixture, transport: HTTPTransport = CurlTransport()) throws {
            try BookSyncTests.makeCollection(fixture, "personal", named: "Personal")
            try BookSyncTests.makeCollection(fixture, "work", named: "Work")
            mine = try fixture.book("mine", transport: transport, setUp: false)
            _ = try mine.engine.setup(
                url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "", certificateAuthority: nil, book: nil)
            personal = try mine.storage.addressBook(named: "Personal")
            work = try mine.storage.addressBook(named: "Work")
            ada = try mine.storage.insertContact(ContactDraft(name: "Ada Lovelace", phone: "+44 20 7946 0000"), bookID: personal.id)
            grace = try mine.storage.insertContact(ContactDraft(name: "Grace Hopper"), bookID: work.id)
            try mine.storage.addFavorite(contactID: ada.id)
            let outcomes = try mine.engine.syncBooks(nil, options: SyncOptions(), progress: nil)
            #expect(outcomes.allSatisfy { $0.failure == nil && $0.report?.uploaded == 1 }, "\(outcomes)")
        }

        @discardableResult
        func sync(_ book: String? = nil) throws -> [BookSyncOutcome] {
            let outcomes = try mine.engine.syncBooks(book, options: SyncOptions(), progress: nil)
            #expect(outcomes.allSatisfy { $0.failure == nil }, "\(outcomes)")
            return outcomes
        }

        /// Ada as the file has her now: the same contact (id, UID, favorite), in `book`.
        func expectAda(in book: AddressBook, _ comment: Comment) throws {
            let now = try mine.storage.contact(id: ada.id)
            #expect(now.bookID == book.id && now.uid == ada.uid && now.phone == ada.phone, comment)
            #expect(try mine.storage.favorites().map(\.contact.id) == [ada.id], comment)
            #expect(try mine.contacts().map(\.id).sorted() == [ada.id, grace.id].sorted(), comment)
        }

        /// The cards the sync of `book` holds back, as `sync status` lists them.
        func held(in book: String) throws -> [CardNotSynced] {
            try mine.storage.syncStatuses().first { $0.account.bookName == book }?.cardsNotSynced ?? []
        }

        /// Nothing waits, on any side, and the next sync has nothing to do.
        func expectSettled(_ fixture: SyncFixture, _ comment: Comment) throws {
            let statuses = try mine.storage.syncStatuses()
            #expect(statuses.allSatisfy { $0.cardsNotSynced.isEmpty && $0.pendingNew + $0.pendingChanged + $0.pendingDeletes == 0 }, comment)
            #expect(try sync().allSatisfy { $0.report?.changedNothing == true }, comment)
        }
    }

    /// The name of the card of `uid` in collection `path`, as the server stores it.
    static func cardName(_ fixture: SyncFixture, _ uid: String, in path: String) throws -> String {
        let names = fixture.server.storedCards(user: SyncFixture.user, collection: path)
        return try #require(names.first { fixture.server.storedCard(user: SyncFixture.user, collection: path, name: $0)?.contains("UID:\(uid)") == true })
    }

    /// What another client does to move a card, in plain HTTP as curl would send it: GET the card
    /// of `uid` from collection `from`, DELETE it there, PUT it (`change`d) into `to` under a name
    /// of its own.
    static func otherClientMoves(_ fixture: SyncFixture, _ uid: String, from: String, to: String, _ change: (String) -> String = { $0 }) throws {
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let old = fixture.server.collection(SyncFixture.user, from).appendingPathComponent(try cardName(fixture, uid, in: from))
        let card = String(decoding: try raw.send("GET", old).body, as: UTF8.self)
        #expect(card.contains("UID:\(uid)"))
        #expect(try raw.send("DELETE", old).isSuccess)
        let new = fixture.server.collection(SyncFixture.user, to).appendingPathComponent("moved-\(UUID().uuidString.lowercased()).vcf")
        #expect(try raw.send("PUT", new, headers: ["Content-Type": "text/vcard"], body: change(card)).isSuccess)
    }

    /// Another client copies the card of `uid` from collection `from` into `to`, same UID, and
    /// leaves it where it was.
    static func otherClientCopies(_ fixture: SyncFixture, _ uid: String, from: String, to: String) throws {
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let old = fixture.server.collection(SyncFixture.user, from).appendingPathComponent(try cardName(fixture, uid, in: from))
        let card = String(decoding: try raw.send("GET", old).body, as: UTF8.self)
        #expect(card.contains("UID:\(uid)"))
        let new = fixture.server.collection(SyncFixture.user, to).appendingPathComponent("copied-\(UUID().uuidString.lowercased()).vcf")
        #expect(try raw.send("PUT", new, headers: ["Content-Type": "text/vcard"], body: card).isSuccess)
    }

    static func otherClientDeletes(_ fixture: SyncFixture, _ uid: String, from: String) throws {
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let url = fixture.server.collection(SyncFixture.user, from).appendingPathComponent(try cardName(fixture, uid, in: from))
        #expect(try raw.send("DELETE", url).isSuccess)
    }

    @Test(arguments: ServerKind.allCases)
    func aCardMovedByAnotherClientMovesItsContactWhicheverBookSyncsFirst(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        let linked = try Linked(fixture)

        // Personal (the book it leaves) syncs first: its card is gone before Work's sync sees it
        // again. They also give her a title on the way, which comes here with the move.
        try Self.otherClientMoves(fixture, linked.ada.uid, from: "personal", to: "work") {
            $0.replacingOccurrences(of: "END:VCARD", with: "TITLE:Countess of Lovelace\r\nEND:VCARD")
        }
        let outcomes = try linked.sync()
        #expect(outcomes.map(\.book) == ["Personal", "Work"])
        #expect(outcomes[0].report?.deleted == 0 && outcomes[1].report?.added == 0, "\(outcomes)")
        #expect(outcomes[1].report?.moved.map(\.name) == ["Ada Lovelace"], "\(outcomes)")
        try linked.expectAda(in: linked.work, "moved from Personal to Work")
        #expect(try linked.mine.storage.contact(id: linked.ada.id).draft.title == "Countess of Lovelace")
        #expect(BookSyncTests.uids(fixture, "personal") == [])
        #expect(BookSyncTests.uids(fixture, "work") == [linked.ada.uid, linked.grace.uid].sorted())
        // The history says it was a move, and from where to where.
        let summaries = try linked.mine.storage.history(limit: 5).map(\.summary)
        #expect(summaries.contains { $0.contains("moved Ada Lovelace from Personal to Work") }, "\(summaries)")
        try linked.expectSettled(fixture, "after the move to Work")

        // Back to Personal: now the book it goes to syncs first, and sees her card before Work's
        // sync has let her go.
        try Self.otherClientMoves(fixture, linked.ada.uid, from: "work", to: "personal")
        let back = try linked.sync()
        #expect(back.first { $0.book == "Personal" }?.report?.moved.map(\.name) == ["Ada Lovelace"], "\(back)")
        try linked.expectAda(in: linked.personal, "moved back to Personal")
        #expect(try linked.mine.storage.contact(id: linked.ada.id).draft.title == "Countess of Lovelace")
        try linked.expectSettled(fixture, "after the move back")

        // Undone here, the move goes back on the server too: she returns to Work.
        let undone = try linked.mine.storage.undo()
        #expect(undone.entries.first?.summary.contains("moved Ada Lovelace from Work to Personal") == true, "\(undone.entries.map(\.summary))")
        try linked.expectAda(in: linked.work, "the move undone")
        try linked.sync()
        #expect(BookSyncTests.uids(fixture, "personal") == [])
        #expect(BookSyncTests.uids(fixture, "work") == [linked.ada.uid, linked.grace.uid].sorted())
        try linked.expectAda(in: linked.work, "the undone move synced")
        try linked.expectSettled(fixture, "after the undone move")
    }

    @Test(arguments: ServerKind.allCases)
    func aCardMovedByAnotherClientWaitsForBothBooksWhenTheySyncOneAtATime(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        let linked = try Linked(fixture)

        // The book it left alone: its card is gone there, but it may be in Work: she is kept,
        // and the status says why.
        try Self.otherClientMoves(fixture, linked.ada.uid, from: "personal", to: "work")
        let left = try linked.sync("Personal")
        #expect(left.map(\.book) == ["Personal"] && left[0].report?.deleted == 0, "\(left)")
        try linked.expectAda(in: linked.personal, "Personal synced alone")
        let waiting = try linked.held(in: "Personal")
        #expect(waiting.count == 1 && waiting.allSatisfy { $0.reason.contains("Ada Lovelace") && $0.reason.contains("Work") }, "\(waiting)")
        // Then Work alone: the card is there, and she follows it.
        let arrived = try linked.sync("Work")
        #expect(arrived.first { $0.book == "Work" }?.report?.moved.map(\.name) == ["Ada Lovelace"], "\(arrived)")
        try linked.expectAda(in: linked.work, "Work synced after Personal")
        try linked.expectSettled(fixture, "after the move to Work, one book at a time")

        // The other way round: the book it goes to first, then the one it left, then both.
        try Self.otherClientMoves(fixture, linked.ada.uid, from: "work", to: "personal")
        try linked.sync("Personal")
        try linked.expectAda(in: linked.work, "Personal synced alone, before Work")
        try linked.sync("Work")
        try linked.expectAda(in: linked.work, "Work synced alone, after Personal")
        try linked.sync()
        try linked.expectAda(in: linked.personal, "both synced")
        try linked.expectSettled(fixture, "after the move back, one book at a time")
    }

    @Test func onAServerWithoutTokensACardGoneIsHeldFromWhenItWasFirstSeenGone() throws {
        let fixture = try SyncFixture(.radicale)
        defer { fixture.server.stop() }
        // Every sync compares every ETag, and finds the card gone again each time.
        let linked = try Linked(fixture, transport: NoSyncCollectionTransport())
        try Self.otherClientMoves(fixture, linked.ada.uid, from: "personal", to: "work")
        try linked.sync("Personal")
        let first = try linked.held(in: "Personal")
        #expect(first.count == 1)
        try linked.sync("Personal")
        #expect(try linked.held(in: "Personal").map(\.firstSeen) == first.map(\.firstSeen) && first.first?.firstSeen != nil)
        try linked.expectAda(in: linked.personal, "Personal synced twice alone")
        try linked.sync("Work")
        try linked.expectAda(in: linked.work, "then Work")
        try linked.expectSettled(fixture, "after the move, without tokens")
    }

    @Test(arguments: ServerKind.allCases)
    func aCardDeletedByAnotherClientIsStillDeletedOnceTheOtherBooksHaveSynced(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        let linked = try Linked(fixture)
        let storage = linked.mine.storage

        // Deleted for good, one sync of every book: gone here too.
        try Self.otherClientDeletes(fixture, linked.grace.uid, from: "work")
        let outcomes = try linked.sync()
        #expect(outcomes.first { $0.book == "Work" }?.report?.deleted == 1, "\(outcomes)")
        #expect(try storage.contact(uid: linked.grace.uid) == nil)
        #expect(try storage.contact(id: linked.ada.id).bookID == linked.personal.id)
        try linked.expectSettled(fixture, "after Grace's deletion")

        // One book at a time: kept until the other book has synced and shown it is not there.
        try Self.otherClientDeletes(fixture, linked.ada.uid, from: "personal")
        try linked.sync("Personal")
        #expect(try storage.contact(uid: linked.ada.uid)?.id == linked.ada.id)
        let after = try linked.sync("Work")
        #expect(after.first { $0.book == "Personal" }?.report?.deleted == 1, "\(after)")
        #expect(try storage.contact(uid: linked.ada.uid) == nil)
        #expect(try storage.allContacts().isEmpty)
        try linked.expectSettled(fixture, "after Ada's deletion")
        #expect(BookSyncTests.uids(fixture, "personal") == [] && BookSyncTests.uids(fixture, "work") == [])
    }

    @Test(arguments: ServerKind.allCases)
    func anEditMadeHereWhileItsCardWasGoneIsNotLost(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        let linked = try Linked(fixture)
        let storage = linked.mine.storage

        // Moved there, edited here between the two books' syncs: the move and the edit both hold.
        try Self.otherClientMoves(fixture, linked.ada.uid, from: "personal", to: "work")
        try linked.sync("Personal")
        try linked.mine.edit("Ada Lovelace") { $0.note = "Analytical Engine" }
        try linked.sync("Work")
        let moved = try storage.contact(id: linked.ada.id)
        #expect(moved.bookID == linked.work.id && moved.draft.note == "Analytical Engine")
        let card = try #require(fixture.server.storedCard(
            user: SyncFixture.user, collection: "work", name: try Self.cardName(fixture, linked.ada.uid, in: "work")))
        #expect(card.contains("Analytical Engine"))
        try linked.expectSettled(fixture, "after the edited move")

        // Deleted there, edited here while its card was gone: the edit wins, and goes up again.
        try Self.otherClientDeletes(fixture, linked.ada.uid, from: "work")
        try linked.sync("Work")
        try linked.mine.edit("Ada Lovelace") { $0.note = "Notes on the Engine" }
        try linked.sync()
        #expect(try storage.contact(id: linked.ada.id).draft.note == "Notes on the Engine")
        #expect(BookSyncTests.uids(fixture, "work") == [linked.ada.uid, linked.grace.uid].sorted())
        try linked.expectSettled(fixture, "after the edit that won over a deletion")
    }

    /// A card another client copied (not moved) into another linked collection, a person's and
    /// a group's: once the book it came from has shown it still has its card, the copy is a
    /// contact of its own, as `carnet copy` makes one: a UID of its own, sent over the copy.
    @Test(arguments: ServerKind.allCases)
    func aCardCopiedByAnotherClientBecomesAContactOfItsOwn(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        let linked = try Linked(fixture)
        let storage = linked.mine.storage
        var friends = ContactDraft(name: "Friends")
        friends.kind = .group
        friends.members = [linked.ada.uid]
        let group = try storage.insertContact(friends, bookID: linked.personal.id)
        try linked.sync()

        // One book at a time, the book it went to first: it waits once, named for what it is.
        try Self.otherClientCopies(fixture, linked.ada.uid, from: "personal", to: "work")
        try Self.otherClientCopies(fixture, group.uid, from: "personal", to: "work")
        try linked.sync("Work")
        let waiting = try linked.held(in: "Work")
        #expect(waiting.count == 2, "\(waiting)")
        #expect(waiting.contains { $0.reason.contains("a group's") } && waiting.contains { $0.reason.contains("a contact's") }, "\(waiting)")
        try linked.sync("Personal")
        // Personal has synced and kept both: copies, which the file check names until taken.
        let named = try storage.integrityCheck().filter { $0.contains("another client copied it") }
        #expect(named.count == 2 && named.contains { $0.contains("Friends") }, "\(named)")
        let taken = try linked.sync("Work")
        #expect(taken.first { $0.book == "Work" }?.report?.added == 2, "\(taken)")
        #expect(try linked.held(in: "Work").isEmpty)
        #expect(try storage.integrityCheck() == ["ok"])

        // The originals stay in Personal as they were; the copies are Work's, with UIDs of their own.
        #expect(try storage.contact(id: linked.ada.id).bookID == linked.personal.id)
        #expect(try storage.contact(id: group.id).bookID == linked.personal.id)
        let inWork = try storage.allContacts().filter { $0.bookID == linked.work.id } + storage.groups().filter { $0.bookID == linked.work.id }
        let adaCopy = try #require(inWork.first { $0.name == "Ada Lovelace" })
        let groupCopy = try #require(inWork.first { $0.name == "Friends" })
        #expect(adaCopy.id != linked.ada.id && adaCopy.uid != linked.ada.uid && adaCopy.phone == linked.ada.phone)
        #expect(groupCopy.uid != group.uid && groupCopy.draft.kind == .group && groupCopy.draft.members == [linked.ada.uid])
        #expect(BookSyncTests.uids(fixture, "work") == [adaCopy.uid, groupCopy.uid, linked.grace.uid].sorted())
        #expect(BookSyncTests.uids(fixture, "personal") == [linked.ada.uid, group.uid].sorted())
        try linked.expectSettled(fixture, "after the copies, one book at a time")

        // Every book in one sync: the copy is its own contact in that run.
        try Self.otherClientCopies(fixture, linked.grace.uid, from: "work", to: "personal")
        let outcomes = try linked.sync()
        #expect(outcomes.first { $0.book == "Personal" }?.report?.added == 1, "\(outcomes)")
        #expect(try storage.contact(id: linked.grace.id).bookID == linked.work.id)
        let graceCopy = try #require(try storage.allContacts().first { $0.name == "Grace Hopper" && $0.bookID == linked.personal.id })
        #expect(graceCopy.uid != linked.grace.uid)
        #expect(BookSyncTests.uids(fixture, "personal") == [linked.ada.uid, graceCopy.uid, group.uid].sorted())
        try linked.expectSettled(fixture, "after the copy in one sync")
    }
}
