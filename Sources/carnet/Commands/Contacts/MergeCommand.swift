import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct MergeCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge contacts into the first one, or say two contacts are different people.",
        discussion: """
            The first contact is kept; the others are merged into it and deleted. Lists (emails, \
            phones, addresses, categories…) are united: an entry found twice is kept once, with \
            the types of both. A phone number written two ways is one entry where \
            its country is known (see carnet db phone-region): +44 20 7946 0000 and 020 7946 0000 \
            become one entry, written the fuller way, with the labels of both. A one-valued field (name, title, note, \
            photo…), a birthday and an anniversary keep the first contact's value, or takes another's when the first has none. Where two values differ, \
            on a terminal you are asked which to keep (or, with --editor, the merged contact opens \
            in $VISUAL or $EDITOR: closing it unchanged merges as shown, emptying it cancels); in a script the first contact's value stays unless --take \
            FIELD=ID says otherwise, and each field settled so is printed. The favorite place, \
            the categories and every property Carnet does not model are kept. The merged \
            contacts' UIDs stay known as the kept one's: importing an old export or syncing \
            updates it instead of bringing them back. `carnet undo` takes a merge back whole.

            EXAMPLES:
              carnet merge 12 40
              carnet merge 12 40 41 --take name=40 --take title=41
              carnet merge 12 40 --editor
              carnet merge --different 12 40
              carnet merge "Ada King" "Ada Lovelace" --take name="Ada Lovelace"
            """)

    @OptionGroup var database: DatabaseOption
    @Argument(help: ArgumentHelp(
        "The contacts to merge, the first kept: each an id, or words that find only it (quote words with spaces).", valueName: "contact"))
    var contacts: [String] = []
    @Option(name: .customLong("take"), help: ArgumentHelp("Take FIELD (or birthday, anniversary) from contact ID where the values differ (e.g. name=40); repeatable.", valueName: "field=id"))
    var takes: [String] = []
    @Flag(help: "Edit the merged contact in $VISUAL or $EDITOR before saving.") var editor = false
    @Flag(help: "Record that the two contacts are different people; carnet duplicates stops proposing them.") var different = false
    @Flag(name: .customLong("prompt"), help: "Ask about each differing field even when standard input is not a terminal.")
    var forcePrompt = false

    var writes: Bool { true }

    func validate() throws {
        if different {
            guard contacts.count == 2 else { throw ValidationError("--different takes exactly two contacts") }
            if !takes.isEmpty || editor { throw ValidationError("--different records two people; it cannot be combined with --take or --editor") }
        } else if contacts.count < 2 {
            throw ValidationError("give at least two contacts: the one to keep, then the ones to merge into it")
        }
        if let blank = contacts.first(where: { Rules.trimmed($0).isEmpty }) {
            throw ValidationError("a contact is named by its id or by words that find it, not blank (got \(blank.debugDescription))")
        }
        for words in contacts { try ContactID.checkID(words) }
        if editor && !takes.isEmpty { throw ValidationError("--editor and --take exclude each other: choose in the editor") }
        // The ids are known once the words are found; the fields can be checked now.
        _ = try parsedTakes(ids: nil)
    }

    /// `--take FIELD=ID` as the field and the index of its contact among the ids (nil: the
    /// fields only).
    func parsedTakes(ids: [Int64]?) throws -> [MergeSubject: Int] {
        var taking: [MergeSubject: Int] = [:]
        for take in takes {
            let parts = take.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard parts.count == 2, let subject = MergeSubject.named(name) else {
                if parts.count == 2, let spec = ContactFields.named(name), spec.list != nil {
                    throw ValidationError("--take \(take.shown): \(spec.key) is a list, and lists are united; --take is for one-valued fields and for birthday and anniversary")
                }
                throw ValidationError("--take \(take.shown): give FIELD=ID with a field such as name, title, note, photo or birthday")
            }
            guard let ids else { continue }
            // FIELD=ID, or FIELD=the words that named the contact on this command line.
            let named = parts[1].trimmingCharacters(in: .whitespaces)
            guard let index = Int64(named).flatMap({ ids.firstIndex(of: $0) }) ?? contacts.firstIndex(of: parts[1]) ?? contacts.firstIndex(of: named) else {
                throw ValidationError("--take \(take.shown): the ID must be one of the contacts merged (\(ids.map(String.init).joined(separator: ", ")))")
            }
            taking[subject] = index
        }
        return taking
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        var ids: [Int64] = []
        for words in contacts { ids.append(try ContactChoice.id(named: words, in: state, terminal: terminal)) }
        if let twice = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
            throw CLIError.usage("contact \(twice) is named twice (\(contacts.map(\.debugDescription).joined(separator: ", "))); each contact may be given once")
        }
        if different {
            try DuplicatesViewModel(state: state).markDifferent(ids[0], ids[1])
            return terminal.print("saved: contacts \(ids[0]) and \(ids[1]) are different people; carnet duplicates will not propose them together")
        }
        let taking = try parsedTakes(ids: ids)
        let screen = try DuplicatesViewModel(state: state).mergeScreen(contactIDs: ids, taking: taking)
        let contacts = screen.contacts
        if editor {
            guard try EditorSession(terminal: terminal).edit(screen.editor, acceptingUnchanged: true) != nil else {
                throw CLIError.cancelled("cancelled; nothing merged")
            }
        } else if !screen.questions.isEmpty && taking.isEmpty && (terminal.stdinIsTerminal || forcePrompt) {
            try ask(screen, terminal: terminal)
        } else {
            for question in screen.questions { terminal.print(settled(question, screen)) }
        }
        let merged: Contact
        do {
            merged = try screen.save()
        } catch {
            // Merge has no --force: what the other writer saved is read again by a new merge.
            guard case let .conflict(conflict) = error else { throw error }
            throw CLIError(message: "\(conflict.summary); nothing was merged: run the merge again to see it", code: .conflict)
        }
        let others = contacts.dropFirst().map { String($0.id) }.joined(separator: ", ")
        terminal.print("merged \(others) into contact \(merged.id) (\(merged.name.shown)); carnet undo takes it back")
    }

    /// "name: kept “Ada Lovelace” of 12 (40 has “Lovelace, Ada”; --take name=40)".
    @MainActor private func settled(_ question: MergeQuestion, _ screen: MergeContactsViewModel) -> String {
        let key = question.subject.key
        return Self.settled(question, ids: screen.contacts.map(\.id)) { id, value in "\(id) has “\(value.shown)”; --take \(key)=\(id)" }
    }

    /// A field a merge settled by keeping one contact's value, `ids` the merged contacts' in
    /// order: "name: kept “Ada Lovelace” of 12 (" then each other contact's value as `other`
    /// says it, joined by "; ", then ")". Also what `carnet duplicates --merge-all --keep-first` prints.
    static func settled(_ question: MergeQuestion, ids: [Int64], other: (Int64, String) -> String) -> String {
        let kept = question.choices.first { $0.contactIndex == question.chosen }
        let others = question.choices.filter { $0.contactIndex != question.chosen }.map { other(ids[$0.contactIndex], $0.value) }
        return "\(question.subject.key): kept “\((kept?.value ?? "").shown)” of \(ids[question.chosen]) (\(others.joined(separator: "; ")))"
    }

    /// Asks, for each field whose values differ, which one to keep.
    @MainActor private func ask(_ screen: MergeContactsViewModel, terminal: Terminal) throws {
        for question in screen.questions {
            var text = "\(question.label) differs:\n"
            for (n, choice) in question.choices.enumerated() {
                text += "  \(n + 1)  \(choice.value.shown)  (contact \(screen.contacts[choice.contactIndex].id))\n"
            }
            while true {
                guard let answer = terminal.ask(text + "keep which? [1] ") else { throw CLIError.cancelled("cancelled; nothing merged") }
                let trimmed = answer.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { break }
                if let n = Int(trimmed), question.choices.indices.contains(n - 1) {
                    screen.choose(question.subject, from: question.choices[n - 1].contactIndex)
                    break
                }
                text = "answer a number from 1 to \(question.choices.count)\n"
            }
        }
    }
}
