import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct AddCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a contact and print its id.",
        discussion: """
            A list flag (--email, --phone, --address, --url, --handle, --date, --category) takes one \
            entry and can be repeated. An entry is [TYPE[,pref]:]VALUE: a type such as work, home or \
            cell, or your own label, and pref for the preferred one (the first counts when none is). \
            The name is required unless --given or --family is given (it is then made from the parts; \
            given a name, the parts are read from it when that is unambiguous).

            With no field flags on a terminal, asks for each field, then each list entry by entry. \
            Prints "saved contact ID" once the contact is committed. An entry that cannot be read is \
            a usage error (exit 64); a value that breaks a rule (an email without @, 30 February) is \
            invalid data (exit 65). Nothing is written either way.

            EXAMPLES:
              carnet add --name "Ada Lovelace" --email work:ada@example.com --email home,pref:ada@home.example
              carnet add --given Ada --family Lovelace --phone "cell:+44 20 7946 0000"
              carnet add --name "Ada Lovelace" --date birthday:1815-12-10 --date anniversary:--07-08
              carnet add --name "Ada Lovelace" --address "home:12 Main St; Springfield; IL; 62701; USA"
              carnet add --name "Madison Thompson" --title Sales --organization "Gale Foods" --category work
              carnet add --name "Tyler Porter" --photo tyler.jpg
              carnet add          # asks field by field
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var book: BookOption
    @OptionGroup var fields: ContactFieldOptions
    @Flag(name: .customLong("prompt"), help: "Ask for each field even when standard input is not a terminal.")
    var forcePrompt = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let edit = EditContactViewModel(state: state, addingTo: try book.resolved(state))
        if fields.isEmpty {
            try terminal.requirePrompts(
                forced: forcePrompt, else: "nothing to add: give at least --name NAME, or --given and --family (see carnet add --help)")
            try FieldPrompts(contactsOn: terminal).fillContact(edit)
        } else {
            try fields.apply(to: &edit.draft)
        }
        let saved = try edit.save()
        terminal.print("saved contact \(saved.id)")
        for likely in try DuplicatesViewModel(state: state).likelyDuplicates(ofAdded: [saved.id]) {
            terminal.error(LikelyDuplicateNote.line(likely))
        }
    }
}
