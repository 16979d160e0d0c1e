import CarnetModels
import Foundation
import Testing

/// Finding contacts that are one person, and merging their drafts.
@Suite struct DuplicatesTests {
    /// The region of the file the contacts are in.
    let phones = PhoneNormalForm(region: "GB")

    func find(_ candidates: [DuplicateCandidate], different: Set<ContactPair> = [], region: String = "GB") -> DuplicateSearch {
        DuplicateFinder.find(candidates, differentPeople: different, phones: PhoneNormalForm(region: region))
    }

    @Test func theSameEmailIgnoringCaseIsOnePerson() {
        let search = find([
            DuplicateCandidate(id: 1, name: "Ada Lovelace", emails: ["Ada@Example.com"]),
            DuplicateCandidate(id: 2, name: "Countess of Lovelace", emails: ["ada@example.COM"]),
            DuplicateCandidate(id: 3, name: "Grace Hopper", emails: ["grace@example.com"]),
        ])
        #expect(search.groups.map(\.contactIDs) == [[1, 2]])
        #expect(search.groups[0].reasons.map(\.description) == ["same email ada@example.com"])
    }

    @Test func aNationalNumberMatchesItsInternationalFormInTheFilesRegion() {
        let us = PhoneNormalForm(region: "US"), none = PhoneNormalForm(region: nil)
        #expect(DuplicateKeys.phone("+44 20 7946 0000", phones) == DuplicateKeys.phone("020 7946 0000", phones))
        #expect(DuplicateKeys.phone("0044 20 7946 0000", phones) == DuplicateKeys.phone("(020) 7946-0000", phones))
        #expect(DuplicateKeys.phone("+1 212 555 0100", us) == DuplicateKeys.phone("212-555-0100", us))
        #expect(DuplicateKeys.phone("+1 212 555 0100", phones) != DuplicateKeys.phone("212-555-0100", phones))
        #expect(DuplicateKeys.phone("+44 20 7946 0000", phones) != DuplicateKeys.phone("+44 20 7946 0001", phones))
        #expect(DuplicateKeys.phone("112", phones) == nil)
        // Where the region is unknown, a national number meets only the same digits, never a
        // number with its country code.
        #expect(DuplicateKeys.phone("+44 20 7946 0000", none) != DuplicateKeys.phone("020 7946 0000", none))
        #expect(DuplicateKeys.phone("020 7946 0000", none) == DuplicateKeys.phone("(020) 7946-0000", none))
        let search = find([
            DuplicateCandidate(id: 1, name: "A", phones: ["+44 20 7946 0000"]),
            DuplicateCandidate(id: 2, name: "B", phones: ["020 7946 0000"]),
        ])
        #expect(search.groups.map(\.contactIDs) == [[1, 2]])
        #expect(search.groups[0].reasons.map(\.kind) == [.phone])
    }

    @Test func theSameNameSetsAsideCaseAccentsPunctuationAndWordOrder() {
        let search = find([
            DuplicateCandidate(id: 1, name: "Lovelace, Ada"),
            DuplicateCandidate(id: 2, name: "ada lovelace"),
            DuplicateCandidate(id: 3, name: "Ada LOVELACE"),
            DuplicateCandidate(id: 4, name: "Élodie Durand"),
            DuplicateCandidate(id: 5, name: "durand elodie"),
            DuplicateCandidate(id: 6, name: "Ada Byron"),
        ])
        #expect(search.groups.map(\.contactIDs) == [[1, 2, 3], [4, 5]])
        #expect(search.groups[0].reasons.map(\.description) == ["same name “ada lovelace”"])
    }

    @Test func aNearNameCountsOnlyWithSomethingShared() {
        let shared = find([
            DuplicateCandidate(id: 1, name: "Ada Lovelace", emails: ["ada@analytical.org"]),
            DuplicateCandidate(id: 2, name: "A. Lovelace", emails: ["countess@analytical.org"]),
            DuplicateCandidate(id: 3, name: "Jon Smith", addresses: ["12 Main St, Springfield"]),
            DuplicateCandidate(id: 4, name: "John Smith", addresses: ["12 Main St., springfield"]),
        ])
        #expect(shared.groups.map(\.contactIDs) == [[1, 2], [3, 4]])
        #expect(shared.groups[0].reasons.map(\.description) == ["near names, both at analytical.org"])
        #expect(shared.groups[1].reasons.map(\.description) == ["near names, sharing an address"])
        let apart = find([
            DuplicateCandidate(id: 1, name: "Ada Lovelace", emails: ["ada@analytical.org"]),
            DuplicateCandidate(id: 2, name: "A. Lovelace", emails: ["countess@elsewhere.org"]),
            DuplicateCandidate(id: 3, name: "Ada Byron", emails: ["byron@analytical.org"]),
        ])
        #expect(apart.groups.isEmpty)
    }

