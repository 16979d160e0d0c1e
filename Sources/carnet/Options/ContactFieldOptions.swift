import ArgumentParser
import CarnetModels
import Foundation

// The contact's fields as flags. swift-argument-parser needs one stored property per option, so
// the fields Carnet had when the flags were written are declared here once; their names and help
// come from the field description (`ContactFields`: `flag`, `help`), and applying them walks that
// description, so what a flag does is the model's rule, not this file's. A one-line field added
// to the description since has no property here: its flag (`--pronouns she/her`) is read from
// the arguments the parser leaves over (`described`), by the entry's own flag, and listed in the
// help from the entries.

/// The field description's entry for `field` (every editable contact field has one).
private func spec(_ field: Field) -> ContactFieldSpec {
    guard let spec = ContactFields.spec(field) else { preconditionFailure("no field description for \(field)") }
    return spec
}

/// `--given`, with the field description's help.
private func textOption(_ field: Field) -> (NameSpecification, ArgumentHelp) {
    let spec = spec(field)
    return (.customLong(spec.flag), ArgumentHelp(spec.help, valueName: spec.flag))
}

/// `--email`, repeatable, with the field description's help.
private func listOption(_ field: Field) -> (NameSpecification, ArgumentHelp) {
    let spec = spec(field)
    return (.customLong(spec.flag), ArgumentHelp(spec.help + " Repeat for more.", valueName: spec.flag))
}

/// `--remove-email`, repeatable.
private func removeOption(_ field: Field) -> (NameSpecification, ArgumentHelp) {
    let spec = spec(field)
    let what = spec.field == .address ? "address (written as shown, or as you gave it)" : spec.flag
    return (.customLong("remove-" + spec.flag), ArgumentHelp("Remove this \(what) (case ignored). Repeat for more.", valueName: spec.flag))
}

