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

            EXAMPLES:
              carnet history
              carnet history --limit 100 --json
              carnet history --keep 5000
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { keep != nil }
    @Option(help: ArgumentHelp("Show at most this many changes.", valueName: "n")) var limit = 20
    @Flag(help: "Print a JSON array.") var json = false
    @Option(help: ArgumentHelp("Keep the last N changes from now on (0 keeps none) and trim the rest now.", valueName: "n"))
    var keep: Int?

    func validate() throws {
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
}
