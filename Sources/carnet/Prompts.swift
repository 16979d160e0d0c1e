import CarnetModels
import CarnetViewModels
import Foundation

/// Field-by-field prompts over an edit screen's draft: Enter keeps the shown value, a lone `-`
/// clears it; a field that breaks a rule is asked again with the reason. End of input cancels.
@MainActor
struct FieldPrompts<Screen: AnyObject> {
    let terminal: Terminal
    let fields: [(field: Field, label: String, value: ReferenceWritableKeyPath<Screen, String>)]
    let issues: (Screen) -> [FieldIssue]
    let isDirty: (Screen) -> Bool
    let cancel: (Screen) -> Void

    /// Prompts, then asks whether to save. Returns false (printing so) when nothing changed;
    /// throws ``CLIError/cancelled(_:)`` when the answer is no, leaving no trace.
    func fillAndConfirm(_ screen: Screen, subject: String) throws -> Bool {
        try fill(screen)
        guard isDirty(screen) else {
            terminal.print(SaveReport.unchanged(subject))
            return false
        }
        guard terminal.confirm("Save changes to \(subject)?") else {
            cancel(screen)
            throw CLIError.cancelled("cancelled; \(subject) unchanged")
        }
        return true
    }

    func fill(_ screen: Screen) throws {
        var pending = fields
        while !pending.isEmpty {
            for (field, label, value) in pending {
                let current = screen[keyPath: value]
                let shown = current.isEmpty ? "" : " [\(current.shown)]"
                guard let answer = terminal.ask("\(label)\(shown): ") else {
                    cancel(screen)
                    throw CLIError.cancelled("cancelled; nothing was saved")
                }
                if answer == "-" {
                    screen[keyPath: value] = ""
                } else if !answer.isEmpty {
                    screen[keyPath: value] = answer
                }
                for issue in issues(screen) where issue.field == field {
                    terminal.console.writeError("  \(label.lowercased()) \(issue.message)\n")
                }
            }
            let broken = Set(issues(screen).map(\.field))
            pending = fields.filter { broken.contains($0.field) }
        }
    }
}

extension FieldPrompts {
    /// Prompts for every text field of an edit screen's draft, as its description lists them.
    init<Record: DraftSaving>(terminal: Terminal) where Screen == DraftEditor<Record> {
        self.init(
            terminal: terminal,
            fields: Record.Draft.fields.compactMap { spec in
                spec.text.map { (spec.field, spec.label, (\DraftEditor<Record>.draft).appending(path: $0)) }
            },
            issues: { $0.issues }, isDirty: { $0.isDirty }, cancel: { $0.cancel() })
    }
}

extension FieldPrompts where Screen == EditContactViewModel {

    func fillContact(_ edit: EditContactViewModel) throws {
        terminal.console.writeError(Self.intro(edit))
        try fill(edit)
    }

    func fillContactAndConfirm(_ edit: EditContactViewModel, subject: String) throws -> Bool {
        terminal.console.writeError(Self.intro(edit))
        return try fillAndConfirm(edit, subject: subject)
    }

    private static func intro(_ edit: EditContactViewModel) -> String {
        edit.isNew
            ? "New contact (Enter skips a field; Ctrl-D cancels).\n"
            : "Editing \(edit.draft.name) (Enter keeps a value, - clears it; Ctrl-D cancels).\n"
    }
}