/// The editable fields as flags, shared by add and edit: one-line fields set the value (an empty
/// value clears it), list flags add an entry in the text form `[TYPE[,pref]:]VALUE`.
struct ContactFieldOptions: ParsableArguments {
    @Option(name: textOption(.name).0, help: textOption(.name).1) var name: String?
    @Option(name: textOption(.prefix).0, help: textOption(.prefix).1) var prefix: String?
    @Option(name: textOption(.given).0, help: textOption(.given).1) var given: String?
    @Option(name: textOption(.additional).0, help: textOption(.additional).1) var additional: String?
    @Option(name: textOption(.family).0, help: textOption(.family).1) var family: String?
    @Option(name: textOption(.suffix).0, help: textOption(.suffix).1) var suffix: String?
    @Option(name: textOption(.nickname).0, help: textOption(.nickname).1) var nickname: String?
    @Option(name: textOption(.organization).0, help: textOption(.organization).1) var organization: String?
    @Option(name: textOption(.department).0, help: textOption(.department).1) var department: String?
    @Option(name: textOption(.title).0, help: textOption(.title).1) var title: String?
    @Option(name: textOption(.role).0, help: textOption(.role).1) var role: String?
    @Option(help: ArgumentHelp(
        "Title and organization in one line, as older versions kept them: \"Sales, Gale Foods\" is title Sales at Gale Foods.",
        valueName: "position"))
    var position: String?
    // `.unconditional`: a value may start with a dash (`--date --06-01`, a phone `-`).
    @Option(name: listOption(.email).0, parsing: .unconditionalSingleValue, help: listOption(.email).1) var email: [String] = []
    @Option(name: listOption(.phone).0, parsing: .unconditionalSingleValue, help: listOption(.phone).1) var phone: [String] = []
    @Option(name: listOption(.address).0, parsing: .unconditionalSingleValue, help: listOption(.address).1) var address: [String] = []
    @Option(name: listOption(.url).0, parsing: .unconditionalSingleValue, help: listOption(.url).1) var url: [String] = []
    @Option(name: listOption(.handle).0, parsing: .unconditionalSingleValue, help: listOption(.handle).1) var handle: [String] = []
    @Option(name: listOption(.date).0, parsing: .unconditionalSingleValue, help: listOption(.date).1) var date: [String] = []
    @Option(name: textOption(.note).0, help: textOption(.note).1) var note: String?
    @Option(name: listOption(.category).0, parsing: .unconditionalSingleValue, help: listOption(.category).1) var category: [String] = []
    @Option(help: ArgumentHelp("An image file: JPEG, PNG, GIF or WebP, at most 1 MiB.", valueName: "file")) var photo: String?
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp(Self.describedHelp, valueName: "--field value"))
    var described: [String] = []

    /// The one-line fields of the description that have no property above, flagged from their entry.
    static let describedFields: [ContactFieldSpec] = {
        let declared: Set<Field> = [.name, .prefix, .given, .additional, .family, .suffix, .nickname, .organization, .department, .title, .role, .note]
        return ContactFields.text.map(\.spec).filter { !declared.contains($0.field) }
    }()

    static var describedHelp: String {
        "More fields, each as --FLAG VALUE: " + describedFields.map { "--\($0.flag) (\($0.help.hasSuffix(".") ? String($0.help.dropLast()) : $0.help))" }.joined(separator: "; ") + "."
    }

    /// The values given to `describedFields`' flags (`--pronouns she/her`, `--gender=F`); a
    /// usage error for anything else left over.
    func describedValues() throws -> [Field: String] {
        var values: [Field: String] = [:]
        var rest = described[...]
        while let argument = rest.popFirst() {
            let (flag, inline) = argument.hasPrefix("--")
                ? (argument.dropFirst(2).split(separator: "=", maxSplits: 1).first.map(String.init) ?? "",
                   argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) })
                : ("", nil)
            guard let spec = Self.describedFields.first(where: { $0.flag == flag }) else {
                throw ValidationError(argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
            }
            guard let value = inline ?? rest.popFirst() else { throw ValidationError("missing value for '--\(spec.flag) <\(spec.flag)>'") }
            values[spec.field] = value
        }
        return values
    }

    /// The one-line and multi-line values given, by field.
    var texts: [Field: String] {
        let all: [(Field, String?)] = [
            (.name, name), (.prefix, prefix), (.given, given), (.additional, additional), (.family, family),
            (.suffix, suffix), (.nickname, nickname), (.organization, organization), (.department, department),
            (.title, title), (.role, role), (.note, note),
        ]
        let given = Dictionary(uniqueKeysWithValues: all.compactMap { field, value in value.map { (field, $0) } })
        return given.merging((try? describedValues()) ?? [:]) { first, _ in first }
    }

    /// The list entries given, by field.
    var entries: [Field: [String]] {
        [.email: email, .phone: phone, .address: address, .url: url, .handle: handle, .date: date, .category: category]
            .filter { !$0.value.isEmpty }
    }

    var isEmpty: Bool { texts.isEmpty && entries.isEmpty && position == nil && photo == nil }

    /// The keys of the field description's fields that no flag here sets: a test holds this to
    /// the unmodelled vCard properties alone (an import brings them; no one types them).
    static func fieldsWithoutFlags() -> [String] {
        ContactFields.all.compactMap { spec in
            if case .photo = spec.value { return nil }  // --photo takes a file, tested on its own
            guard let parsed = try? parse(["--\(spec.flag)", "x"]),
                  parsed.texts[spec.field] != nil || parsed.entries[spec.field] != nil
            else { return spec.key }
            return nil
        }
    }

    func validate() throws {
        _ = try describedValues()
        if position != nil, title != nil || organization != nil {
            throw ValidationError("--position sets title and organization: give it alone, or --title and --organization")
        }
    }

    /// Sets the given fields on `draft`. The display name goes through `rename(to:)` and the
    /// structured name through `setNameParts(_:)`, so each follows the other as the model says
    /// (a name part given alongside --name leaves the display name as given). A list flag adds
    /// its entry (see `EntryMerge`). Throws a usage error for an entry whose text cannot be read.
    func apply(to draft: inout ContactDraft) throws {
        let texts = texts
        if let name = texts[.name] { draft.rename(to: name) }
        var next = draft
        for spec in ContactFields.all where spec.field != .name {
            guard let value = texts[spec.field] else { continue }
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath): next[keyPath: keyPath] = value
            case .photo, .list: break
            }
        }
        if next.nameParts != draft.nameParts && texts[.name] == nil {
            let parts = next.nameParts
            next.nameParts = draft.nameParts
            next.setNameParts(parts)
        }
        draft = next
        if let position { draft.position = position }
        let entries = entries
        for (spec, list) in ContactFields.lists {
            for text in entries[spec.field] ?? [] {
                try EntryMerge.add(text, to: list, of: spec, in: &draft)
            }
        }
        if let photo { draft.photo = try PhotoFile.read(photo) }
    }
}

