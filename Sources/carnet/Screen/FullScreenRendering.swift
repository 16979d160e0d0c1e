import CarnetModels
import CarnetViewModels

extension FullScreen {
    /// The smallest window the screen is drawn in; below it, a banner asks for more.
    static let minimumSize = (rows: 12, columns: 40)
    /// From this width the highlighted card's details show beside the list.
    static let sideBySideColumns = 80

    /// The screen at `rows` × `columns`: the tab bar, the title line, the list (with the
    /// highlighted card beside it when the window is wide enough) or a detail, and the status
    /// line. Reads the view models and remembers the body's height for paging; changes nothing else.
    func render(rows: Int, columns: Int) -> Frame {
        var frame = Frame(rows: rows, columns: columns)
        guard rows >= Self.minimumSize.rows, columns >= Self.minimumSize.columns else {
            frame.put("window too small", .error, row: 0)
            frame.put("carnet needs \(Self.minimumSize.columns)×\(Self.minimumSize.rows)", row: min(1, rows - 1))
            return frame
        }
        renderTabs(&frame)
        let body = 2..<(rows - 1)
        setBodyRows(body.count)
        if showsHelp {
            renderHelp(&frame, body: body)
        } else if case let .form(form) = panes.last {
            renderForm(&frame, form, body: body)
        } else if case let .merge(merge) = panes.last {
            renderMerge(&frame, merge, body: body)
        } else if case let .detail(detail) = panes.last {
            frame.put([Span(detail.contact.name, .heading)] + (detail.isFavorite ? [Span("  ★ favorite", .heading)] : []), row: 1)
            renderDetail(&frame, detail.contact, detail: detail, body: body, column: 0, width: columns, top: currentDetailTop)
        } else if let list {
            renderList(&frame, list, body: body)
        }
        renderStatus(&frame, row: rows - 1)
        return frame
    }

    private func renderTabs(_ frame: inout Frame) {
        var spans: [Span] = []
        let wide = frame.columns >= 96
        for candidate in ScreenTab.allCases {
            let isCurrent = candidate == tab
            let label = wide || isCurrent ? "\(candidate.rawValue + 1) \(candidate.title)" : "\(candidate.rawValue + 1)"
            spans.append(Span(" \(label) ", isCurrent ? .selected : .plain))
        }
        frame.put(spans, row: 0)
    }

    private func renderList(_ frame: inout Frame, _ list: ListView, body: Range<Int>) {
        let search = list.contacts?.search ?? ""
        var title = [Span(list.title, .heading)] + (list.count.isEmpty ? [] : [Span("  \(list.count)", .dim)])
        if isTyping || !search.isEmpty { title.append(Span("   /" + search + (isTyping ? "▏" : ""), .bold)) }
        frame.put(title, row: 1)

        // The list is built once per frame: `highlighted` would build it again.
        let cursor = list.rows.isEmpty ? 0 : cursor(in: list)
        let highlightedContact: Contact? = {
            guard !list.rows.isEmpty, case let .contact(contact) = list.rows[cursor].opening else { return nil }
            return contact
        }()
        let sideBySide = frame.columns >= Self.sideBySideColumns && list.contacts != nil
        let listWidth = sideBySide ? max(30, frame.columns * 2 / 5) : frame.columns
        guard !list.rows.isEmpty else {
            frame.put(list.empty, .dim, row: body.lowerBound, column: 1)
            return
        }
        let top = scrolledTop(list: list, cursor: cursor, height: body.count)
        for (offset, row) in list.rows[top...].prefix(body.count).enumerated() {
            let index = top + offset
            let style: CellStyle = index == cursor ? .selected : .plain
            var spans = row.spans.map { span in index == cursor ? Span(verbatim: span.text, .selected) : span }
            if list.contacts != nil, let id = Int64(row.id), marked.contains(id) {
                spans[0] = Span(verbatim: "•" + String(spans[0].text.dropFirst()), index == cursor ? .selected : .heading)
            }
            frame.put([Span(" ", style)] + spans + [Span("", style)], row: body.lowerBound + offset, width: listWidth - (sideBySide ? 1 : 0))
        }
        if list.hasEarlier, top == 0 { frame.put("↑ more", .dim, row: body.lowerBound, column: listWidth - 8, width: 7) }
        if sideBySide {
            for row in body { frame.put("│", .dim, row: row, column: listWidth) }
            if let contact = highlightedContact {
                let detail = (list.contacts ?? app.contacts).detail(for: contact)
                frame.put(contact.name, .bold, row: body.lowerBound, column: listWidth + 2, width: frame.columns - listWidth - 2)
                renderDetail(&frame, contact, detail: detail, body: (body.lowerBound + 1)..<body.upperBound,
                             column: listWidth + 2, width: frame.columns - listWidth - 2, top: 0)
            }
        }
    }

