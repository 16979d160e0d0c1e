import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct HistoryCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the changes made to the address book, newest first.",
        discussion: """
            Undone changes (what carnet redo brings back) are marked. The file keeps the last \
            1,000 changes unless --keep says otherwise; the table history in the file holds them \
            (sqlite3 "$(carnet db path)" 'SELECT id, time, summary FROM history').

            --prune-before DATE drops the changes made before DATE (a day, from its first moment \
            in local time, or a time such as 2026-01-01T09:30:00Z): they can no longer be undone. \
            Undo goes back newest first, so the changes after DATE undo as before; an undone \
            change, and every one after it, is kept, so what can be redone still can. The room \
            they took stays inside the file as free space (carnet db info): carnet db compact \
            gives it back to the disk.

            EXAMPLES:
              carnet history
              carnet history --limit 100 --json
              carnet history --keep 5000
              carnet history --prune-before 2026-01-01
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { keep != nil }
    @Option(help: ArgumentHelp("Show at most this many changes.", valueName: "n")) var limit = 20
    @Flag(help: "Print a JSON array.") var json = false
    @Option(help: ArgumentHelp("Keep the last N changes from now on (0 keeps none) and trim the rest now.", valueName: "n"))
    var keep: Int?
    @Option(help: ArgumentHelp("Drop the changes made before this day (YYYY-MM-DD, local time) or time (ISO 8601).", valueName: "date"))
    var pruneBefore: String?

    func validate() throws {
        if keep != nil && pruneBefore != nil { throw ValidationError("give --keep or --prune-before, not both") }
        if let pruneBefore { _ = try Self.moment(pruneBefore) }
        guard limit > 0 else { throw ValidationError("--limit must be a positive number (got \(limit))") }
        if let keep, !(0...1_000_000).contains(keep) {
            throw ValidationError("--keep must be between 0 and 1000000 (got \(keep))")
        }
    }

    /// One action in `--json`.
    struct Item: Encodable {
        let id: Int64
        let time: String
        let kind: String
        let subject: String
        let summary: String
        let undone: Bool
        let bytes: Int
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let history = HistoryViewModel(state: state, limit: limit)
        if let pruneBefore {
            let pruned = try history.prune(before: try Self.moment(pruneBefore))
            terminal.print(Self.pruneSummary(pruned, before: pruneBefore))
            return
        }
        if let keep {
            try history.setKeep(keep)
            terminal.print("saved history keep \(keep)")
            return
        }
        try history.onAppear()
        if json {
            let items = history.entries.map {
                Item(id: $0.id, time: Timestamp.string($0.time), kind: $0.kind.rawValue, subject: $0.subject, summary: $0.summary,
                     undone: $0.isUndone, bytes: $0.bytes)
            }
            terminal.print(try JSONOutput.string(items))
            return
        }
        if !terminal.stdoutIsTerminal {
            terminal.print("id\ttime\tsummary\tundone")
            for entry in history.entries {
                terminal.print("\(entry.id)\t\(Timestamp.string(entry.time))\t\(entry.summary.tsvField)\t\(entry.isUndone ? "undone" : "")")
            }
            return
        }
        guard !history.entries.isEmpty else {
            terminal.print("no changes recorded yet")
            return
        }
        let width = history.entries.map { String($0.id).count }.max() ?? 1
        for entry in history.entries {
            let id = String(repeating: " ", count: width - String(entry.id).count) + String(entry.id)
            let when = entry.time.localMinute
            let line = "\(id)  \(terminal.dim(when))  \(entry.summary.shown)"
            terminal.print(entry.isUndone ? line + "  " + terminal.dim("(undone)") : line)
        }
    }

    /// The moment a --prune-before value names: a day (its first moment, local time), or an
    /// ISO 8601 time with a zone (Z, +01:00) or without one (local time).
    static func moment(_ text: String) throws -> Date {
        let posix = Locale(identifier: "en_US_POSIX")
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss"] {
            let formatter = DateFormatter()
            formatter.locale = posix
            formatter.dateFormat = format
            formatter.isLenient = false
            // Only a date that exists: the formatter alone would take 2026-02-30 as 2 March.
            if let date = formatter.date(from: text), formatter.string(from: date) == text { return date }
        }
        throw ValidationError("--prune-before takes a day like 2026-01-01 or a time like 2026-01-01T09:30:00Z (got \(text))")
    }

    /// "dropped 12 actions (3.4 MB) older than 2026-01-01; undo reaches back to …", and that the
    /// file keeps its size.
    static func pruneSummary(_ pruned: HistoryPrune, before text: String) -> String {
        let dropped = pruned.actions == 0
            ? "no action is older than \(text)"
            : "dropped \(pruned.actions) action\(pruned.actions == 1 ? "" : "s") (\(ByteCount.text(pruned.bytes))) older than \(text)"
        let reach: String
        if let oldest = pruned.oldestKept {
            let action = "\(oldest.id) (\(oldest.time.localMinute)): \(oldest.summary.shown)"
            reach = oldest.isUndone ? "the oldest action kept is undone, \(action)" : "undo reaches back to \(action)"
        } else {
            reach = "the history is empty"
        }
        var lines = [dropped + "; " + reach]
        if pruned.actions > 0 {
            lines.append("the file keeps its size, \(ByteCount.text(pruned.freeBytes)) of it free now: carnet db compact gives that back")
        }
        return lines.joined(separator: "\n")
    }
}