/// `--remove-email ADDRESS` and the like, for `carnet edit`.
struct ContactRemovalOptions: ParsableArguments {
    @Option(name: removeOption(.email).0, parsing: .unconditionalSingleValue, help: removeOption(.email).1) var removeEmail: [String] = []
    @Option(name: removeOption(.phone).0, parsing: .unconditionalSingleValue, help: removeOption(.phone).1) var removePhone: [String] = []
    @Option(name: removeOption(.address).0, parsing: .unconditionalSingleValue, help: removeOption(.address).1) var removeAddress: [String] = []
    @Option(name: removeOption(.url).0, parsing: .unconditionalSingleValue, help: removeOption(.url).1) var removeUrl: [String] = []
    @Option(name: removeOption(.handle).0, parsing: .unconditionalSingleValue, help: removeOption(.handle).1) var removeHandle: [String] = []
    @Option(name: removeOption(.date).0, parsing: .unconditionalSingleValue, help: removeOption(.date).1) var removeDate: [String] = []
    @Option(name: removeOption(.category).0, parsing: .unconditionalSingleValue, help: removeOption(.category).1) var removeCategory: [String] = []

    /// The values to remove, by field.
    var values: [Field: [String]] {
        [.email: removeEmail, .phone: removePhone, .address: removeAddress, .url: removeUrl, .handle: removeHandle,
         .date: removeDate, .category: removeCategory]
            .filter { !$0.value.isEmpty }
    }

    var isEmpty: Bool { values.isEmpty }

    /// The keys of the lists that no `--remove-…` flag here removes from (for a test).
    static func listsWithoutRemoval() -> [String] {
        ContactFields.lists.compactMap { spec, _ in
            guard let parsed = try? parse(["--remove-\(spec.flag)", "x"]), parsed.values[spec.field] != nil else { return spec.key }
            return nil
        }
    }

    /// Removes each value given; one that the contact does not have is a usage error naming
    /// what it has, so a typo never passes for a removal.
    func apply(to draft: inout ContactDraft) throws {
        let values = values
        for (spec, list) in ContactFields.lists {
            for text in values[spec.field] ?? [] {
                guard list.remove(&draft, TextRules.trimmed(text)) == 0 else { continue }
                // As given to --address (`work:1 Main St; Portland`): the value it reads as.
                if case let .success(entry) = ReadEntry.read(text, list), list.remove(&draft, entry.value) > 0 { continue }
                let present = list.display(draft).map { "\"\($0.value.shown)\"" }
                let has = present.isEmpty ? "it has none" : "it has " + present.joined(separator: ", ")
                throw CLIError.usage("--remove-\(spec.flag) \"\(text.shown)\": no such \(spec.flag) on this contact (\(has))")
            }
        }
    }
}

