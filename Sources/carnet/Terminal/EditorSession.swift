import CarnetModels
import CarnetSync
import CarnetViewModels
import Foundation
import Yams

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `carnet edit ID --editor`: the contact as a YAML template in $VISUAL or $EDITOR (every field of
/// the field description, khard-style), checked when the editor closes and reopened, with what
/// the person wrote and the errors marked above the lines they concern, until it is valid.
///
/// YAML because a contact now has lists and a multi-line note: a sequence of entries and a block
/// scalar are what people who edit khard's or any tool's YAML already know, and a real parser
/// (Yams) gives quoting, comments and errors with line numbers for free. Each list entry is
/// written as on the command line (`- work,pref:ada@example.com`); `- work: ada@example.com`, the
/// way YAML invites one to type it, is read the same.
@MainActor
struct EditorSession {
    let terminal: Terminal
    var environment: [String: String] { terminal.environment }

    /// The fields the template holds: all but the photo (a file, set with --photo).
    static var fields: [ContactFieldSpec] {
        ContactFields.all.filter { if case .photo = $0.value { false } else { true } }
    }

    /// Returns the file as the person left it when they changed the draft and it is valid; nil
    /// when they cancelled: closed the file unchanged, left no field line in it (emptied it, or
    /// only comments), or changed no value. A field whose line they deleted is cleared.
    /// With `acceptingUnchanged` (a merge, whose draft is already new), closing the file
    /// unchanged keeps the draft rather than cancelling.
    func edit(_ edit: EditContactViewModel, acceptingUnchanged: Bool = false) throws -> String? {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("contact.yaml")
        var written = Self.render(edit.draft, original: edit.original)
        while true {
            try Data(written.utf8).write(to: file)
            switch try Self.runInForeground(["/bin/sh", "-c", "\(editor) \"$1\"", "sh", file.path]) {
            case .exited(0):
                break
            case let .exited(status):
                edit.cancel()
                throw CLIError.cancelled("the editor exited with status \(status); contact unchanged")
            case let .signaled(signal):
                edit.cancel()
                throw CLIError.cancelled("the editor was ended by signal \(signal); contact unchanged")
            }
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if text == written {
                if acceptingUnchanged { return text }
                edit.cancel()
                return nil
            }
            switch Self.read(text, over: edit.draft) {
            case .cancelled:
                edit.cancel()
                return nil
            case let .errors(marked):
                written = marked
            case let .draft(draft, fieldLines, errors):
                let before = edit.draft
                edit.draft = draft
                let all = errors + edit.issues.map { ($0.description, fieldLines[$0.field]) }
                if !all.isEmpty {
                    edit.draft = before
                    written = Self.mark(text, errors: all)
                    continue
                }
                guard edit.isDirty else {
                    edit.cancel()
                    return nil
                }
                return text
            }
        }
    }

    typealias Ending = ForegroundProcess.Ending

    /// Runs the editor in the terminal's foreground, Ctrl-C its own (see `ForegroundProcess`).
    static func runInForeground(_ arguments: [String]) throws -> Ending {
        do {
            return try ForegroundProcess.run(arguments, interruptsAreTheChilds: true).ending
        } catch {
            throw CLIError(message: "cannot run the editor: \(error.message)", code: .other)
        }
    }

    // MARK: The template

    /// The template of `draft`: a header saying how to edit it, then `key: value` for each
    /// one-line field, each list as a sequence of entry texts under its help, and the note as a
    /// block scalar.
    static func render(_ draft: ContactDraft, original: Contact?) -> String {
        var lines = [
            "# \(original.map { "Contact \($0.id) (version \($0.version))" } ?? "New contact"), as YAML. Change the values, then save and close the file.",
            "# One-line fields are `key: value`; an empty value, or a deleted line, clears the field.",
            "# A list holds one entry per `  - ` line, written as on the command line: [TYPE[,pref]:]VALUE,",
            "# e.g. `  - work,pref:ada@example.com`. Delete an entry's line to remove it.",
            "# The note may span lines: `note: |`, then its lines indented by two spaces.",
            "# Lines starting with # are ignored. Close the file unchanged, or empty it, to cancel.",
            "",
        ]
        if let photo = draft.photo {
            lines.insert("# photo: \(ImageKind(of: photo)?.rawValue ?? "image"), \(photo.count) bytes (change it with --photo FILE or --no-photo)", at: lines.count - 1)
        }
        for spec in fields {
            switch spec.value {
            case let .text(keyPath):
                lines.append("\(spec.key):" + YAMLText.value(draft[keyPath: keyPath]))
            case let .multiline(keyPath):
                lines.append("")
                lines.append("# \(spec.label): \(spec.help)")
                lines += YAMLText.block(key: spec.key, draft[keyPath: keyPath])
            case let .list(list):
                lines.append("")
                lines.append("# \(spec.label): \(spec.help)")
                lines.append("\(spec.key):")
                for text in list.faithfulTexts(draft) { lines.append("  -" + YAMLText.value(text)) }
            case .photo:
                break
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Reading it back

    enum Reading {
        /// No field line is left (the file was emptied, or holds only comments): cancel.
        case cancelled
        /// What the person wrote, with `# ERROR` lines above what is wrong, to reopen.
        case errors(String)
        /// The draft the file describes, the line each field's key is on, and what could not be
        /// read (an unknown key, an entry in no known form), each with its line.
        case draft(ContactDraft, fieldLines: [Field: Int], errors: [(message: String, line: Int?)])
    }

    /// Reads the edited file over `draft` (which gives the photo, and says which of the display
    /// name and the structured name the person changed). A field that has no line is cleared.
    static func read(_ text: String, over draft: ContactDraft) -> Reading {
        let clean = unmarked(text)
        let node: Node?
        do {
            node = try Yams.compose(yaml: clean)
        } catch let error as YamlError {
            let (message, line) = describe(error)
            return .errors(mark(clean, errors: [(message, line)]))
        } catch {
            return .errors(mark(clean, errors: [("the file is not YAML: \(error)", nil)]))
        }
        guard let mapping = node?.mapping, !mapping.isEmpty else { return .cancelled }

        var next = draft
        var errors: [(message: String, line: Int?)] = []
        var lines: [Field: Int] = [:]
        var seen: [Field: String] = [:]
        for spec in fields {
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath): next[keyPath: keyPath] = ""
            case let .list(list): _ = list.replace(&next, [])
            case .photo: break
            }
        }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let line = keyNode.mark?.line
            guard let spec = ContactFields.named(key), fields.contains(where: { $0.field == spec.field }) else {
                let hint = key.lowercased() == "photo" ? "change the photo with --photo FILE or --no-photo" : "the fields are \(fields.map(\.key).joined(separator: ", "))"
                errors.append(("\(key.shown) is not a field here (\(hint))", line))
                continue
            }
            if let other = seen[spec.field] {
                errors.append(("\(key.shown) is given twice (also as \(other.shown)): keep one", line))
                continue
            }
            seen[spec.field] = key
            lines[spec.field] = line
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath):
                guard let string = scalar(value) else {
                    errors.append(("\(spec.key) must be text, not a list", line))
                    continue
                }
                next[keyPath: keyPath] = string
            case let .list(list):
                let items: [Node]
                if let sequence = value.sequence {
                    items = Array(sequence)
                } else if isNull(value) {
                    items = []
                } else {
                    items = [value]  // `phones: 555 0101`: one entry
                }
                for (index, item) in items.enumerated() {
                    let itemLine = item.mark?.line ?? line
                    guard let entry = entryText(item) else {
                        errors.append(("\(spec.key) entry \(index + 1) must be one line like \(spec.flag == "date" ? "birthday:1815-12-10" : "work:VALUE")", itemLine))
                        continue
                    }
                    if entry.isEmpty { continue }
                    if let error = list.add(&next, entry) {
                        errors.append(("\(spec.flag) \(index + 1) (\(entry.shown)): \(error.message)", itemLine))
                    }
                }
            case .photo:
                break
            }
        }
        // The display name and the structured name follow each other as on the command line:
        // a name changed alone brings the parts read from it, parts changed alone the name.
        let nameChanged = next.name != draft.name
        let partsChanged = next.nameParts != draft.nameParts
        if nameChanged && !partsChanged {
            let name = next.name
            next.name = draft.name
            next.rename(to: name)
        } else if partsChanged && !nameChanged {
            let parts = next.nameParts
            next.nameParts = draft.nameParts
            next.setNameParts(parts)
        }
        return .draft(next, fieldLines: lines, errors: errors)
    }

    /// A scalar's text as written (`yes` stays "yes", `007` stays "007"); "" for an empty value;
    /// nil for a list or a mapping.
    private static func scalar(_ node: Node) -> String? {
        guard let scalar = node.scalar else { return nil }
        return isNull(node) ? "" : scalar.string
    }

    private static func isNull(_ node: Node) -> Bool { node.tag.description == Tag.Name.null.rawValue }

    /// A list item's entry text: a scalar as written, or `TYPE: VALUE` (one key) read as `TYPE:VALUE`.
    private static func entryText(_ node: Node) -> String? {
        if let text = scalar(node) { return text }
        guard let pairs = node.mapping, pairs.count == 1, let (key, value) = pairs.first,
              let label = scalar(key), let text = scalar(value) else { return nil }
        return label + ":" + text
    }

    /// A parser's error as one line, and the line it points at.
    private static func describe(_ error: YamlError) -> (String, Int?) {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            // Marked above where the broken construct starts (the parser notices a line later).
            let during = context.map { " (\($0.text))" } ?? ""
            return ("not valid YAML: \(problem)\(during)", context?.mark.line ?? mark.line)
        default:
            return ("not valid YAML: \(error)", nil)
        }
    }

    /// The prefix of the lines `mark(_:errors:)` adds, removed before each reading.
    static let errorPrefix = "# ERROR "

    /// `text` without the error lines a previous round added.
    static func unmarked(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(errorPrefix) }.joined(separator: "\n")
    }

    /// `text` (already `unmarked(_:)`) with `# ERROR message` above each line an error is
    /// about, and those about no line (a required field whose line was deleted) at the top.
    static func mark(_ text: String, errors: [(message: String, line: Int?)]) -> String {
        var lines = unmarked(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let placed = errors.compactMap { error in error.line.map { ($0, error.message) } }.filter { $0.0 >= 1 && $0.0 <= lines.count }
        for (line, messages) in Dictionary(grouping: placed, by: \.0).sorted(by: { $0.key > $1.key }) {
            lines.insert(contentsOf: messages.map { errorPrefix + $0.1.shown }, at: line - 1)
        }
        let unplaced = errors.filter { error in !placed.contains { $0.1 == error.message } }.map { errorPrefix + $0.message.shown }
        return (unplaced + lines).joined(separator: "\n")
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

/// Values written into the template so that YAML reads them back exactly: plain where that is
/// safe, else double-quoted with escapes (which also keeps a terminal-moving character in a
/// hand-edited file from reaching the editor raw).
enum YAMLText {
    /// ` value` after a `key:` or `-` (a space and the scalar), or "" for an empty value.
    static func value(_ text: String) -> String {
        text.isEmpty ? "" : " " + scalar(text)
    }

    /// `key: |-` and the text's lines indented, for text with line breaks; `key: value` otherwise.
    static func block(key: String, _ text: String) -> [String] {
        guard text.contains("\n"), isPrintable(text, allowingNewlines: true) else { return ["\(key):" + value(text)] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indicator = lines.first?.first == " " ? "|2-" : "|-"
        return ["\(key): \(indicator)"] + lines.map { $0.isEmpty ? "" : "  " + $0 }
    }

    static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : quoted(text)
    }

    private static let indicators = Set("-?:,[]{}#&*!|>'\"%@`")
    private static let nulls: Set<String> = ["~", "null", "Null", "NULL"]

    /// Whether `text` reads back as itself written plain, in block context.
    static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.first, let last = text.last, !indicators.contains(first), first != " ", last != " ",
              !text.contains(": "), !text.contains(" #"), !text.hasSuffix(":"), !text.hasPrefix("..."), !nulls.contains(text)
        else { return false }
        return isPrintable(text, allowingNewlines: false)
    }

    private static func isPrintable(_ text: String, allowingNewlines: Bool) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            (allowingNewlines && scalar == "\n") || (!TextRules.needsEscapeForDisplay(scalar) && scalar != "\t" && scalar.value != 0x85)
        }
    }

    /// `"…"` with `\\`, `\"`, `\n`, `\t` and `\uXXXX` for every other character a line may not hold.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if TextRules.needsEscapeForDisplay(scalar) || scalar.value == 0x85 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += scalar.value > 0xFFFF ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                        : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
