import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct Info: StateCommand {
        static let configuration = CommandConfiguration(commandName: "info", abstract: "Schema version, counts, settings, and what takes the file's space.")

        @OptionGroup var database: DatabaseOption
        @Flag(help: "Print a JSON object.") var json = false

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let info = try DatabaseViewModel(state: state).info()
            if json {
                terminal.print(try JSONOutput.string(info))
                return
            }
            terminal.print("""
                path:         \(info.path)
                schema:       \(info.schemaVersion) (this carnet knows up to \(info.supportedSchemaVersion))
                migrations:   \(info.migrations.joined(separator: ", "))
                contacts:     \(info.contacts)
                groups:       \(info.groups)
                favorites:    \(info.favorites)
                quotes:       \(info.quotes)
                size:         \(info.fileBytes) bytes (\(ByteCount.text(info.fileBytes)))
                """)
            if let space = info.space {
                for line in Self.spaceLines(space, fileBytes: info.fileBytes) { terminal.print(line) }
            }
            terminal.print("journal:      \(info.journalMode), synchronous \(info.synchronous)")
            if let phoneRegion = info.phoneRegion {
                terminal.print("phone region: \(phoneRegion.summary)")
            }
            if info.repairedValues > 0 {
                terminal.print("repaired:     \(info.repairedValues) values an upgrade brought within the rules; originals in the repaired_values table")
            }
        }

        /// The size's parts, under it: each in bytes with its share of the whole.
        static func spaceLines(_ space: DatabaseSpace, fileBytes: Int64) -> [String] {
            func line(_ name: String, _ bytes: Int64, _ note: String = "") -> String {
                let share = space.total > 0 ? Int((Double(bytes) * 100 / Double(space.total)).rounded()) : 0
                return "  " + (name + ":").padding(toLength: 12, withPad: " ", startingAt: 0) + "\(bytes) bytes (\(share)%\(note))"
            }
            var lines = [
                line("data", space.data), line("indexes", space.indexes), line("search", space.searchIndex),
                line("history", space.history), line("free", space.free, space.free > 0 ? "; carnet db compact gives it back" : ""),
            ]
            // Changes still in the log (another connection's, or this run's own) are in the parts,
            // not yet in the file.
            if space.total != fileBytes {
                lines.append("  (the parts add up to \(space.total) bytes: the log holds changes not yet copied into the file)")
            }
            return lines
        }
    }
}