/// How one entry given on the command line (or typed at a prompt) joins a list: the list's own
/// parser reads it, and it is added unless the list already holds that value (compared as
/// `--remove-…` compares, ignoring case), in which case a type or `pref` given with it is set
/// on the entry that is there. A preferred entry becomes the only preferred one. For dates, a
/// birthday or an anniversary replaces the one the contact has (one person, one birthday).
enum EntryMerge {
    static func add<Draft: EditableDraft>(
        _ text: String, to list: EntryList<Draft>, of spec: DraftField<Draft>, in draft: inout Draft
    ) throws {
        let entry: ReadEntry
        switch ReadEntry.read(text, list) {
        case let .success(read): entry = read
        case let .failure(error):
            throw CLIError.usage("--\(spec.flag) \"\(text.shown)\": \(error.message)")
        }
        guard !entry.value.isEmpty else {
            let why = TextRules.trimmed(text).isEmpty ? "is empty" : "has no value after the type"
            throw CLIError.usage("--\(spec.flag) \"\(text.shown)\" \(why)")
        }
        let shown = list.display(draft)
        let index: Int
        if let same = shown.firstIndex(where: { $0.value.lowercased() == entry.value.lowercased() }) {
            guard !entry.label.isEmpty || entry.preferred else { return }  // already there, nothing said about it
            list.replace(at: same, with: entry.text, in: &draft)
            index = same
        } else if list.kind == .date, list.kind.knownTypes.contains(entry.label),
                  let same = shown.firstIndex(where: { $0.label == entry.label }) {
            list.replace(at: same, with: entry.text, in: &draft)
            index = same
        } else {
            _ = list.add(&draft, entry.text)
            index = list.count(draft) - 1
        }
        if entry.preferred { list.makePreferred?(&draft, index) }
    }
}

/// One entry read from its text by the list's own parser, with its parts as a screen shows them.
struct ReadEntry {
    /// The entry as the list writes it (`work,pref:ada@example.com`).
    let text: String
    /// The type or label alone (`work`), or empty.
    let label: String
    /// The value as `--remove-…` and a detail screen see it.
    let value: String
    let preferred: Bool

    static func read<Draft: EditableDraft>(_ text: String, _ list: EntryList<Draft>) -> Result<ReadEntry, EntryError> {
        var scratch = Draft()
        if let error = list.add(&scratch, text) { return .failure(error) }
        guard let shown = list.display(scratch).first, let canonical = list.entries(scratch).first else {
            return .failure(EntryError("cannot be read"))
        }
        // The display label is the type and "preferred", joined by ", " (see the field description).
        var label = shown.label
        var preferred = false
        if label == "preferred", canonical.hasPrefix("pref:") {
            label = ""
            preferred = true
        } else if label.hasSuffix(", preferred"), canonical.hasPrefix(String(label.dropLast(11)) + ",pref:") {
            label = String(label.dropLast(11))
            preferred = true
        }
        return .success(ReadEntry(text: list.faithfulText(scratch, at: 0), label: label, value: shown.value, preferred: preferred))
    }
}

extension EntryList where Draft: EditableDraft {
    /// The text of the entry at `index` such that reading it back gives the same entry: its
    /// entry text, or, for an unlabelled value that would read as `label:value` (an `xmpp:` handle,
    /// a street with a colon), that text behind an empty label (`:xmpp:ada@example.com`).
    func faithfulText(_ draft: Draft, at index: Int) -> String {
        let text = entries(draft)[index]
        let original = display(draft)[index]
        var scratch = Draft()
        guard add(&scratch, text) == nil, let reread = display(scratch).first else { return text }
        if reread == original || !original.label.isEmpty { return text }
        return ":" + text
    }

    /// Every entry's `faithfulText(_:at:)`.
    func faithfulTexts(_ draft: Draft) -> [String] {
        (0..<count(draft)).map { faithfulText(draft, at: $0) }
    }

    /// Puts the entry read from `text` at `index`, in place of the one there.
    func replace(at index: Int, with text: String, in draft: inout Draft) {
        guard index < count(draft) else { return }
        _ = removeAt(&draft, index)
        guard add(&draft, text) == nil else { return }
        move(&draft, count(draft) - 1, index)
    }
}

enum PhotoFile {
    static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CLIError(message: "photo: cannot read \(path): no such file", code: .invalidData)
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        if size > Limits.photoBytes {
            throw CarnetError.invalid([FieldIssue(.photo, "must be at most \(Limits.photoBytes) bytes (got \(size))")])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError(message: "photo: cannot read \(path): permission denied", code: .invalidData)
        }
        return data
    }
}