    /// The contact's fields by section, as the field description orders them: a section's title,
    /// then `label  value` per value (a list entry's type beside it, a note's lines each on a row).
    private func renderDetail(_ frame: inout Frame, _ contact: Contact, detail: ContactDetailViewModel, body: Range<Int>,
                              column: Int, width: Int, top: Int) {
        var lines: [[Span]] = []
        if detail.isDeleted { lines.append([Span("This contact was deleted.", .error)]) }
        for section in detail.sections {
            if !lines.isEmpty { lines.append([]) }
            lines.append([Span(section.title, .heading)])
            let labelWidth = min(14, max(8, width / 3))
            for row in section.rows {
                let label = (row.index == nil || row.index == 0) && row.label != section.title ? row.label : ""
                let values = row.value.split(separator: "\n", omittingEmptySubsequences: false)
                for (index, value) in values.enumerated() {
                    var spans = [Span(ScreenText.fit(index == 0 ? label : "", labelWidth) + " ", .dim), Span(String(value))]
                    if index == 0, !row.entryLabel.isEmpty { spans.append(Span("  (\(row.entryLabel))", .dim)) }
                    lines.append(spans)
                }
            }
        }
        for (offset, line) in lines.dropFirst(min(top, max(0, lines.count - 1))).prefix(body.count).enumerated() {
            frame.put(line, row: body.lowerBound + offset, column: column, width: width)
        }
    }

    /// The form: `label  value` per row, the highlighted one as a bar (with the text being typed
    /// and a cursor), a rule's message beside the field it concerns, another writer's value
    /// beside a field both changed.
    private func renderForm(_ frame: inout Frame, _ form: EditForm, body: Range<Int>) {
        var title = [Span(form.editor.isNew ? "New contact" : "Editing \(form.subject)", .heading)]
        if form.editor.isDirty { title.append(Span("  changed", .message)) }
        title.append(Span("  Enter types · s saves · Esc leaves · A–Z jumps", .dim))
        frame.put(title, row: 1)
        let rows = form.rows
        let labelWidth = min(16, max(10, frame.columns / 5))
        if form.cursor < form.top { form.top = form.cursor }
        if form.cursor >= form.top + body.count { form.top = form.cursor - body.count + 1 }
        for (offset, row) in rows.dropFirst(form.top).prefix(body.count).enumerated() {
            let index = form.top + offset
            let isCursor = index == form.cursor
            var spans = [Span(" " + ScreenText.fit(row.label, labelWidth) + " ", isCursor ? .selected : .dim)]
            if isCursor, let typing = form.typing {
                spans.append(Span(typing.text.replacingOccurrences(of: "\n", with: " ↵ ") + "▏", .bold))
            } else if case .addEntry = row.target {
                spans.append(Span("+ add", isCursor ? .selected : .dim))
            } else {
                spans.append(Span(row.value, isCursor ? .selected : .plain))
                if !row.entryLabel.isEmpty { spans.append(Span("  (\(row.entryLabel))", isCursor ? .selected : .dim)) }
            }
            for message in form.messages(for: row) { spans.append(Span("  ✗ " + message, .error)) }
            if let theirs = form.theirs(for: row) { spans.append(Span("  theirs: " + theirs, .message)) }
            if isCursor, form.typing == nil { spans.append(Span("", .selected)) }
            frame.put(spans, row: body.lowerBound + offset)
        }
    }