    @Test func strongestFirst() {
        let search = find([
            DuplicateCandidate(id: 1, name: "Jon Smith", emails: ["jon@a.org"]),
            DuplicateCandidate(id: 2, name: "John Smith", emails: ["john@a.org"]),
            DuplicateCandidate(id: 3, name: "Grace Hopper"),
            DuplicateCandidate(id: 4, name: "hopper grace"),
            DuplicateCandidate(id: 5, name: "X", phones: ["555 0100 200"]),
            DuplicateCandidate(id: 6, name: "Y", phones: ["5550100200"]),
            DuplicateCandidate(id: 7, name: "P", emails: ["p@q.org"]),
            DuplicateCandidate(id: 8, name: "Q", emails: ["P@Q.org"]),
        ])
        #expect(search.groups.map(\.contactIDs) == [[7, 8], [5, 6], [3, 4], [1, 2]])
    }

    @Test func contactsSaidToBeDifferentPeopleAreNeverProposedTogether() {
        let candidates = [
            DuplicateCandidate(id: 1, name: "John Smith", phones: ["+1 212 555 0100"]),
            DuplicateCandidate(id: 2, name: "John Smith", phones: ["212 555 0100"]),
            DuplicateCandidate(id: 3, name: "J. Smith", emails: ["john@smith.org"], phones: ["212 555 0100"]),
        ]
        #expect(find(candidates, region: "US").groups.map(\.contactIDs) == [[1, 2, 3]])
        let apart = find(candidates, different: [ContactPair(2, 1)], region: "US")
        for group in apart.groups { #expect(!(group.contactIDs.contains(1) && group.contactIDs.contains(2))) }
        #expect(apart.groups.map(\.contactIDs) == [[1, 3]])
        #expect(find(candidates, different: [ContactPair(1, 2), ContactPair(1, 3), ContactPair(2, 3)], region: "US").groups.isEmpty)
    }

    @Test func blocksCompareFarFewerPairsThanEveryPair() {
        var candidates: [DuplicateCandidate] = []
        for i in 0..<2_000 {
            candidates.append(DuplicateCandidate(
                id: Int64(i + 1), name: "Person\(i) Family\(i % 50)", emails: ["p\(i)@host\(i).example"],
                phones: ["+44 20 7946 \(String(format: "%04d", i))"]))
        }
        candidates.append(DuplicateCandidate(id: 5_000, name: "Person7 Family7", emails: ["P7@HOST7.example"]))
        let search = find(candidates)
        #expect(search.groups.map(\.contactIDs) == [[8, 5_000]])
        #expect(search.pairsCompared < search.allPairs / 100)
    }

    @Test func aChainOfReasonsLongerThanAKeyMaySpanIsSplitIntoItsReasons() {
        // Each shares a number with the next: fifteen people, not one; fourteen pairs.
        let candidates = (1...15).map { i in
            DuplicateCandidate(id: Int64(i), name: "Person \(i)", phones: ["+44 20 7946 \(1000 + i)", "+44 20 7946 \(1000 + i + 1)"])
        }
        let search = find(candidates)
        #expect(search.groups.count == 14)
        #expect(search.groups.allSatisfy { $0.contactIDs.count == 2 && $0.reasons.map(\.kind) == [.phone] })
        // A number shared by more than twelve is a switchboard, no reason at all.
        let office = (1...13).map { DuplicateCandidate(id: Int64($0), name: "Colleague \($0)", phones: ["+44 20 7946 0000"]) }
        #expect(find(office).groups.isEmpty)
    }

    // MARK: Merging drafts

    @Test func listsAreUnitedWithTypesMergedAndOneValuedFieldsTakeTheFirst() {
        var ada = ContactDraft(name: "Ada Lovelace")
        ada.emails = [LabeledValue("ada@example.com", label: "work", preferred: true)]
        ada.phones = [LabeledValue("+44 20 7946 0000", label: "cell")]
        ada.title = "Analyst"
        ada.categories = ["Friends"]
        ada.extras = ["X-ABUID:1"]
        var other = ContactDraft(name: "Lovelace, Ada")
        other.emails = [LabeledValue("ADA@example.com", label: "home", preferred: true), LabeledValue("countess@example.org", label: "", preferred: false)]
        other.phones = [LabeledValue("+44 20 7946 0000", label: "voice")]
        other.title = "Countess"
        other.organization = "Analytical Engines"
        other.note = "Met in 1833"
        other.categories = ["friends", "Mathematics"]
        other.extras = ["X-ABUID:2"]
        let (merged, questions) = ContactMerge.merge([ada, other], phones: PhoneNormalForm(region: nil))
        #expect(merged.name == "Ada Lovelace")
        #expect(merged.emails == [
            LabeledValue("ada@example.com", label: "work,home", preferred: true), LabeledValue("countess@example.org", label: "", preferred: false),
        ])
        #expect(merged.phones == [LabeledValue("+44 20 7946 0000", label: "cell,voice")])
        #expect(merged.title == "Analyst")
        #expect(merged.organization == "Analytical Engines")
        #expect(merged.note == "Met in 1833")
        #expect(merged.categories == ["Friends", "Mathematics"])
        #expect(merged.extras == ["X-ABUID:1", "X-ABUID:2"])
        #expect(questions.map(\.field) == [.name, .title])
        #expect(questions[1].choices.map(\.value) == ["Analyst", "Countess"])
        #expect(questions.allSatisfy { $0.chosen == 0 })
        let taken = ContactMerge.merge([ada, other], taking: [.field(.title): 1, .field(.note): 1], phones: PhoneNormalForm(region: nil))
        #expect(taken.draft.title == "Countess")
        #expect(taken.questions.first { $0.field == .title }?.chosen == 1)
        #expect(taken.draft.issues().isEmpty)
    }

    /// A name taken from another contact brings its structured parts along, unless a part is
    /// taken on its own, so the merged contact is filed under the name it shows.
    @Test func aTakenNameBringsItsParts() {
        var madison = ContactDraft(name: "Madison Thompson")
        madison.nameParts = PersonName(given: "Madison", family: "Thompson")
        var tyler = ContactDraft(name: "Tyler Porter")
        tyler.nameParts = PersonName(given: "Tyler", family: "Porter")
        let taken = ContactMerge.merge([madison, tyler], taking: [.field(.name): 1], phones: PhoneNormalForm(region: nil)).draft
        #expect(taken.name == "Tyler Porter" && taken.nameParts.given == "Tyler" && taken.nameParts.family == "Porter")
        let mixed = ContactMerge.merge([madison, tyler], taking: [.field(.name): 1, .field(.family): 0], phones: PhoneNormalForm(region: nil)).draft
        #expect(mixed.nameParts.given == "Tyler" && mixed.nameParts.family == "Thompson")
    }

    /// The hashes a whole book's pass sorts are those of the very keys the finder in memory
    /// blocks by: each key once, whatever the name's script, repeated words or shared domains.
    @Test func blockHashesAreTheHashesOfTheBlockKeys() {
        let candidates = [
            DuplicateCandidate(id: 1, name: "Ada Lovelace", given: "Ada", family: "Lovelace", emails: ["Ada@Example.com", " ada@example.com ", "a@example.com"]),
            DuplicateCandidate(id: 2, name: "Ada Ada  King-Lovelace", phones: ["+44 20 7946 0000", "020 7946 0000", "112", "555 0100 22"]),
            DuplicateCandidate(id: 3, name: "Zoë Ångström", given: "Zoë", family: "Ångström", emails: ["zoë@exämple.org"], addresses: ["1 Main St, Springfield"]),
            DuplicateCandidate(id: 4, name: "李 小龍", phones: ["+81 3 1234 5678"], addresses: ["東京都", "  "]),
            DuplicateCandidate(id: 5, name: "—", emails: ["x@"], phones: ["+1 212 555 0100"]),
            DuplicateCandidate(id: 6, name: "A. B. Lovelace", given: "A.", family: "", emails: ["ab@example.com"], addresses: ["2 Main St"]),
            DuplicateCandidate(id: 7, name: "Grace Hopper"),
            DuplicateCandidate(id: 8, name: "Lovelace, Ada", given: "Ada", family: "Lovelace"),
            DuplicateCandidate(id: 9, name: "Countess of Lovelace", given: "Augusta Ada", family: "King", emails: ["ada@example.com"]),
            DuplicateCandidate(id: 10, name: "Ada Lovelace", given: "Ada", family: "Lovelace "),
        ]
        var hashes: [Int64] = []
        for candidate in candidates {
            let keys = DuplicateFinder.blockKeys(candidate, phones: phones)
            let expected = Set(keys.exact.map { DuplicateFinder.blockHash($0, near: false) })
                .union(keys.near.map { DuplicateFinder.blockHash($0, near: true) }).sorted()
            DuplicateFinder.blockHashes(candidate, phones: phones, into: &hashes)
            #expect(hashes == expected, "\(candidate.name)")
            #expect(expected.count == keys.exact.count + keys.near.count, "\(candidate.name): no two keys share a hash")
        }
    }

    /// An email's domain is what follows its last "@", in any script.
    @Test func theDomainFollowsTheLastAt() {
        #expect(DuplicateKeys.domain("ada@example.com") == "example.com")
        #expect(DuplicateKeys.domain("\"a@b\"@mail.example") == "mail.example")
        #expect(DuplicateKeys.domain("zoë@exämple.org") == "exämple.org")
        #expect(DuplicateKeys.domain("ada@") == nil)
        #expect(DuplicateKeys.domain("ada") == nil)
        #expect(DuplicateKeys.domain("") == nil)
    }
}
