import Foundation
import Testing

/// `--help` as a person reads it in a terminal of any width.
@Suite struct HelpTests {
    let box = Sandbox()

    static let commands: [[String]] = [
        [], ["list"], ["show"], ["add"], ["edit"], ["delete"], ["favorite"], ["unfavorite"], ["favorites"], ["birthdays"],
        ["quote"], ["quote", "edit"], ["quote", "add"], ["quote", "list"], ["quote", "use"], ["quote", "delete"],
        ["import"], ["export"], ["sample"], ["db"], ["db", "backup"], ["db", "compact"], ["history"], ["interactive"],
        ["duplicates"], ["merge"],
        ["book"], ["book", "delete"], ["move"], ["copy"], ["email"], ["phone"], ["group", "add-member"],
    ]

    /// No line is wider than the terminal, and a line that had to wrap continues under its own
    /// column: text at column 0 never directly follows an indented line (it would read as a new
    /// paragraph, or as part of the one above).
    @Test(arguments: [80, 60, 44])
    func helpWrapsEachLineUnderItsOwnColumn(width: Int) {
        for command in Self.commands {
            let run = box.carnetInProcess(command + ["--help"], environment: ["COLUMNS": String(width)], useDB: false)
            #expect(run.status == 0, "\(command): \(run)")
            let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() {
                // (Only a word longer than the room left, such as a path, may stick out.)
                let oneWord = !line.trimmingCharacters(in: .whitespaces).contains(" ")
                #expect(line.count < width || oneWord, "\(command) at \(width): \(line)")
                guard index > 0, let first = line.first, first != " " else { continue }
                let previous = lines[index - 1]
                #expect(!previous.hasPrefix(" "), "\(command) at \(width): \"\(line)\" continues \"\(previous)\" at column 0")
            }
        }
    }

    @Test func aLongExampleContinuesIndentedAndScriptsAreNotRewrapped() {
        let run = box.carnetInProcess(["quote", "--help"], environment: ["COLUMNS": "80"], useDB: false)
        #expect(run.stdout.contains("  carnet quote edit --text \"Stay hungry, stay foolish.\" --author \"Stewart\n      Brand\""), "\(run)")
        let exits = box.carnetInProcess(["--help"], environment: ["COLUMNS": "60"], useDB: false)
        #expect(exits.stdout.contains("  64  usage: a wrong flag, argument or number, or a search\n      over 1000 characters"), "\(exits)")
        // A completion script is printed exactly as generated, whatever the width.
        let wide = box.carnetInProcess(["--generate-completion-script", "bash"], environment: ["COLUMNS": "1000"], useDB: false)
        let narrow = box.carnetInProcess(["--generate-completion-script", "bash"], environment: ["COLUMNS": "40"], useDB: false)
        #expect(narrow.status == 0 && narrow.stdout == wide.stdout && narrow.stdout.hasPrefix("#!/bin/bash"), "\(narrow)")
    }
}
