import CarnetModels
import CarnetViewModels

/// The edit form: every field of the field description (`ContactFields`) as a row, each list's
/// entries one per row with their labels and a row to add one, over a draft editor. A field
/// added to the description appears here with nothing to change. The draft is the editor's:
/// leaving without saving drops it, and a save that meets another writer's change merges theirs
/// in and shows both values where both changed.
@MainActor
final class EditForm {
    enum Target: Equatable {
        case text(Field)
        case note(Field)
        case entry(Field, Int)
        case addEntry(Field)
    }

    struct Row {
        let target: Target
        let label: String
        let value: String
        let entryLabel: String
    }

    let editor: EditContactViewModel
    let subject: String
    private(set) var cursor = 0
    var top = 0
    /// The row being typed into, and the text so far (nil when none is).
    private(set) var typing: (target: Target, text: String)?

    init(editor: EditContactViewModel, subject: String) {
        self.editor = editor
        self.subject = subject
    }

    /// The fields the form holds: all but the photo (a file: `carnet edit --photo`).
    static var fields: [ContactFieldSpec] {
        ContactFields.all.filter { if case .photo = $0.value { false } else { true } }
    }

    var rows: [Row] {
        var rows: [Row] = []
        let draft = editor.draft
        for spec in Self.fields {
            switch spec.value {
            case let .text(keyPath):
                rows.append(Row(target: .text(spec.field), label: spec.label, value: draft[keyPath: keyPath], entryLabel: ""))
            case let .multiline(keyPath):
                rows.append(Row(target: .note(spec.field), label: spec.label,
                                value: draft[keyPath: keyPath].replacingOccurrences(of: "\n", with: " ↵ "), entryLabel: ""))
            case .list:
                for (index, entry) in editor.entryRows(in: spec.field).enumerated() {
                    rows.append(Row(target: .entry(spec.field, index), label: index == 0 ? spec.label : "", value: entry.value,
                                    entryLabel: entry.entryLabel))
                }
                rows.append(Row(target: .addEntry(spec.field), label: editor.entries(in: spec.field).isEmpty ? spec.label : "",
                                value: "", entryLabel: ""))
            case .photo:
                break
            }
        }
        return rows
    }

    func move(by delta: Int) {
        cursor = min(max(cursor + delta, 0), max(0, rows.count - 1))
    }

    func moveToFirst() { cursor = 0 }
    func moveToLast() { cursor = max(0, rows.count - 1) }

    /// The next row (after the cursor, wrapping) whose field's label starts with `letter`.
    func jump(to letter: Character) {
        let rows = rows
        guard !rows.isEmpty else { return }
        let labels = rows.map { row -> String in
            switch row.target {
            case let .text(field), let .note(field), let .entry(field, _), let .addEntry(field):
                return ContactFields.spec(field)?.label ?? row.label
            }
        }
        // A field that holds something first: what one comes to change is usually there
        // (P goes to Phones before an empty Prefix or Pronouns); then any.
        for filledOnly in [true, false] {
            for step in 1...rows.count {
                let index = (cursor + step) % rows.count
                let startsField = index == 0 || labels[index] != labels[index - 1]
                let isFilled = !rows[index].value.isEmpty
                if startsField, !filledOnly || isFilled, labels[index].lowercased().first == Character(letter.lowercased()) {
                    cursor = index
                    return
                }
            }
        }
    }

    /// Starts typing into the highlighted row: its value (a list entry's without its type,
    /// which is kept), or nothing for a new entry.
    func beginTyping() {
        let rows = rows
        guard cursor < rows.count else { return }
        let row = rows[cursor]
        switch row.target {
        case .note: typing = (row.target, editor.draft[keyPath: noteKeyPath(row.target)])
        case .addEntry: typing = (row.target, "")
        default: typing = (row.target, row.value)
        }
    }

    private func noteKeyPath(_ target: Target) -> WritableKeyPath<ContactDraft, String> {
        if case let .note(field) = target, let keyPath = ContactFields.spec(field)?.multilineText { return keyPath }
        return \.note
    }

