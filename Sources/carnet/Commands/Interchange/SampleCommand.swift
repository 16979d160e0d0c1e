import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct SampleCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Load the five contacts of the classic demo app, to have something to look at.",
        discussion: """
            They come with what a real address book holds: work and home emails and phones, \
            addresses, a web address and a handle, birthdays and an anniversary, a note and \
            categories (try carnet birthdays --days 366, carnet list --category friends).

            Running it again never changes a contact (the samples have fixed UIDs): a sample you \
            edited is left as you made it, and the report names it; only a sample you deleted is \
            added back.

            EXAMPLE:
              carnet sample && carnet list
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }

    /// The samples, each written as `carnet add` flags would give it (one entry syntax
    /// everywhere): the classic app's name, position, email and phone first (the preferred
    /// ones), then the rest.
    static let contacts: [(name: String, position: String, entries: [(Field, String)])] = [
        ("Madison Thompson", "Sales, Gale Foods", [
            (.email, "work,pref:madison.thompson@example.com"), (.email, "home:madison@home.example"),
            (.phone, "work,pref:+1 555 0101"), (.phone, "cell:+1 555 0111"),
            (.address, "work:200 Harbor Way; Seattle; WA; 98104; USA"),
            (.date, "birthday:1988-03-14"), (.category, "work"), (.category, "customers"),
        ]),
        // One plain contact, as a file of the first schema holds it: one email, one phone.
        ("Tyler Porter", "Software developer, Prophecy", [(.email, "pref:tyler.porter@example.com"), (.phone, "pref:+1 555 0102")]),
        ("Katherine Price", "Marketing, Golden Roads", [
            (.nickname, "Kate"),
            (.email, "work,pref:katherine.price@example.com"), (.email, "home:kate@home.example"),
            (.phone, "work,pref:+1 555 0103"), (.address, "home:48 Elm Street; Portland; OR; 97205; USA"),
            (.date, "birthday:1991-11-02"), (.date, "anniversary:2016-06-18"), (.category, "friends"),
        ]),
        ("Gary Edwards", "Web Developer, Bluewares", [
            (.email, "work,pref:gary.edwards@example.com"), (.phone, "work,pref:+1 555 0104"), (.phone, "fax:+1 555 0114"),
            (.date, "birthday:1979-05-30"), (.note, "Prefers email to calls.\nAsk about the Bluewares redesign."),
            (.category, "work"),
        ]),
        ("Rebecca Rogers", "HR, Globaviations", [
            (.email, "work,pref:rebecca.rogers@example.com"), (.phone, "work,pref:+1 555 0105"), (.phone, "cell:+1 555 0115"),
            (.address, "work:1 Airport Rd; Denver; CO; 80249; USA"), (.date, "birthday:1985-09-09"), (.category, "work"),
        ]),
    ]

    /// A sample's draft, its entries read by the field description's own lists.
    static func draft(name: String, position: String, entries: [(Field, String)]) -> ContactDraft {
        var draft = ContactDraft()
        draft.rename(to: name)
        draft.position = position
        for (field, text) in entries {
            guard let spec = ContactFields.spec(field) else { continue }
            switch spec.value {
            case let .list(list): _ = list.add(&draft, text)
            case let .text(keyPath), let .multiline(keyPath): draft[keyPath: keyPath] = text
            case .photo: break
            }
        }
        return draft
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        var records = Self.contacts.enumerated().map { index, contact in
            InterchangeRecord(
                uid: "carnet-sample-\(index + 1)",
                draft: Self.draft(name: contact.name, position: contact.position, entries: contact.entries),
                line: index + 1)
        }[...]
        let report = try InterchangeViewModel(state: state).importContacts(
            source: "sample", options: ImportOptions(keepsExisting: true), next: { records.popFirst() })
        terminal.print("saved sample: \(report.summary)")
    }
}
