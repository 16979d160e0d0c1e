import ArgumentParser
import CarnetModels
import Foundation

// The contact's fields as flags. swift-argument-parser needs one stored property per option:
// `FieldFlags` and `FieldRemovalFlags` are written at build time from the field description
// (the GenerateFieldOptions plugin), one option per field, and `FieldFlag` gives each its name
// and help from the field's entry when the CLI runs. Applying them walks that description, so
// what a flag does is the model's rule, not this file's.

/// The names and help of the field flags, from the field description's entries.
enum FieldFlag {
    /// The entry whose flag is `flag` (every generated option names one).
    static func spec(_ flag: String) -> ContactFieldSpec {
        guard let spec = ContactFields.named(flag) else { preconditionFailure("no field description has the flag \(flag)") }
        return spec
    }

    /// `--given`.
    static func name(_ flag: String) -> NameSpecification { .customLong(flag) }

    /// A one-line field's help: its entry's.
    static func textHelp(_ flag: String) -> ArgumentHelp { ArgumentHelp(spec(flag).help, valueName: flag) }

    /// A list field's help: its entry's, repeatable.
    static func listHelp(_ flag: String) -> ArgumentHelp { ArgumentHelp(spec(flag).help + " Repeat for more.", valueName: flag) }

    /// `--remove-email`.
    static func removalName(_ flag: String) -> NameSpecification { .customLong("remove-" + flag) }

    static func removalHelp(_ flag: String) -> ArgumentHelp {
        let what = spec(flag).field == .address ? "address (written as shown, or as you gave it)" : flag
        return ArgumentHelp("Remove this \(what) (case ignored). Repeat for more.", valueName: flag)
    }
}

/// The editable fields as flags, shared by add and edit: one-line fields set the value (an empty
/// value clears it), list flags add an entry in the text form `[TYPE[,pref]:]VALUE`.
struct ContactFieldOptions: ParsableArguments {
    @OptionGroup var flags: FieldFlags
    @Option(help: ArgumentHelp(
        "Title and organization in one line, as older versions kept them: \"Sales, Gale Foods\" is title Sales at Gale Foods.",
        valueName: "position"))
    var position: String?
    @Option(help: ArgumentHelp("An image file: JPEG, PNG, GIF or WebP, at most 1 MiB.", valueName: "file")) var photo: String?

    /// The one-line and multi-line values given, by field.
    var texts: [Field: String] { flags.texts }

    /// The list entries given, by field.
    var entries: [Field: [String]] { flags.entries }

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
        if position != nil, texts[.title] != nil || texts[.organization] != nil {
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
    @OptionGroup var flags: FieldRemovalFlags

    /// The values to remove, by field.
    var values: [Field: [String]] { flags.values }

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
