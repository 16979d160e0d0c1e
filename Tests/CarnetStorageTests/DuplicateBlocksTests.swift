import CarnetModels
import Foundation
import GRDB
import SeededRandom
import TestNeeds
import Testing
@testable import CarnetStorage

/// The finder that sorts a book's block keys on disk gives the groups the finder that holds every
/// contact in memory gives: the same contacts, the same reasons, in the same order.
@Suite struct DuplicateBlocksTests {
    let dir = TempDirectory()

    func shape(_ search: DuplicateSearch) -> [String] {
        search.groups.map { group in "\(group.contactIDs): " + group.reasons.map { "\($0) \($0.contactIDs)" }.joined(separator: "; ") }
    }

    @Test(arguments: seeds([1, 2, 3] as [UInt64]))
    func theBookSortedOnDiskGivesWhatMemoryGives(seed: UInt64) throws {
        let storage = try StorageController(path: dir.database)
        try storage.setPhoneRegion("GB")
        var rng = SplitMix64(seed: seed)
        let first = ["Ada", "Grace", "Alan", "Katherine", "Jon", "John", "A."], last = ["Lovelace", "Hopper", "Turing", "Johnson", "King"]
        let domains = ["example.com", "example.org", "mail.example"]
        let other = try storage.addAddressBook(named: "Work")
        var drafts: [ContactDraft] = []
        for i in 0..<600 {
            var draft = ContactDraft(name: "\(first[Int.random(in: 0..<first.count, using: &rng)]) \(last[Int.random(in: 0..<last.count, using: &rng)])")
            if Bool.random(using: &rng) { draft.emails = [LabeledValue("p\(Int.random(in: 0..<60, using: &rng))@\(domains[i % 3])")] }
            if Int.random(in: 0..<3, using: &rng) == 0 {
                // Written with and without the country code: one number in GB.
                let number = "20 7946 00\(Int.random(in: 10..<60, using: &rng))"
                draft.phones = [LabeledValue(Bool.random(using: &rng) ? "+44 " + number : "0" + number)]
            }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                draft.addresses = [PostalAddress(street: "\(Int.random(in: 1..<9, using: &rng)) Main St", locality: "Springfield")]
            }
            drafts.append(draft)
        }
        // A switchboard's number, on more cards than a shared key may be.
        for i in 0..<20 { drafts[i * 7].phones.append(LabeledValue("+44 20 7946 0999")) }
        for (i, draft) in drafts.enumerated() {
            _ = try storage.insertContact(draft, uid: "card-\(i)", bookID: i % 5 == 0 ? other.id : AddressBook.defaultID)
        }
        var group = ContactDraft(name: "Ada Lovelace")
        group.kind = .group
        _ = try storage.insertContact(group, uid: "a-group")
        let all = try storage.duplicates()
        #expect(all.groups.count > 20, "the book should hold duplicates to compare")
        let pair = try #require(all.groups.first?.contactIDs)
        try storage.markDifferentPeople(pair[0], pair[1])

        let phones = PhoneNormalForm(region: "GB")
        let different = try storage.writer.read { db in try StorageController.differentPeople(db) }
        for scope in [DuplicateScope(), DuplicateScope(bookID: other.id), DuplicateScope(involving: IDRanges(Int64(500)...Int64(600)))] {
            let onDisk = try storage.duplicates(scope: scope)
            let inMemory = try storage.writer.read { db in
                DuplicateFinder.find(
                    try StorageController.duplicateCandidates(db, scope: DuplicateScope(bookID: scope.bookID)), differentPeople: different,
                    involving: scope.involving, phones: phones)
            }
            let (a, b) = (shape(onDisk), shape(inMemory))
            let first = a.indices.first { $0 >= b.count || a[$0] != b[$0] }
            #expect(a == b, "\(scope): \(a.count) and \(b.count) groups; first difference: \(first.map { "\(a[$0]) / \(b[$0])" } ?? "none")")
            #expect(onDisk.contacts == inMemory.contacts)
            #expect(onDisk.names == inMemory.names)
            // Keys sorted in many short runs, merged back from the disk, give the same.
            let spilled = try storage.writer.read { db in
                try DuplicateBlocks.find(db, scope: scope, differentPeople: different, phones: phones, runLength: 50)
            }
            #expect(shape(spilled) == a)
            #expect(spilled.names == onDisk.names)
        }
    }
}
