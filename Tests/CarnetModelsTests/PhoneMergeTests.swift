import CarnetModels
import Testing

/// One number, one entry: a merge and a sync know a phone number by its E.164 form, and a merge
/// asks about a birthday or an anniversary that differs, as it asks about a title.
@Suite struct PhoneMergeTests {
    func person(_ name: String, phones: [LabeledValue] = [], dates: [ContactDate] = []) -> ContactDraft {
        var draft = ContactDraft(name: name)
        draft.phones = phones
        draft.dates = dates
        return draft
    }

    @Test func aMergeUnitesTwoSpellingsOfOneNumberKeepingTheFullerAndEveryLabel() {
        let a = person("Ada", phones: [LabeledValue("555 0100", label: "work"), LabeledValue("555 0199", label: "home")])
        let b = person("Ada", phones: [LabeledValue("+1 555 0100", label: "cell")])
        let merged = ContactMerge.merge([a, b], phones: PhoneNormalForm(region: "US")).draft
        #expect(merged.phones == [LabeledValue("+1 555 0100", label: "work,cell"), LabeledValue("555 0199", label: "home")])

        let london = ContactMerge.merge(
            [person("G", phones: [LabeledValue("+44 20 7946 0000")]), person("G", phones: [LabeledValue("020 7946 0000", label: "work")])],
            phones: PhoneNormalForm(region: "GB")).draft
        #expect(london.phones == [LabeledValue("+44 20 7946 0000", label: "work")])
    }

    @Test func aNumberWhoseRegionIsUnknownIsNeverUnitedWithAnother() {
        let a = person("Ada", phones: [LabeledValue("555 0100")])
        let b = person("Ada", phones: [LabeledValue("+1 555 0100")])
        let merged = ContactMerge.merge([a, b], phones: PhoneNormalForm(region: nil)).draft
        #expect(merged.phones.map(\.value) == ["555 0100", "+1 555 0100"])
        // The same text is still one entry, as before.
        #expect(ContactMerge.merge([a, a], phones: PhoneNormalForm(region: nil)).draft.phones.count == 1)
        // Numbers of two countries are two numbers.
        let two = ContactMerge.merge([b, person("Ada", phones: [LabeledValue("+44 555 0100")])], phones: PhoneNormalForm(region: "US")).draft
        #expect(two.phones.count == 2)
    }

    @Test func aDifferingBirthdayIsAskedAboutAndOnlyTheChosenOneIsKept() {
        let wedding = ContactDate(label: ContactDate.anniversary, year: 1835, month: 7, day: 8)
        let a = person("Ada", dates: [ContactDate(label: ContactDate.birthday, year: 1815, month: 12, day: 10), wedding])
        let b = person("Ada", dates: [ContactDate(label: ContactDate.birthday, year: nil, month: 12, day: 11), ContactDate(label: "met", year: 1833, month: 6, day: 5)])
        let (merged, questions) = ContactMerge.merge([a, b], phones: PhoneNormalForm(region: nil))
        let question = try? #require(questions.first { $0.subject == .birthday })
        #expect(question?.choices.map(\.value) == ["1815-12-10", "December 11"])
        #expect(question?.chosen == 0)
        #expect(question?.label == "Birthday")
        #expect(merged.dates.filter { $0.label == ContactDate.birthday }.map(\.dateText) == ["1815-12-10"])
        #expect(merged.dates.contains(wedding))
        #expect(merged.dates.contains { $0.label == "met" })
        #expect(!questions.contains { $0.subject == .anniversary })

        let taken = ContactMerge.merge([a, b], taking: [.birthday: 1], phones: PhoneNormalForm(region: nil))
        #expect(taken.draft.dates.filter { $0.label == ContactDate.birthday }.map(\.dateText) == ["--12-11"])
        #expect(taken.draft.dates.first?.label == ContactDate.birthday, "in the place of the first contact's")
        #expect(taken.questions.first { $0.subject == .birthday }?.chosen == 1)

        // The same birthday twice is no question, and one entry.
        let same = ContactMerge.merge([a, a], phones: PhoneNormalForm(region: nil))
        #expect(same.questions.isEmpty)
        #expect(same.draft.dates.count == 2)
    }

    @Test func aChosenDateTakesThePlaceOfTheFirstOfItsKindElseComesLast() {
        let met = ContactDate(label: "met", year: 1833, month: 6, day: 5)
        let old = ContactDate(label: "Birthday", year: 1815, month: 12, day: 10)
        let chosen = ContactDate(label: ContactDate.birthday, year: nil, month: 12, day: 11)
        #expect(ContactDate.replacing(ContactDate.birthday, in: [old, met, old], with: chosen) == [chosen, met])
        #expect(ContactDate.replacing(ContactDate.birthday, in: [met], with: chosen) == [met, chosen])
    }

    @Test func takeNamesBirthdaysAndAnniversariesAsItNamesFields() {
        #expect(MergeSubject.named("birthday") == .birthday)
        #expect(MergeSubject.named("Anniversary") == .anniversary)
        #expect(MergeSubject.named("title") == .field(.title))
        #expect(MergeSubject.named("phones") == nil, "a list is united, not taken")
        #expect(MergeSubject.birthday.key == "birthday")
        #expect(MergeSubject.field(.title).key == "title")
    }

    @Test func aNumberAPhoneReformattedIsTheSameEntryNotAClash() {
        let us = PhoneNormalForm(region: "US")
        let base = person("Ada", phones: [LabeledValue("5550100", label: "cell"), LabeledValue("555 0111", label: "home")])
        // The phone rewrote the number its way; here the other entry was deleted.
        let theirs = person("Ada", phones: [LabeledValue("+1 555-0100", label: "cell"), LabeledValue("555 0111", label: "home")])
        let mine = person("Ada", phones: [LabeledValue("5550100", label: "cell")])
        let merge = DraftMerge.merge(base: base, theirs: theirs, mine: mine, phones: us)
        #expect(merge.clashes.isEmpty)
        #expect(merge.draft.phones == [LabeledValue("+1 555-0100", label: "cell")])

        // Deleted here, reformatted there: deleted, with no clash.
        let deleted = person("Ada", phones: [LabeledValue("555 0111", label: "home")])
        let gone = DraftMerge.merge(base: base, theirs: theirs, mine: deleted, phones: us)
        #expect(gone.clashes.isEmpty)
        #expect(gone.draft.phones == [LabeledValue("555 0111", label: "home")])

        // Without a region the reformatted number is a new entry, and the deleted one comes back:
        // what the normal form is for.
        let unknown = DraftMerge.merge(base: base, theirs: theirs, mine: deleted, phones: PhoneNormalForm(region: nil))
        #expect(unknown.draft.phones.map(\.value) == ["555 0111", "+1 555-0100"])

        // Two entries of one number on one side stay two: a sync never unites them on its own.
        let twice = person("Ada", phones: [LabeledValue("5550100", label: "cell"), LabeledValue("+1 555 0100", label: "work")])
        let kept = DraftMerge.merge(base: base, theirs: twice, mine: base, phones: us)
        #expect(kept.draft.phones.count == 2)
    }
}
