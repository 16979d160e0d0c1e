import CarnetModels
import Foundation
import Testing

/// The rich contact's values: structured names, typed lists, dates and their rules.
@Suite struct ContactValueTests {
    @Test(arguments: [
        ("Ada Lovelace", PersonName(given: "Ada", family: "Lovelace")),
        ("Dr. John Q. Appleseed Jr.", PersonName(prefix: "Dr.", given: "John", additional: "Q.", family: "Appleseed", suffix: "Jr.")),
        ("Ludwig van Beethoven", PersonName(given: "Ludwig", family: "van Beethoven")),
        ("Madonna", PersonName(given: "Madonna")),
        ("Zoë Ångström", PersonName(given: "Zoë", family: "Ångström")),
    ])
    func namesThatCanBeReadAreRead(name: String, parts: PersonName) {
        #expect(PersonName.derived(from: name) == parts)
        #expect(ContactDraft(name: name).normalized().nameParts == parts)
    }

    @Test(arguments: ["Maria José García López", "Lovelace, Ada", "毛泽东", "Gale Foods Ltd. (HQ)", "R2-D2 & C-3PO"])
    func namesThatNeedAGuessAreLeftAlone(name: String) {
        #expect(PersonName.derived(from: name) == nil)
        #expect(ContactDraft(name: name).normalized().nameParts.isEmpty)
    }

    @Test func theDisplayNameIsMadeFromThePartsWhenOnlyTheyAreGiven() throws {
        let draft = try ContactDraft(nameParts: PersonName(given: "Ada", family: "Lovelace")).validated()
        #expect(draft.name == "Ada Lovelace")
        #expect(ContactDraft().issues().map(\.field) == [.name])
    }

    @Test func renamingKeepsDerivedPartsInStepButNeverTypedOnes() {
        var draft = ContactDraft(name: "Ada Lovelace").normalized()
        draft.rename(to: "Ada King")
        #expect(draft.nameParts == PersonName(given: "Ada", family: "King"))
        var typed = ContactDraft(name: "Ada", nameParts: PersonName(given: "Augusta Ada", family: "King"))
        typed.rename(to: "Ada Lovelace")
        #expect(typed.nameParts == PersonName(given: "Augusta Ada", family: "King"))
    }

    @Test func sortTextsFallBackToTheDisplayName() {
        let ada = ContactDraft(name: "Ada Lovelace").normalized()
        #expect(ada.sortText(.family) == "Lovelace Ada")
        #expect(ada.sortText(.given) == "Ada Lovelace")
        let firm = ContactDraft(name: "Gale Foods Ltd. (HQ)").normalized()
        #expect(firm.sortText(.family) == "Gale Foods Ltd. (HQ)")
    }

