import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct AddEmailCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-email",
        abstract: "Add the sender of an email (read on standard input) to the address book.",
        discussion: """
            Reads a message on standard input, takes its From: header (encoded names such as \
            =?UTF-8?Q?=C3=89lodie?= decoded) and offers to add the sender to a new contact or to \
            one you have. The message comes on standard input, so the questions are asked on \
            the terminal (/dev/tty); without one, say what to do: --yes (a new contact) or \
            --to-contact ID. A sender whose address a contact has already is left as it is.

            EXAMPLES:
              carnet add-email < message.eml
              carnet add-email --yes --label work < message.eml
              carnet add-email --to-contact 3 < message.eml
            In ~/.muttrc:
              macro index,pager A "<pipe-message>carnet add-email<return>" "add the sender to carnet"
            In aerc's binds.conf, [view]:
              aa = :pipe -m carnet add-email<Enter>
            """)

    @OptionGroup var database: DatabaseOption
    @Flag(help: "Add the sender as a new contact without asking.") var yes = false
    @Option(name: .customLong("to-contact"), help: ArgumentHelp(
        "Add the address to this contact instead, without asking: its id, or words that find only it.", valueName: "contact"))
    var contactID: String?
    @Option(help: ArgumentHelp("The new contact's name (default: the sender's name).", valueName: "name")) var name: String?
    @Option(help: ArgumentHelp("The address's type: home, work, other or your own.", valueName: "type")) var label = ""

    var writes: Bool { true }

    func validate() throws {
        if yes, contactID != nil { throw ValidationError("--yes (a new contact) and --to-contact (an existing one) exclude each other") }
        if name != nil, contactID != nil { throw ValidationError("--name is for a new contact, not with --to-contact") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let message = try terminal.console.inputHandle().readToEnd() ?? Data()
        guard let sender = MailSender.from(message: message) else {
            throw CLIError(message: "the message on standard input has no From: header with an address", code: .invalidData)
        }
        let screen = AddSenderViewModel(state: state, sender: sender)
        let shown = sender.name.isEmpty ? sender.email.shown : "\(sender.name.shown) <\(sender.email.shown)>"
        if let existing = try screen.existingContact() {
            terminal.print("\(sender.email.shown) is contact \(existing.id) (\(existing.name.shown)) already; nothing to add")
            return
        }
        if let contactID {
            let saved = try screen.add(toContact: try ContactChoice.id(named: contactID, in: state, terminal: terminal), label: label)
            return terminal.print("saved contact \(saved.id)")
        }
        if yes {
            let saved = try screen.addAsNewContact(name: name, label: label)
            return terminal.print("saved contact \(saved.id)")
        }
        guard terminal.console.hasTerminal else {
            throw CLIError.usage("the message is on standard input, so there is no terminal to ask on: "
                + "add --yes (a new contact) or --to-contact ID")
        }
        try ask(screen, shown: shown, terminal: terminal)
    }

    /// The questions, on the terminal: a new contact or one of the likely ones, then its name.
    @MainActor private func ask(_ screen: AddSenderViewModel, shown: String, terminal: Terminal) throws {
        let console = terminal.console
        let candidates = try screen.candidates()
        var question = "Add \(shown)\n  n  to a new contact named \(screen.proposedName.shown)\n"
        for contact in candidates {
            let emails = contact.draft.emails.map(\.value.shown).joined(separator: ", ")
            question += "  \(contact.id)  to \(contact.name.shown)\(emails.isEmpty ? "" : " (\(emails))")\n"
        }
        question += "or another contact's id; Enter cancels: "
        console.writeError(question)
        let answer = (console.readTerminalLine() ?? "").trimmingCharacters(in: .whitespaces)
        if answer.lowercased() == "n" || answer.lowercased() == "new" {
            console.writeError("Name [\(screen.proposedName.shown)]: ")
            let typed = (console.readTerminalLine() ?? "").trimmingCharacters(in: .whitespaces)
            let saved = try screen.addAsNewContact(name: typed.isEmpty ? name : typed, label: label)
            return terminal.print("saved contact \(saved.id)")
        }
        if let id = Int64(answer) {
            let saved = try screen.add(toContact: id, label: label)
            return terminal.print("saved contact \(saved.id)")
        }
        guard answer.isEmpty else { throw CLIError.usage("\(answer.shown) is neither n nor a contact id; nothing was added") }
        throw CLIError.cancelled()
    }
}
