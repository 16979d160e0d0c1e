@testable import CarnetModels
import Testing

/// Expertise, hobbies and interests (RFC 6715) are lists described by their entries alone: the
/// level is the entry's label, read and normalized through the entry's kind, and the lists merge
/// entry by entry in a sync's three-way merge and a duplicates merge like every other list.
@Suite struct LevelledListTests {
    static let levelled: [Field] = [.expertise, .hobby, .interest]

    @Test func aLevelIsTheEntrysLabelAndAKnownOneIsWrittenInLowerCase() throws {
        var draft = ContactDraft(name: "Ada")
        let expertise = try #require(ContactFields.spec(.expertise)?.list)
        #expect(expertise.add(&draft, "Expert:Swift") == nil)
        #expect(expertise.add(&draft, "pref:Rust") == nil)
        #expect(expertise.add(&draft, "Self-taught:knitting") == nil)
        draft = draft.normalized()
        #expect(draft.expertise == [
            LabeledValue("Swift", label: "expert"), LabeledValue("Rust", preferred: true), LabeledValue("knitting", label: "Self-taught"),
        ])
        #expect(expertise.entries(draft) == ["expert:Swift", "pref:Rust", "Self-taught:knitting"])
        let hobbies = try #require(ContactFields.spec(.hobby)?.list)
        #expect(hobbies.add(&draft, "HIGH:sailing") == nil)
        #expect(draft.normalized().hobbies == [LabeledValue("sailing", label: "high")])
        // A value too long is named with its field.
        var long = ContactDraft(name: "Ada")
        long.interests = [LabeledValue(String(repeating: "x", count: 201))]
        #expect(long.issues().map(\.field) == [.interest])
    }

    @Test func bothSidesAddingEntriesIsNoClashAndALevelChangedOnOneSideIsTaken() {
        for field in Self.levelled {
            guard let keyPath = ContactFields.spec(field)?.labeledValues else {
                Issue.record("\(field) is not a list of labelled values")
                continue
            }
            var base = ContactDraft(name: "Ada")
            base[keyPath: keyPath] = [LabeledValue("one", label: "low"), LabeledValue("two")]
            var theirs = base
            theirs[keyPath: keyPath][0].label = "high"
            theirs[keyPath: keyPath].append(LabeledValue("three"))
            var mine = base
            mine[keyPath: keyPath].remove(at: 1)
            mine[keyPath: keyPath].append(LabeledValue("four", label: "medium"))
            let merge = DraftMerge.merge(base: base, theirs: theirs, mine: mine, phones: PhoneNormalForm(region: nil))
            #expect(merge.clashes.isEmpty, "\(field)")
            #expect(merge.draft[keyPath: keyPath] == [
                LabeledValue("one", label: "high"), LabeledValue("four", label: "medium"), LabeledValue("three"),
            ], "\(field)")
            // Both changing one entry's level differently is a clash, mine kept.
            var other = base
            other[keyPath: keyPath][0].label = "medium"
            let clash = DraftMerge.merge(base: base, theirs: theirs, mine: other, phones: PhoneNormalForm(region: nil))
            #expect(clash.clashes == [field] && clash.draft[keyPath: keyPath][0].label == "medium", "\(field)")
        }
    }

    @Test func mergingDuplicatesKeepsEveryEntryOnce() {
        var ada = ContactDraft(name: "Ada Lovelace")
        ada.expertise = [LabeledValue("mathematics", label: "expert")]
        ada.hobbies = [LabeledValue("riding")]
        var other = ContactDraft(name: "Ada Lovelace")
        other.expertise = [LabeledValue("Mathematics"), LabeledValue("poetry")]
        other.interests = [LabeledValue("looms", label: "high")]
        let merged = ContactMerge.merge([ada, other], phones: PhoneNormalForm(region: nil)).draft
        #expect(merged.expertise.map(\.value) == ["mathematics", "poetry"])
        #expect(merged.hobbies == [LabeledValue("riding")])
        #expect(merged.interests == [LabeledValue("looms", label: "high")])
    }
}
