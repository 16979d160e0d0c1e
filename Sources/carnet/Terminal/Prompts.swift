import CarnetModels
import CarnetViewModels
import Foundation

extension Terminal {
    /// With no field flags a command asks field by field, but only a person can answer: on a
    /// terminal, or where `--prompt` (`forced`) says one is there anyway. Elsewhere the command
    /// has nothing to go on and says so with `refusal`, a usage error.
    func requirePrompts(forced: Bool, else refusal: String) throws(CLIError) {
        guard stdinIsTerminal || forced else { throw CLIError.usage(refusal) }
    }
}

/// Field-by-field prompts over an edit screen's draft, in the order of the draft's field
/// description: Enter keeps the shown value, a lone `-` clears it. A list is asked entry by entry:
/// each entry it has (Enter keeps it, `-` removes it, text replaces it), then new ones until an
/// empty answer. An entry that cannot be read or breaks its rule is asked again at once; a field
/// still broken after the round (a name left empty) is asked again with the reason. End of input
/// cancels, leaving no trace.
@MainActor
struct FieldPrompts<Record: DraftSaving> {
    let terminal: Terminal
    /// Sets a one-line field from an answer (a contact's name goes through `rename(to:)`, so its
    /// parts follow and the next prompts show them).
    var setText: (inout Record.Draft, DraftField<Record.Draft>, WritableKeyPath<Record.Draft, String>, String) -> Void = { draft, _, keyPath, value in
        draft[keyPath: keyPath] = value
    }

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    /// Prompts, then asks whether to save. Returns false (printing so) when nothing changed;
    /// throws ``CLIError/cancelled(_:)`` when the answer is no, leaving no trace.
    func fillAndConfirm(_ edit: DraftEditor<Record>, subject: String) throws -> Bool {
        try fill(edit)
        guard edit.isDirty else {
            terminal.print(SaveReport.unchanged(subject))
            return false
        }
        guard terminal.confirm("Save changes to \(subject)?") else {
            edit.cancel()
            throw CLIError.cancelled("cancelled; \(subject) unchanged")
        }
        return true
    }

    /// The fields a person types: every one-line, multi-line and list field of the description
    /// except the unmodelled vCard properties (kept as they came; the editor shows them).
    private var fields: [DraftField<Record.Draft>] {
        Record.Draft.fields.filter { spec in
            switch spec.value {
            case .photo: false
            case let .list(list): list.kind != .extra
            case .text, .multiline: true
            }
        }
    }

    func fill(_ edit: DraftEditor<Record>) throws {
        try fill(edit, fields)
    }

