import CarnetModels
import CarnetViewModels
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// `carnet edit ID --editor`: the contact as a readable template in $VISUAL or $EDITOR,
/// checked when the editor closes and reopened with the errors marked until it is valid.
@MainActor
struct EditorSession {
    let terminal: Terminal
    var environment: [String: String] { terminal.environment }

    /// The template's `key: value` lines: every text field of ``ContactFields``.
    static let keys: [(String, WritableKeyPath<ContactDraft, String>, Field)] =
        ContactFields.text.map { ($0.spec.key, $0.keyPath, $0.spec.field) }

    /// Returns the file as the person left it when they changed the draft and it is valid; nil
    /// when they cancelled: closed the file unchanged, left no field line in it (emptied it), or
    /// changed no value. A field whose line they deleted is cleared.
    func edit(_ edit: EditContactViewModel) throws -> String? {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("contact.txt")
        var errors: [FieldIssue] = []
        var unknown: [String] = []
        while true {
            let template = render(edit, errors: errors, unknown: unknown)
            try Data(template.utf8).write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(editor) \"$1\"", "sh", file.path]
            do {
                try process.run()
            } catch {
                throw CLIError(message: "cannot start the editor \(editor): \(error.localizedDescription)", code: .other)
            }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                edit.cancel()
                throw CLIError.cancelled("the editor exited with status \(process.terminationStatus); contact unchanged")
            }
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            let (values, lines) = parse(text)
            if text == template || values.isEmpty {
                edit.cancel()
                return nil
            }
            for (key, keyPath, _) in Self.keys { edit.draft[keyPath: keyPath] = values[key] ?? "" }
            unknown = lines
            errors = edit.issues
            if errors.isEmpty && unknown.isEmpty {
                guard edit.isDirty else {
                    edit.cancel()
                    return nil
                }
                return text
            }
        }
    }

    private func render(_ edit: EditContactViewModel, errors: [FieldIssue], unknown: [String]) -> String {
        var lines = [
            "# Editing contact \(edit.original.map { "\($0.id) (version \($0.version))" } ?? "(new)").",
            "# Change the values after the colons, then save and close the file. An empty value, or",
            "# a deleted line, clears that field. Lines starting with # are ignored.",
            "# Close without changes, or empty the file, to cancel.",
        ]
        if let photo = edit.draft.photo {
            lines.append("# photo: \(ImageKind(of: photo)?.rawValue ?? "image"), \(photo.count) bytes (change it with --photo FILE or --no-photo)")
        }
        for line in unknown { lines.append("# ERROR not a field (use \(Self.keys.map(\.0).joined(separator: ", "))): \(line)") }
        for (key, keyPath, field) in Self.keys {
            for issue in errors where issue.field == field { lines.append("# ERROR \(issue)") }
            lines.append("\(key): \(edit.draft[keyPath: keyPath])")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `key: value` lines of the file by key (the last wins), and the lines that are
    /// neither fields, comments nor blank.
    private func parse(_ text: String) -> (values: [String: String], unknown: [String]) {
        var values: [String: String] = [:]
        var unknown: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard let colon = line.firstIndex(of: ":"),
                  let entry = Self.keys.first(where: { $0.0 == line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() })
            else {
                unknown.append(String(line))
                continue
            }
            values[entry.0] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return (values, unknown)
    }

    /// Keeps the text of an edit that could not be saved in a new private file (mode 0600) in
    /// the temporary directory, `carnet-contact-ID-edit-TIME.txt`, and returns its path.
    nonisolated static func keep(_ text: String, contactID: Int64) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = FileManager.default.temporaryDirectory
            .appendingPathComponent("carnet-contact-\(contactID)-edit-\(formatter.string(from: Date()))").path
        for attempt in 1...100 {
            let path = stem + (attempt == 1 ? "" : "-\(attempt)") + ".txt"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw CLIError(message: "cannot write \(path): \(String(cString: strerror(errno)))", code: .other)
            }
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
            return path
        }
        throw CLIError(message: "cannot write \(stem).txt: too many files of that name", code: .other)
    }
}