    @Test func entriesReadTypesLabelsAndPreference() throws {
        var draft = ContactDraft(name: "Ada")
        let emails = try #require(ContactFields.spec(.email)?.list)
        #expect(emails.add(&draft, "Work:ada@example.com") == nil)
        #expect(emails.add(&draft, "home,pref: ada@home.example") == nil)
        #expect(emails.add(&draft, "Old School:ada@old.example") == nil)
        #expect(draft.emails == [
            LabeledValue("ada@example.com", label: "work"), LabeledValue("ada@home.example", label: "home", preferred: true),
            LabeledValue("ada@old.example", label: "Old School"),
        ])
        #expect(draft.email == "ada@home.example")
        #expect(emails.entries(draft) == ["work:ada@example.com", "home,pref:ada@home.example", "Old School:ada@old.example"])
        let urls = try #require(ContactFields.spec(.url)?.list)
        #expect(urls.add(&draft, "https://example.com/ada") == nil)
        #expect(draft.urls == [LabeledValue("https://example.com/ada")])
        let phones = try #require(ContactFields.spec(.phone)?.list)
        #expect(phones.add(&draft, "mobile:+44 20 7946 0000") == nil)
        #expect(draft.phones == [LabeledValue("+44 20 7946 0000", label: "cell")])
        #expect(emails.remove(&draft, "ADA@example.com") == 1)
        #expect(draft.emails.count == 2)
    }

    @Test func everyEntryIsValidatedOnItsOwn() {
        var draft = ContactDraft(name: "Ada")
        draft.emails = [LabeledValue("ada@example.com"), LabeledValue("not an email")]
        draft.phones = [LabeledValue("BusinessPhone")]
        draft.dates = [ContactDate(label: "birthday", year: 2023, month: 2, day: 29)]
        #expect(draft.issues().map(\.description) == [
            "email: 2 (not an email) must look like name@example.com (no spaces or invisible characters)",
            "phone: 1 (BusinessPhone) may hold only digits, spaces and + - ( ) . and must have a digit",
            "date: 1 (2023-02-29) is not a real calendar date",
        ])
        draft.emails = [LabeledValue("a@example.com", preferred: true), LabeledValue("b@example.com", preferred: true)]
        #expect(draft.issues().contains(FieldIssue(.email, "may have only one preferred entry")))
    }

    @Test func datesWithAndWithoutAYear() throws {
        let dates = try #require(ContactFields.spec(.date)?.list)
        var draft = ContactDraft(name: "Ada")
        #expect(dates.add(&draft, "birthday:1815-12-10") == nil)
        #expect(dates.add(&draft, "Anniversary:--06-01") == nil)
        #expect(dates.add(&draft, "birthday:--02-29") == nil)
        #expect(dates.add(&draft, "birthday:10 December") != nil)
        #expect(draft.dates == [
            ContactDate(label: "birthday", year: 1815, month: 12, day: 10), ContactDate(label: "anniversary", month: 6, day: 1),
            ContactDate(label: "birthday", month: 2, day: 29),
        ])
        #expect(draft.issues().isEmpty)
        #expect(dates.entries(draft) == ["birthday:1815-12-10", "anniversary:--06-01", "birthday:--02-29"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let leap = ContactDate(label: "birthday", year: 2000, month: 2, day: 29)
        let next = leap.nextOccurrence(onOrAfter: DateComponents(year: 2026, month: 3, day: 1), calendar: calendar)
        #expect(next == DateComponents(year: 2027, month: 2, day: 28))
    }

    @Test func addressesReadTheirPartsAndEscapes() throws {
        let addresses = try #require(ContactFields.spec(.address)?.list)
        var draft = ContactDraft(name: "Ada")
        #expect(addresses.add(&draft, "home:12 Main St; Springfield; IL; 62701; USA") == nil)
        #expect(addresses.add(&draft, "Flat 2\\; Rear; London") == nil)
        #expect(draft.addresses[0] == PostalAddress(label: "home", street: "12 Main St", locality: "Springfield", region: "IL", postalCode: "62701", country: "USA"))
        #expect(draft.addresses[1].street == "Flat 2; Rear")
        #expect(addresses.entries(draft)[1] == "Flat 2\\; Rear; London; ; ; ")
        var again = ContactDraft(name: "Ada")
        #expect(addresses.replace(&again, addresses.entries(draft)).isEmpty)
        #expect(again.addresses == draft.addresses)
    }

    @Test func theFirstSchemasFieldsAreViewsOfTheRichOnes() {
        var draft = ContactDraft(name: "Ada", position: "Engineer, Apple Inc.", email: "ada@example.com", phone: "555 0100")
        #expect(draft.title == "Engineer" && draft.organization == "Apple Inc.")
        #expect(draft.emails == [LabeledValue("ada@example.com", preferred: true)])
        #expect(ContactDraft(position: "Sales").title == "Sales")
        #expect(ContactDraft(position: "CEO, Founder, Acme").organization == "Founder, Acme")
        draft.email = ""
        #expect(draft.emails.isEmpty)
    }

    @Test func extrasAreKeptVerbatimButMustBeOneLine() {
        var draft = ContactDraft(name: "Ada", extras: ["item1.X-ABLabel:_$!<Other>!$_", "  X-PADDED: kept  "])
        #expect(draft.normalized().extras == ["item1.X-ABLabel:_$!<Other>!$_", "  X-PADDED: kept  "])
        #expect(draft.issues().isEmpty)
        draft.extras = ["X-TWO:lines\nhere"]
        #expect(draft.issues().map(\.field) == [.extra])
    }

    @Test func searchAndCategoriesLookAtEveryList() {
        let contact = Contact(
            id: 1, uid: "u", draft: ContactDraft(
                name: "Ada", emails: [LabeledValue("ada@analytical.example")],
                addresses: [PostalAddress(street: "12 St James's Square", locality: "London")], note: "Met at\nthe Royal Society",
                categories: ["Friends"]),
            createdAt: Date(), updatedAt: Date(), version: 1)
        #expect(contact.matches(search: "ANALYTICAL"))
        #expect(contact.matches(search: "james"))
        #expect(contact.matches(search: "royal society"))
        #expect(!contact.matches(search: "babbage"))
        #expect(ContactQuery(category: "friends").matches(contact))
        #expect(!ContactQuery(category: "family").matches(contact))
    }
}

/// A date's text is zero-padded as vCard and ISO 8601 write it (padded by hand, not by
/// `String(format:)`, for speed: these are the cases that must not change).
@Test(arguments: [
    (ContactDate(label: "", year: 1815, month: 12, day: 10), "1815-12-10"),
    (ContactDate(label: "", year: 5, month: 1, day: 2), "0005-01-02"),
    (ContactDate(label: "", year: 12345, month: 1, day: 2), "12345-01-02"),
    (ContactDate(label: "", year: -5, month: 1, day: 2), "-005-01-02"),
    (ContactDate(label: "", year: nil, month: 6, day: 1), "--06-01"),
    (ContactDate(label: "", year: nil, month: -1, day: 100), "---1-100"),
])
func dateTextIsZeroPadded(date: ContactDate, text: String) {
    #expect(date.dateText == text)
    #expect(date.dateText == (date.year.map { String(format: "%04d-", $0) } ?? "--") + String(format: "%02d-%02d", date.month, date.day))
}

@Suite struct EntryTextRoundTripTests {
    @Test(arguments: [
        LabeledValue("xmpp:ada@example.org"), LabeledValue("ada@example.org", label: "Lab, old"),
        LabeledValue("ada@example.org", label: "Lab, old", preferred: true), LabeledValue("ada", label: "Home (2)"),
        LabeledValue("pref:x"), LabeledValue(":starts with a colon"),
    ])
    func everyLabeledValueReadsBackAsItself(entry: LabeledValue) throws {
        #expect(try LabeledValue.parse(entry: entry.entryText, kind: .handle).get() == entry, "\(entry.entryText)")
    }

    @Test func anAddressWithAColonReadsBackWhole() throws {
        let address = PostalAddress(street: "Suite: 5", locality: "Leeds")
        #expect(try PostalAddress.parse(entry: address.entryText, kind: .address).get() == address, "\(address.entryText)")
    }
}