    /// `fill(_:)` for `first` alone, then, if the person wants more, for the other fields: what a
    /// new record needs is a few fields, not every one a card can hold.
    func fill(_ edit: DraftEditor<Record>, first: [Field], offering rest: String) throws {
        try fill(edit, fields.filter { first.contains($0.field) })
        let others = fields.filter { !first.contains($0.field) }
        guard !others.isEmpty else { return }
        let answer = try line("More fields (\(rest))? [y/N] ", edit)
        if ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) {
            try fill(edit, others)
        }
    }

    private func fill(_ edit: DraftEditor<Record>, _ fields: [DraftField<Record.Draft>]) throws {
        var pending = fields
        var again = false
        while !pending.isEmpty {
            for spec in pending {
                // What is wrong is said right after the answer, and again before asking anew. An
                // empty field can only be missing, which later answers may mend (the given and
                // family names make the name): that waits for the end of the round.
                if again { sayIssues(of: spec, edit) }
                try ask(spec, edit)
                if !again && !spec.texts(of: edit.draft).isEmpty { sayIssues(of: spec, edit) }
            }
            let broken = Set(edit.issues.map(\.field))
            pending = self.fields.filter { broken.contains($0.field) }
            again = true
        }
    }

    private func sayIssues(of spec: DraftField<Record.Draft>, _ edit: DraftEditor<Record>) {
        for issue in edit.issues where issue.field == spec.field {
            terminal.console.writeError("  \(spec.label.lowercased()) \(issue.message)\n")
        }
    }

    private func ask(_ spec: DraftField<Record.Draft>, _ edit: DraftEditor<Record>) throws {
        switch spec.value {
        case let .text(keyPath), let .multiline(keyPath):
            let current = edit.draft[keyPath: keyPath]
            let answer = try line("\(spec.label)\(Self.shown(current)): ", edit)
            if answer == "-" {
                setText(&edit.draft, spec, keyPath, "")
            } else if !answer.isEmpty {
                setText(&edit.draft, spec, keyPath, answer)
            }
        case let .list(list):
            try askEntries(spec, list, edit)
        case .photo:
            break
        }
    }

    /// `[value]` for a prompt: the first line of it, with `…` when there is more.
    private static func shown(_ value: String) -> String {
        guard !value.isEmpty else { return "" }
        let first = value.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? value
        return " [\(first.shown)\(first.count < value.count ? " …" : "")]"
    }

    private func askEntries(_ spec: DraftField<Record.Draft>, _ list: EntryList<Record.Draft>, _ edit: DraftEditor<Record>) throws {
        terminal.console.writeError("\(spec.label): \(spec.help)\n")
        var index = 0
        while true {
            let existing = index < list.count(edit.draft)
            let current = existing ? list.faithfulText(edit.draft, at: index) : ""
            let answer = try line("  \(spec.flag) \(index + 1)\(Self.shown(current)): ", edit)
            if answer.isEmpty {
                guard existing else { return }
                index += 1
                continue
            }
            if answer == "-" {
                guard existing else { return }
                _ = list.removeAt(&edit.draft, index)
                continue
            }
            if let problem = problem(answer, list, spec, number: index + 1) {
                terminal.console.writeError("  \(problem)\n")
                continue
            }
            if existing {
                list.replace(at: index, with: answer, in: &edit.draft)
            } else {
                _ = list.add(&edit.draft, answer)
            }
            if case let .success(entry) = ReadEntry.read(answer, list), entry.preferred {
                list.makePreferred?(&edit.draft, index)
            }
            index += 1
        }
    }

    /// Why `text` cannot be entry `number` of the list: it cannot be read, or breaks its rule.
    private func problem(_ text: String, _ list: EntryList<Record.Draft>, _ spec: DraftField<Record.Draft>, number: Int) -> String? {
        var scratch = Record.Draft()
        if let error = list.add(&scratch, text) { return "\(spec.flag) \(number): \(error.message)" }
        // Checked alone, the entry is number 1 in the message; say which it is here.
        let messages = scratch.issues().filter { $0.field == spec.field }.map(\.message)
        guard let message = messages.first else { return nil }
        return "\(spec.flag) " + (message.hasPrefix("1 (") ? "\(number)" + message.dropFirst() : message)
    }

    /// One answer; end of input cancels the edit.
    private func line(_ question: String, _ edit: DraftEditor<Record>) throws -> String {
        guard let answer = terminal.ask(question) else {
            edit.cancel()
            throw CLIError.cancelled("cancelled; nothing was saved")
        }
        return answer
    }
}

extension FieldPrompts where Record == Contact {
    /// The contact's prompts: the display name is set with `rename(to:)`, so the structured name
    /// read from it is offered next ("Given name [Ada]").
    init(contactsOn terminal: Terminal) {
        self.init(terminal: terminal)
        setText = { draft, spec, keyPath, value in
            if spec.field == .name { draft.rename(to: value) } else { draft[keyPath: keyPath] = value }
        }
    }

    /// A new contact's prompts: its name, emails and phones, then the rest if wanted.
    func fillContact(_ edit: EditContactViewModel) throws {
        terminal.console.writeError(Self.intro(edit))
        try fill(edit, first: [.name, .email, .phone], offering: "organization, title, address, birthday, note and the rest")
    }

    func fillContactAndConfirm(_ edit: EditContactViewModel, subject: String) throws -> Bool {
        terminal.console.writeError(Self.intro(edit))
        return try fillAndConfirm(edit, subject: subject)
    }

    private static func intro(_ edit: EditContactViewModel) -> String {
        edit.isNew
            ? "New contact: a name, emails and phones, then more if you want (Enter skips a field; a list takes one entry\n"
                + "per line, Enter alone ends it; Ctrl-D cancels).\n"
            : "Editing \(edit.draft.name.shown) (Enter keeps a value, - clears it; in a list, Enter keeps an entry, - removes it,\n"
                + "text replaces it, and Enter alone on a new line ends the list; Ctrl-D cancels).\n"
    }
}
