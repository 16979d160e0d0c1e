import CarnetInterchange
import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// Carnet sharing one address book with other clients (curl here, as vdirsyncer, DAVx5 or a
/// phone would write): a card moved to another href, lists both sides added to, and a sync
/// that fails after it began to send.
@Suite(.needs("radicale", "xandikos", "python3", "vdirsyncer", "khard")) struct SyncAmongClientsTests {
    // MARK: A number another client reformats

    /// A phone rewrites the numbers it syncs its own way (`555 0100` as `+1 555-0100`): in a file
    /// whose phone region is US that is the same entry, so a number deleted here meanwhile stays
    /// deleted, with no clash, and the other number keeps its place.
    @Test(arguments: ServerKind.allCases)
    func aNumberAnotherClientReformatsIsTheSameEntry(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a")
        try a.storage.setPhoneRegion("US")
        try a.add("Ray Reformat", phone: "555 0100")
        try a.edit("Ray Reformat") { $0.phones.append(LabeledValue("555 0111", label: "home")) }
        try a.sync()
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let (href, card) = try #require(try fixture.serverCards().first)
        let url = try #require(URL(string: href, relativeTo: fixture.server.url)).absoluteURL
        let reformatted = card.replacingOccurrences(of: ":555 0100\r\n", with: ":+1 555-0100\r\n")
        try #require(reformatted != card, "\(card)")
        #expect(try raw.send("PUT", url, headers: ["Content-Type": "text/vcard"], body: reformatted).isSuccess)
        try a.edit("Ray Reformat") { $0.phones.removeAll { $0.value == "555 0100" } }

        let report = try a.sync()
        #expect(report.clashes.isEmpty, "\(report)")
        #expect(try a.contact(named: "Ray Reformat").phones.map(\.value) == ["555 0111"])
        let sent = try #require(try fixture.serverCards().values.first)
        #expect(!sent.contains("0100") && sent.contains("555 0111"), "\(sent)")
        #expect(try a.sync().changedNothing)
    }

    // MARK: A card another client moves

    /// vdirsyncer after a local rename, DAVx5 and others delete a card and PUT it again under
    /// another name with the same UID: the contact stays, linked to the new href, and an edit
    /// made there at the same time arrives as any edit does.
    @Test(arguments: ServerKind.allCases)
    func aCardAnotherClientMovesStaysTheSameContact(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a")
        let original = try a.add("Moved Card", phone: "555 0100")
        try a.sync()
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let (oldHref, card) = try #require(try fixture.serverCards().first)
        let old = try #require(URL(string: oldHref, relativeTo: fixture.server.url)).absoluteURL
        #expect(try raw.send("DELETE", old).isSuccess)
        let moved = card.replacingOccurrences(of: "END:VCARD", with: "TITLE:Moved there\r\nEND:VCARD")
        let newPlace = fixture.collectionURL.appendingPathComponent("new-place.vcf")
        #expect(try raw.send("PUT", newPlace, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: moved).status == 201)
        // Changed here meanwhile too: both edits meet.
        try a.edit("Moved Card") { $0.note = "changed here" }

        let report = try a.sync()
        #expect(report.deleted == 0 && report.added == 0 && report.skipped.isEmpty, "\(report)")
        let contact = try a.contact(named: "Moved Card")
        #expect(contact.id == original.id && contact.title == "Moved there" && contact.note == "changed here")
        #expect(try a.storage.syncStatus()?.linked == 1)
        #expect(try a.sync().changedNothing)
        let cards = try fixture.serverCards()
        #expect(Array(cards.keys) == [fixture.collectionHref + "new-place.vcf"])
        #expect(cards.values.first?.contains("NOTE:changed here") == true)
        // A second file sees one contact, with both edits.
        let b = try fixture.book("b")
        #expect(try b.sync().added == 1)
        #expect(try b.byUID() == a.byUID())
    }

    /// The move happens between this side's listing and its upload: the PUT over the old href
    /// fails (404 or 412 for a card that is gone); the sync catches up with the server, finds
    /// the card's new place by its UID and sends the edit there, never a second card of one UID.
    @Test(arguments: ServerKind.allCases)
    func aCardMovedWhileThisSideUploadsIsFoundByItsUID(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a")
        try a.add("Racing Card", phone: "555 0101")
        try a.sync()
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let (oldHref, card) = try #require(try fixture.serverCards().first)
        let old = try #require(URL(string: oldHref, relativeTo: fixture.server.url)).absoluteURL
        let newPlace = fixture.collectionURL.appendingPathComponent("renamed.vcf")
        let transport = BeforePutTransport {
            _ = try raw.send("DELETE", old)
            _ = try raw.send("PUT", newPlace, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: card)
        }
        try a.edit("Racing Card") { $0.title = "Edited here" }
        let report = try fixture.reopen(a, transport: transport).sync()
        #expect(report.uploaded == 1 && report.deleted == 0 && report.skipped.isEmpty, "\(report)")
        let cards = try fixture.serverCards()
        #expect(Array(cards.keys) == [fixture.collectionHref + "renamed.vcf"])
        #expect(cards.values.first?.contains("TITLE:Edited here") == true)
        #expect(try a.contacts().count == 1)
        #expect(try a.sync().changedNothing)
    }

    /// Another client creates a card with the UID of a contact this side is about to send for
    /// the first time: the server refuses a second card of that UID (or, where it would take
    /// one, the sync finds it first); the two are merged into the one card.
    @Test(arguments: ServerKind.allCases)
    func aNewContactWhoseUIDAppearsThereMeanwhileIsMergedNotDoubled(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a")
        let contact = try a.add("Same Person", phone: "555 0102")
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let theirs = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(contact.uid)\r\nFN:Same Person\r\nN:Person;Same;;;\r\nEMAIL:same@example.org\r\nEND:VCARD\r\n"
        let elsewhere = fixture.collectionURL.appendingPathComponent("from-phone.vcf")
        let transport = BeforePutTransport(newCard: true) {
            _ = try raw.send("PUT", elsewhere, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: theirs)
        }
        let report = try fixture.reopen(a, transport: transport).sync()
        #expect(report.skipped.isEmpty, "\(report)")
        let cards = try fixture.serverCards()
        #expect(Array(cards.keys) == [fixture.collectionHref + "from-phone.vcf"])
        let merged = try a.contact(named: "Same Person")
        #expect(merged.emails.map(\.value) == ["same@example.org"] && merged.phones.map(\.value) == ["555 0102"])
        #expect(cards.values.first?.contains("555 0102") == true)
        #expect(try a.sync().changedNothing)
    }

    /// A contact whose card another client made (under a name of its own) is deleted here, then
    /// brought back by an undo before the deletion is sent: the next sync links it to that card
    /// again rather than sending a second card of its UID.
    @Test(arguments: ServerKind.allCases)
    func anUndoneDeletionRelinksToItsCardThere(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a")
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:phone-7\r\nFN:Undone\r\nN:;Undone;;;\r\nTEL:555 0103\r\nEND:VCARD\r\n"
        let href = fixture.collectionURL.appendingPathComponent("from-phone.vcf")
        #expect(try raw.send("PUT", href, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: card).status == 201)
        #expect(try a.sync().added == 1)
        try a.storage.deleteContact(try a.contact(named: "Undone"))
        try a.storage.undo()
        try a.edit("Undone") { $0.title = "Back" }
        let report = try a.sync()
        #expect(report.skipped.isEmpty && report.deletedRemotely == 0, "\(report)")
        let cards = try fixture.serverCards()
        #expect(Array(cards.keys) == [fixture.collectionHref + "from-phone.vcf"])
        #expect(cards.values.first?.contains("TITLE:Back") == true)
        #expect(try a.contacts().map(\.name) == ["Undone"])
        #expect(try a.sync().changedNothing)
    }

    // MARK: A sync that fails after it began to send

    /// Both sides change Ada's note; the sync merges (this file's value wins), sends the merged
    /// card, and a later request fails: answered 500, dropped before the server saw it, or done
    /// by the server and dropped before its answer came back. The value the merge overrode is
    /// in this file all the same, the message says what was done, and a rerun converges.
    @Test(arguments: ServerKind.allCases, [FaultProxy.Fault.error500, .drop, .lose])
    func aSyncThatFailsAfterSendingAMergeKeepsTheValueItOverrode(_ kind: ServerKind, _ fault: FaultProxy.Fault) throws {
        let fixture = try SyncFixture(kind)
        let proxy = try FaultProxy(upstream: fixture.server.url)
        let b = try fixture.book("b", setUp: false)
        _ = try b.engine.setup(url: proxy.through(fixture.server.url).absoluteString, username: SyncFixture.user, passwordCommand: "")
        try b.add("Ada Lovelace", note: "first")
        try b.add("Charles Babbage")
        try b.sync()
        let a = try fixture.book("a")
        try a.sync()
        try a.edit("Ada Lovelace") { $0.note = "from A" }
        try a.sync()
        try b.edit("Ada Lovelace") { $0.note = "from B" }
        try b.edit("Charles Babbage") { $0.title = "Engineer" }

        // libcurl sends a request again once when its connection dies before any answer: the
        // retry fails the same way.
        try proxy.arm(["PUT 2": fault, "PUT 3": fault])
        let error = carnetError { try b.sync() }
        guard case let .sync(.interrupted(_, done)) = error else { Issue.record("expected a stop partway, got \(String(describing: error))"); return }
        #expect(done == "1 conflict kept (carnet sync status), 1 change sent")
        let kept = try #require(try b.storage.syncStatus()?.recentClashes.first)
        #expect(kept.name == "Ada Lovelace" && kept.fields == [.note] && kept.lostCard.contains("NOTE:from A"))
        #expect(try b.contact(named: "Ada Lovelace").note == "from B")

        try proxy.arm([:])
        let rerun = try b.sync()
        #expect(rerun.skipped.isEmpty, "\(rerun)")
        #expect(try b.storage.syncStatus()?.recentClashes.count == 1)
        try a.sync()
        #expect(try a.byUID() == b.byUID())
        #expect(try a.contact(named: "Charles Babbage").title == "Engineer" && a.contact(named: "Ada Lovelace").note == "from B")
        #expect(try fixture.serverCards().count == 2)
        #expect(try b.sync().changedNothing && a.sync().changedNothing)
    }

    // MARK: Lists merged entry by entry

    /// khard adds one email, Carnet another, to the same contact: both are kept, everywhere.
    @Test(arguments: ServerKind.allCases)
    func entriesAddedOnBothSidesAreAllKept(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a"), b = try fixture.book("b")
        try a.add("Alan Turing")
        try a.edit("Alan Turing") {
            $0.emails = [LabeledValue("alan@work.example", label: "work"), LabeledValue("old@home.example", label: "home")]
        }
        try a.sync()
        try b.sync()
        try a.edit("Alan Turing") { $0.emails.append(LabeledValue("alan@khard.example", label: "home")) }
        try b.edit("Alan Turing") {
            $0.emails.append(LabeledValue("alan@carnet.example", label: "home"))
            $0.emails.removeAll { $0.value == "old@home.example" }
        }
        try a.sync()
        let report = try b.sync()
        #expect(report.clashes.isEmpty, "\(report.clashes)")
        let emails = try b.contact(named: "Alan Turing").emails.map(\.value)
        #expect(emails == ["alan@work.example", "alan@carnet.example", "alan@khard.example"])
        try a.sync()
        #expect(try a.byUID() == b.byUID())
        #expect(try fixture.serverCards().values.first.map { $0.contains("alan@khard.example") && $0.contains("alan@carnet.example") } == true)
    }

    /// One entry changed differently on both sides is the only clash a list has: the other
    /// entries merge, and the losing entry is kept in the conflicts.
    @Test(arguments: ServerKind.allCases)
    func oneEntryChangedOnBothSidesIsAClashOfThatEntryOnly(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a"), b = try fixture.book("b")
        try a.add("Grace Hopper")
        try a.edit("Grace Hopper") {
            $0.phones = [LabeledValue("555 0001", label: "work"), LabeledValue("555 0002", label: "home")]
        }
        try a.sync()
        try b.sync()
        try a.edit("Grace Hopper") {
            $0.phones[0].label = "cell"
            $0.phones.append(LabeledValue("555 0003", label: "fax"))
        }
        try b.edit("Grace Hopper") { $0.phones[0].label = "main" }
        try a.sync()
        let report = try b.sync()
        #expect(report.clashes.map(\.fields) == [[.phone]])
        let phones = try b.contact(named: "Grace Hopper").phones
        #expect(phones.map(\.value) == ["555 0001", "555 0002", "555 0003"])
        #expect(phones.first?.label == "main")
        #expect(report.clashes.first?.lostCard.contains("cell") == true)
    }

    // MARK: The merge as a value

    @Test func listMergeKeepsAdditionsAndRemovalsOfBothSides() {
        var base = ContactDraft(name: "L")
        base.categories = ["a", "b", "c"]
        var theirs = base, mine = base
        theirs.categories = ["a", "c", "t"]  // removed b, added t
        mine.categories = ["x", "a", "b", "c"]  // added x first
        let (merged, clashes) = DraftMerge.merge(base: base, theirs: theirs, mine: mine, phones: PhoneNormalForm(region: nil))
        #expect(clashes.isEmpty)
        #expect(merged.categories == ["x", "a", "c", "t"])
    }

    @Test func anEntryRemovedOnOneSideAndChangedOnTheOtherIsAClash() {
        var base = ContactDraft(name: "L")
        base.emails = [LabeledValue("a@example.org", label: "work"), LabeledValue("b@example.org", label: "home")]
        var theirs = base, mine = base
        theirs.emails.remove(at: 0)
        mine.emails[0].label = "other"
        let (merged, clashes) = DraftMerge.merge(base: base, theirs: theirs, mine: mine, phones: PhoneNormalForm(region: nil))
        #expect(clashes == [.email])
        #expect(merged.emails == mine.emails)
        let (preferTheirs, _) = DraftMerge.merge(base: base, theirs: theirs, mine: mine, preferTheirs: true, phones: PhoneNormalForm(region: nil))
        #expect(preferTheirs.emails == theirs.emails)
    }

    @Test func twoSidesMarkingDifferentEntriesPreferredKeepOnePreferred() {
        var base = ContactDraft(name: "L")
        base.emails = [LabeledValue("a@example.org", label: "work"), LabeledValue("b@example.org", label: "home")]
        var theirs = base, mine = base
        theirs.emails[1].preferred = true
        mine.emails[0].preferred = true
        let (merged, clashes) = DraftMerge.merge(base: base, theirs: theirs, mine: mine, phones: PhoneNormalForm(region: nil))
        #expect(clashes == [.email])
        #expect(merged.emails.filter(\.preferred).map(\.value) == ["a@example.org"])
        #expect(merged.issues().isEmpty)
    }
}

extension SyncFixture {
    var collectionURL: URL { collection }
    /// The collection's canonical href, as ``serverCards()`` keys begin.
    var collectionHref: String { collection.path.hasSuffix("/") ? collection.path : collection.path + "/" }
}

/// The real transport, with another client's change made on the server just before this
/// side's first PUT (a new card's, with `If-None-Match`, when `newCard`).
final class BeforePutTransport: HTTPTransport {
    let inner = CurlTransport()
    let newCard: Bool
    private var meanwhile: (() throws -> Void)?

    init(newCard: Bool = false, _ meanwhile: @escaping () throws -> Void) {
        self.newCard = newCard
        self.meanwhile = meanwhile
    }

    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        if request.method == "PUT", (request.headers["If-None-Match"] != nil) == newCard, let change = meanwhile {
            meanwhile = nil
            do { try change() } catch { throw .sync(.server("the other client's change failed: \(error)")) }
        }
        return try inner.send(request)
    }
}
