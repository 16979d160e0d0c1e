import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct EditCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a contact.",
        discussion: """
            With field flags, changes those fields: a one-line flag sets its field (an empty value \
            clears it), a list flag adds its entry unless the contact has that value already (then a \
            type or pref given with it is set on it; a birthday or anniversary replaces the one \
            there), and --remove-email and the like remove one (naming one the contact does not \
            have is an error). Removals happen before additions. --name renames and brings the name \
            parts read from the new name when they were read from the old one; --given and the other \
            parts bring the display name along the same way.

            With no flags on a terminal, asks for each field showing the current value (Enter keeps \
            it, - clears it), and each list entry by entry (Enter keeps, - removes, text replaces; \
            then new entries until an empty answer), then asks to save.

            With --editor, opens $VISUAL or $EDITOR on a YAML template of every field: lists as \
            "  - ENTRY" lines, the note as a block. It is checked when you close it and reopened with \
            the errors marked until it is right; an empty value or a deleted line clears that field, \
            and closing the file unchanged or emptied cancels (exit 1).

            Prints "saved contact ID" once the change is committed, or "contact ID unchanged \
            (nothing to save)" when no value changed (nothing is written then). If someone else \
            saved the contact after this edit read it, nothing is written and the command stops \
            with a conflict naming their changes (exit 67); --force overwrites. What you typed in \
            the editor is then kept in a file in the temporary directory, named in the message.

            EXAMPLES:
              carnet edit 3 --email work:gary@bluewares.example.com
              carnet edit 3 --remove-email old@example.com --email pref:new@example.com
              carnet edit 3 --phone cell,pref:555-0199 --category friends
              carnet edit 3 --date birthday:1990-04-01 --note "Met at the conference"
              carnet edit 3 --family King       # the display name follows when it was made from the parts
              carnet edit 3 --no-photo
              carnet edit 3 --editor
              carnet edit 3        # asks field by field
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @OptionGroup var fields: ContactFieldOptions
    @OptionGroup var removals: ContactRemovalOptions
    @Flag(help: "Remove the photo.") var noPhoto = false
    @Flag(help: "Edit in $VISUAL or $EDITOR.") var editor = false
    @Flag(help: "Save even if someone else changed the contact meanwhile (their changes are lost).")
    var force = false
    @Flag(name: .customLong("prompt"), help: "Ask for each field even when standard input is not a terminal.")
    var forcePrompt = false

    /// Whether a flag names a change (else the edit is by prompts or the editor).
    private var hasChanges: Bool { !fields.isEmpty || !removals.isEmpty || noPhoto }

    func validate() throws {
        if noPhoto && fields.photo != nil { throw ValidationError("--photo and --no-photo cannot be used together") }
        if editor && hasChanges { throw ValidationError("--editor cannot be combined with field flags") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let contactID = try contact.id(in: state, terminal: terminal)
        let detail = try ContactsViewModel(state: state).detail(forID: contactID)
        let edit = detail.edit()
        var editedText: String?
        if editor {
            editedText = try EditorSession(terminal: terminal).edit(edit)
            guard editedText != nil else { throw CLIError.cancelled("cancelled; contact \(contactID) unchanged") }
        } else if !hasChanges {
            try terminal.requirePrompts(
                forced: forcePrompt, else: "nothing to change: give a field flag such as --name, or --editor (see carnet edit --help)")
            guard try FieldPrompts(contactsOn: terminal)
                .fillContactAndConfirm(edit, subject: "contact \(contactID)") else { return }
        } else {
            try removals.apply(to: &edit.draft)
            try fields.apply(to: &edit.draft)
            if noPhoto { edit.draft.photo = nil }
        }
        let line: String
        do {
            line = try save(edit, terminal: terminal)
        } catch {
            // What someone typed in their editor is not lost to a conflict: it is kept to redo.
            guard let editedText, case let .conflict(conflict) = error else { throw error }
            throw CLIError(message: "\(conflict); \(Self.keep(editedText, contactID: contactID))", code: .conflict)
        }
        terminal.print(line)
    }

    /// Saves (over a conflict with --force) and returns the line to print.
    @MainActor private func save(_ edit: EditContactViewModel, terminal: Terminal) throws(CarnetError) -> String {
        let (saved, baseVersion) = try carnet.save(edit, force: force, terminal: terminal)
        return SaveReport.line(.contact, id: saved.id, version: saved.version, baseVersion: baseVersion)
    }

    /// Where the edited text now is, said for the error line.
    private static func keep(_ text: String, contactID: Int64) -> String {
        do {
            return "your edit is kept in " + (try EditorSession.keep(text, contactID: contactID))
        } catch {
            return "your edit could not be kept (\((error as? CLIError)?.message ?? "\(error)"))"
        }
    }
}

/// Saves a contact's or a quote's edit; with `force`, a conflict overwrites the other writer's
/// version (saying so on stderr). Returns the saved record and the version it was saved over
/// (equal when nothing changed).
@MainActor
func save<Record: DraftSaving>(_ edit: DraftEditor<Record>, force: Bool, terminal: Terminal) throws(CarnetError) -> (Record, baseVersion: Int?) {
    let baseVersion = edit.original?.version  // save() moves `original` on to what it saved
    do {
        return (try edit.save(), baseVersion)
    } catch {
        guard force, case let .conflict(conflict) = error else { throw error }
        let fields = conflict.changedFields.map(\.rawValue).joined(separator: ", ")
        terminal.console.writeError("carnet: overwriting changes to \(fields) made meanwhile\n")
        guard let saved = try edit.resolve(.overwrite) else { throw error }
        return (saved, conflict.currentVersion)
    }
}
