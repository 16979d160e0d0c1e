import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct DatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Where the address book file is, what is in it, a backup, and a compaction.",
        discussion: """
            EXAMPLES:
              carnet db path
              carnet db info
              carnet db check
              carnet db repair
              carnet db backup ~/carnet-backup.sqlite
              carnet db compact
              carnet db phone-region GB
              sqlite3 "$(carnet db path)" 'SELECT name, email FROM contacts'
            """,
        subcommands: [Path.self, Info.self, Check.self, Repair.self, Reindex.self, Backup.self, Compact.self, PhoneRegion.self])
}