    /// The merge: the contacts merged (the first is kept), then each field they disagree on with
    /// every value, the one kept highlighted; lists are united and need no question.
    private func renderMerge(_ frame: inout Frame, _ merge: MergeContactsViewModel, body: Range<Int>) {
        frame.put([Span("Merging ", .heading), Span(merge.contacts.map(\.name).joined(separator: " · "), .heading),
                   Span("  ←/→ choose · s merges · Esc leaves", .dim)], row: 1)
        var row = body.lowerBound
        let names = merge.contacts.map { "\($0.name) (\($0.id))" }
        frame.put([Span("Kept: ", .dim), Span(names.first ?? ""), Span("; lists are united, every entry kept", .dim)], row: row)
        row += 2
        if merge.questions.isEmpty { frame.put("They agree on every one-valued field: s merges.", .dim, row: row) }
        let labelWidth = min(16, max(10, frame.columns / 5))
        for (index, question) in merge.questions.enumerated() where row < body.upperBound {
            var spans = [Span(" " + ScreenText.fit(question.label, labelWidth) + " ", index == mergeRow ? .selected : .dim)]
            for choice in question.choices {
                let kept = choice.contactIndex == question.chosen
                spans.append(Span(choice.value, kept ? (index == mergeRow ? .selected : .bold) : .dim))
                spans.append(Span("   "))
            }
            frame.put(spans, row: row)
            row += 1
        }
        for issue in merge.issues where row < body.upperBound {
            frame.put("✗ " + issue.description, .error, row: row)
            row += 1
        }
    }

    private func renderHelp(_ frame: inout Frame, body: Range<Int>) {
        frame.put([Span("Keys", .heading), Span("  (any other key closes this; j/k scroll)", .dim)], row: 1)
        var lines: [[Span]] = []
        for binding in ScreenKeys.table {
            let keys = binding.keys.count > 6
                ? "\(binding.keys[0].label)…\(binding.keys[binding.keys.count - 1].label)"
                : binding.keys.map(\.label).joined(separator: " ")
            lines.append([Span(ScreenText.fit(keys, 22), .bold), Span(" " + binding.help)])
        }
        let top = min(helpScroll, max(0, lines.count - body.count))
        for (offset, line) in lines.dropFirst(top).prefix(body.count).enumerated() {
            frame.put(line, row: body.lowerBound + offset, column: 1)
        }
    }

    private func renderStatus(_ frame: inout Frame, row: Int) {
        if let asking {
            frame.put([Span(asking.label, .bold), Span(asking.text + "▏")], row: row)
        } else if let question {
            frame.put(question.text, .bold, row: row)
        } else if let message {
            frame.put(message.text, message.isError ? .error : .message, row: row)
        } else if case let .form(form) = panes.last, form.typing != nil {
            frame.put("Enter puts it in · Esc leaves the row as it was · Ctrl-U clears · Ctrl-O a line break (note)", .dim, row: row)
        } else if isTyping {
            frame.put("type to search · Enter keeps it · Esc clears it", .dim, row: row)
        } else {
            var hints = ["? keys", "q quit"]
            if case .form = panes.last { hints = ["Enter type", "s save", "d clear", "Esc leave"] + hints }
            else if case .merge = panes.last { hints = ["↑/↓ field", "←/→ value", "s merge", "e $EDITOR", "Esc leave"] + hints }
            else if case .detail = panes.last { hints = ["c change", "e $EDITOR", "f favorite", "d delete", "Esc back"] + hints }
            else if list?.contacts != nil { hints = ["/ search", "Enter open", "c change", "a add", "f favorite"] + hints }
            else { hints = ["Enter open", "Tab next tab"] + hints }
            if let undo = app.history.undoTitle { hints.append("u \(undo)") }
            frame.put(hints.joined(separator: "  "), .dim, row: row)
        }
    }
}
