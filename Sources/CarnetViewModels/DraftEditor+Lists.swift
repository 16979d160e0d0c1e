import CarnetModels

/// The list fields of a draft (a contact's emails, phones, addresses, URLs, handles, dates,
/// categories and unmodelled properties), edited the way a screen binds a list: add an entry,
/// change one, remove one, move one, make one preferred. Every operation works on any list the
/// draft's field description (``CarnetModels/ContactFields``) lists, through its
/// ``CarnetModels/EntryList``, so a new list field needs nothing here.
///
/// Indexes are 0-based, as Swift's are; messages for people count from 1, as the draft's issues
/// do (`email: 2 (ada@) must look like name@example.com`).
///
/// An entry is validated as the draft validates it: an entry whose text can be read is kept even
/// when it breaks a rule (an email without a domain), and ``DraftEditor/issues`` names it, so the
/// screen shows it beside the entry and ``DraftEditor/save()`` refuses it until it is fixed or
/// removed. Text that cannot be read as an entry at all (a date that is not a date) and an index
/// the list does not have throw ``CarnetModels/CarnetError/invalid(_:)`` and change nothing.
extension DraftEditor {
    /// The list fields of this kind of draft, in field order (none for a quote).
    public static var listFields: [Field] {
        Record.Draft.fields.filter { $0.list != nil }.map(\.field)
    }

    /// Whether `field` is a list whose entries can be marked preferred (emails, phones,
    /// addresses, URLs, handles; not dates or categories).
    public static func hasPreferredEntry(_ field: Field) -> Bool {
        Record.Draft.fields.first { $0.field == field }?.list?.makePreferred != nil
    }

    /// The entries of `field` in their one-line text form, `[label[,pref]:]value`, in order (what
    /// ``addEntry(_:to:)`` and ``setEntry(at:to:in:)`` take back); empty for a field that is not a list.
    public func entries(in field: Field) -> [String] {
        Self.list(field)?.entries(draft) ?? []
    }

    /// The entries of `field` as a screen shows them: the value, and its type and whether it is
    /// preferred as the row's ``DetailRow/entryLabel`` (`work, preferred`).
    public func entryRows(in field: Field) -> [DetailRow] {
        guard let spec = Record.Draft.fields.first(where: { $0.field == field }), let list = spec.list else { return [] }
        return DetailRow.rows(of: list, in: draft, spec: spec)
    }

    /// Appends an entry read from `text` (`work:ada@example.com`, `home,pref:…`, or just the
    /// value) and returns its index. An entry marked preferred becomes the only preferred one.
    /// Blank text, or text that cannot be read as an entry, throws and changes nothing.
    @discardableResult
    public func addEntry(_ text: String, to field: Field) throws(CarnetError) -> Int {
        let list = try requireList(field)
        var changed = draft
        if let error = list.add(&changed, text) { throw .invalid([FieldIssue(field, error.message)]) }
        let index = list.count(changed) - 1
        try requireNotBlank(changed, field, list)
        draft = keepingOnePreferred(changed, list, at: index)
        return index
    }

    /// Replaces the entry at `index` with one read from `text`, in the same place. Blank text,
    /// text that cannot be read, or an index the list does not have throws and changes nothing.
    public func setEntry(at index: Int, to text: String, in field: Field) throws(CarnetError) {
        let list = try requireList(field)
        try requireIndex(index, field, list)
        var changed = draft
        if let error = list.add(&changed, text) { throw .invalid([FieldIssue(field, error.message)]) }
        try requireNotBlank(changed, field, list)
        _ = list.removeAt(&changed, index)
        list.move(&changed, list.count(changed) - 1, index)
        draft = keepingOnePreferred(changed, list, at: index)
    }

    /// Removes the entry at `index`. (With the preferred one gone and none marked, the first
    /// entry counts as preferred, as everywhere.)
    public func removeEntry(at index: Int, from field: Field) throws(CarnetError) {
        let list = try requireList(field)
        try requireIndex(index, field, list)
        _ = list.removeAt(&draft, index)
    }

    /// Removes every entry whose value (or whole text) is `text`, ignoring case, as
    /// `carnet edit --remove-email` does; returns how many were removed (0 changes nothing).
    @discardableResult
    public func removeEntries(matching text: String, from field: Field) throws(CarnetError) -> Int {
        let list = try requireList(field)
        var changed = draft
        let removed = list.remove(&changed, text)
        if removed > 0 { draft = changed }
        return removed
    }

    /// Moves the entry at `from` to `to`, shifting the ones between (both must be in the list).
    public func moveEntry(from: Int, to: Int, in field: Field) throws(CarnetError) {
        let list = try requireList(field)
        try requireIndex(from, field, list)
        try requireIndex(to, field, list)
        list.move(&draft, from, to)
    }

    /// Marks the entry at `index` preferred, and no other. Throws for a list without a
    /// preferred entry (see ``hasPreferredEntry(_:)``).
    public func makePreferred(at index: Int, in field: Field) throws(CarnetError) {
        let list = try requireList(field)
        guard let makePreferred = list.makePreferred else {
            throw .invalid([FieldIssue(field, "has no preferred entry: its entries are kept in the order given")])
        }
        try requireIndex(index, field, list)
        makePreferred(&draft, index)
    }

    // MARK: Checks shared by the operations

    private static func list(_ field: Field) -> EntryList<Record.Draft>? {
        Record.Draft.fields.first { $0.field == field }?.list
    }

    private func requireList(_ field: Field) throws(CarnetError) -> EntryList<Record.Draft> {
        guard let list = Self.list(field) else { throw .invalid([FieldIssue(field, "is not a list")]) }
        return list
    }

    private func requireIndex(_ index: Int, _ field: Field, _ list: EntryList<Record.Draft>) throws(CarnetError) {
        let count = list.count(draft)
        guard index < 0 || index >= count else { return }
        let has = count == 0 ? "it has none" : count == 1 ? "it has 1" : "it has \(count)"
        throw .invalid([FieldIssue(field, "has no entry \(index + 1); \(has)")])
    }

    /// Refuses an entry that saving would drop as blank (`work:` without a value): the screen
    /// would show a row that vanishes on save.
    private func requireNotBlank(_ changed: Record.Draft, _ field: Field, _ list: EntryList<Record.Draft>) throws(CarnetError) {
        if list.count(changed.normalized()) == list.count(draft.normalized()) {
            throw .invalid([FieldIssue(field, "an entry must not be blank")])
        }
    }

    /// `changed` with the entry at `index` the only preferred one, if it was marked preferred.
    /// Marking an entry preferred changes its text unless it already was, so that tells.
    private func keepingOnePreferred(_ changed: Record.Draft, _ list: EntryList<Record.Draft>, at index: Int) -> Record.Draft {
        guard let makePreferred = list.makePreferred else { return changed }
        var preferred = changed
        makePreferred(&preferred, index)
        return list.entries(preferred)[index] == list.entries(changed)[index] ? preferred : changed
    }
}