    /// A key while typing: text, Backspace, Ctrl-U (clears), Ctrl-O (a line break in a note),
    /// Enter (puts it in the draft), Esc (leaves the row as it was).
    func type(_ key: Key) throws(CarnetError) {
        guard case (let target, var text)? = typing else { return }
        switch key {
        case .control("w"):
            while text.last == " " { text.removeLast() }
            while let last = text.last, last != " " { text.removeLast() }
        case .control("o"): if case .note = target { text.append("\n") }
        case .escape:
            typing = nil
            return
        case .enter:
            try commit(target, text)
            typing = nil
            return
        default: _ = key.edit(&text)
        }
        typing = (target, text)
    }

    private func commit(_ target: Target, _ text: String) throws(CarnetError) {
        switch target {
        case let .text(field):
            guard let keyPath = ContactFields.spec(field)?.text else { return }
            editor.draft[keyPath: keyPath] = text
        case .note:
            editor.draft[keyPath: noteKeyPath(target)] = text
        case let .entry(field, index):
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return try editor.removeEntry(at: index, from: field) }
            try editor.setEntry(at: index, to: entryText(field, index, value: text), in: field)
        case let .addEntry(field):
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            try editor.addEntry(text, to: field)
        }
    }

    /// The entry's text with `value` in place of its value: its type and preferred mark stay
    /// (typing a new number must not make a work phone a phone of no type).
    private func entryText(_ field: Field, _ index: Int, value: String) -> String {
        let texts = editor.entries(in: field)
        let shown = editor.entryRows(in: field)
        guard index < texts.count, index < shown.count, texts[index].hasSuffix(shown[index].value) else { return value }
        return String(texts[index].dropLast(shown[index].value.count)) + value
    }

    /// Removes the highlighted entry, or clears the highlighted field.
    func clear() throws(CarnetError) {
        let rows = rows
        guard cursor < rows.count else { return }
        switch rows[cursor].target {
        case let .text(field):
            if let keyPath = ContactFields.spec(field)?.text { editor.draft[keyPath: keyPath] = "" }
        case .note:
            editor.draft[keyPath: noteKeyPath(rows[cursor].target)] = ""
        case let .entry(field, index):
            try editor.removeEntry(at: index, from: field)
        case .addEntry:
            break
        }
        cursor = min(cursor, max(0, self.rows.count - 1))
    }

    /// The messages of the draft's rules for `row`'s field, shown beside its first row.
    func messages(for row: Row) -> [String] {
        switch row.target {
        case let .text(field), let .note(field): return editor.messages(for: field)
        case let .entry(field, index): return index == 0 ? editor.messages(for: field) : []
        case let .addEntry(field): return editor.entries(in: field).isEmpty ? editor.messages(for: field) : []
        }
    }

    /// The other writer's version when a save met it (their changes are merged into the draft).
    private var conflict: Conflict<Contact>?

    /// Saves the draft. When another writer saved the contact meanwhile, their changes are merged
    /// in (`ConflictResolution.reload`), nothing is written, and the fields both changed show
    /// their value beside this draft's (`theirs(for:)`): saving again keeps this draft's,
    /// `takeTheirs()` on a row takes theirs. Returns nil then.
    func save() throws(CarnetError) -> Contact? {
        do {
            return try editor.save()
        } catch {
            guard case .conflict = error else { throw error }
            conflict = editor.conflict
            _ = try editor.resolve(.reload)
            return nil
        }
    }

    /// The fields both this draft and the other writer changed.
    var clashes: [Field] { conflict == nil ? [] : editor.clashes }

    /// Takes the other writer's value for the highlighted row's field.
    func takeTheirs() {
        let rows = rows
        guard cursor < rows.count else { return }
        switch rows[cursor].target {
        case let .text(field), let .note(field), let .entry(field, _), let .addEntry(field):
            if clashes.contains(field) { editor.takeTheirs(field) }
        }
    }

    /// Where another writer's value differs from this draft after a conflict was merged in.
    func theirs(for row: Row) -> String? {
        guard let conflict else { return nil }
        switch row.target {
        case let .text(field), let .note(field):
            guard editor.clashes.contains(field), let spec = ContactFields.spec(field) else { return nil }
            return spec.string(of: conflict.current.draft)
        case let .entry(field, 0), let .addEntry(field):
            guard editor.clashes.contains(field), let spec = ContactFields.spec(field) else { return nil }
            if case .addEntry = row.target, !editor.entries(in: field).isEmpty { return nil }
            return spec.texts(of: conflict.current.draft).joined(separator: "; ")
        default:
            return nil
        }
    }
}
