import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct BirthdaysCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "birthdays",
        abstract: "List the birthdays and anniversaries of the coming year.",
        discussion: """
            Every date labelled birthday or anniversary (carnet add --date birthday:1815-12-10) that \
            falls from today to --days days ahead (a year unless told), soonest first, with the age reached or the years \
            since when the date has a year. 29 February falls on 28 February in other years.

            On a terminal: aligned columns. Otherwise: tab-separated lines with a header (date, \
            days, id, name, label, years), for scripts; --json prints an array of objects.

            EXAMPLES:
              carnet birthdays
              carnet birthdays --days 7
              carnet birthdays --from 2026-08-01 --days 31
              carnet birthdays --json
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var book: BookOption
    // A year: khard lists every birthday, and a month ahead hid most of them from people who
    // came from it.
    @Option(parsing: .unconditional, help: ArgumentHelp("How many days ahead: 0 (today only) to 366. Default: 365.", valueName: "n"))
    var days = 365
    @Option(help: ArgumentHelp("Count from this day instead of today (YYYY-MM-DD).", valueName: "date"))
    var from: String?
    @Flag(help: "Print a JSON array.") var json = false

    func validate() throws {
        guard (0...366).contains(days) else { throw ValidationError("--days must be from 0 to 366 (got \(days))") }
        if let from { _ = try Self.day(from) }
    }

    /// A `YYYY-MM-DD` day that exists.
    static func day(_ text: String) throws -> DateComponents {
        guard let parsed = ContactDate.parseDate(text), let year = parsed.year,
              ContactDate(label: "", year: year, month: parsed.month, day: parsed.day).isRealDate
        else { throw ValidationError("--from takes a date like 2026-08-01 (got \(text))") }
        return DateComponents(year: year, month: parsed.month, day: parsed.day)
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        // Birthdays are Gregorian dates, whatever calendar the machine's locale prefers.
        let calendar = Calendar(identifier: .gregorian)
        var start = Date()
        if let from, let date = calendar.date(from: try Self.day(from)) { start = date }
        let upcoming = UpcomingDatesViewModel(state: state, book: try book.resolved(state))
        try upcoming.load(within: days, from: start, calendar: calendar)
        let rows = upcoming.rows
        if json {
            let lines = try rows.map { try JSONOutput.line(UpcomingDateJSON($0)) }
            terminal.print(lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n]")
        } else if terminal.stdoutIsTerminal {
            terminal.print(Self.table(rows, days: days, terminal: terminal), terminator: "")
        } else {
            var out = "date\tdays\tid\tname\tlabel\tyears\n"
            for row in rows {
                out += [Self.dayText(row.next), String(row.daysAway), String(row.contact.id), row.contact.name.tsvField,
                        row.date.label.tsvField, row.years.map(String.init) ?? ""].joined(separator: "\t") + "\n"
            }
            terminal.print(out, terminator: "")
        }
    }

    static func dayText(_ day: DateComponents) -> String {
        String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    /// `today`, `tomorrow`, `in 12 days`.
    static func when(_ daysAway: Int) -> String {
        switch daysAway {
        case 0: "today"
        case 1: "tomorrow"
        default: "in \(daysAway) days"
        }
    }

    /// `birthday (turns 211)`, `anniversary (10 years)`, or the label alone without a year.
    static func what(_ row: UpcomingDate) -> String {
        guard let years = row.years else { return row.date.label }
        let count = row.date.label == ContactDate.birthday ? "turns \(years)" : "\(years) year\(years == 1 ? "" : "s")"
        return "\(row.date.label) (\(count))"
    }

    static func table(_ rows: [UpcomingDate], days: Int, terminal: Terminal) -> String {
        guard !rows.isEmpty else {
            let span = days == 0 ? "today" : days == 1 ? "today or tomorrow" : "in the next \(days) days"
            return terminal.dim("No birthdays or anniversaries \(span).") + "\n"
        }
        let headers = ["DATE", "WHEN", "ID", "NAME", "WHAT"]
        let cells = rows.map { [dayText($0.next), when($0.daysAway), String($0.contact.id), $0.contact.name.shown, what($0)] }
        return TextTable.render(headers, cells, rightAligned: [2], terminal: terminal) + "\n"
    }
}

/// One coming date as `carnet birthdays --json` prints it.
struct UpcomingDateJSON: Encodable {
    /// The contact's id and display name.
    let id: Int64
    let name: String
    /// `birthday` or `anniversary`.
    let label: String
    /// The date as the contact holds it: `1815-12-10`, or `--12-10` without a year.
    let date: String
    /// The day it falls on next, `YYYY-MM-DD`.
    let next: String
    /// 0 for today.
    let daysAway: Int
    /// The age reached or the years since, when the date has a year; null otherwise.
    let years: Int?

    init(_ row: UpcomingDate) {
        id = row.contact.id
        name = row.contact.name
        label = row.date.label
        date = row.date.dateText
        next = BirthdaysCommand.dayText(row.next)
        daysAway = row.daysAway
        years = row.years
    }

    enum CodingKeys: String, CodingKey { case id, name, label, date, next, daysAway, years }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(label, forKey: .label)
        try c.encode(date, forKey: .date)
        try c.encode(next, forKey: .next)
        try c.encode(daysAway, forKey: .daysAway)
        if let years { try c.encode(years, forKey: .years) } else { try c.encodeNil(forKey: .years) }
    }
}
