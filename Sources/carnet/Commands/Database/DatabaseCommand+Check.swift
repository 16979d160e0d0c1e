import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct Check: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check the file: SQLite's integrity, the schema, and every value against the rules (exit 69 on a problem).",
            discussion: """
                Prints ok, or one line per problem: damaged pages, broken foreign keys, a missing \
                index or a table whose constraints were changed, a wrong user_version, and each value \
                (table, row, field, rule) that breaks a rule Carnet enforces.
                """)

        @OptionGroup var database: DatabaseOption

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let database = DatabaseViewModel(state: state)
            let problems = try database.check()
            if problems == ["ok"] {
                terminal.print("ok")
            } else {
                for problem in problems { terminal.print(problem.shown) }
                throw CLIError(message: "\(database.path) failed its integrity check", code: .databaseUnusable)
            }
        }
    }
}
