import CarnetModels

/// What a write tells the history about itself.
struct HistoryNote {
    var kind: HistoryKind
    var subject: String
    var summary: String

    init(_ kind: HistoryKind, subject: String, _ summary: String) {
        self.kind = kind
        self.subject = String(subject.prefix(200))
        self.summary = String(summary.prefix(1000))
    }
}

extension HistoryNote {
    /// "edited Ada Lovelace: phone, email" (the name before the edit).
    static func edit(_ contact: Contact, to draft: ContactDraft) -> HistoryNote {
        let fields = draft.differences(from: contact.draft).map(\.rawValue).joined(separator: ", ")
        return HistoryNote(.edit, subject: contact.name, fields.isEmpty ? "edited \(contact.name)" : "edited \(contact.name): \(fields)")
    }

    /// The start of a quote, on one line, for a summary.
    static func excerpt(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 60 ? "“\(line)”" : "“\(line.prefix(59))…”"
    }

    /// "1 contact", "1,204 contacts".
    static func count(_ n: Int, _ noun: String) -> String {
        "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// 1204 as "1,204", whatever the locale (the history is read in the file, by anyone).
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (n < 0 ? "-" : "") + out
    }
}
