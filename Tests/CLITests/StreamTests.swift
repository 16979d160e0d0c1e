import Foundation
import Testing

/// One convention for where each line goes: a command's data and its confirmation (`saved …`,
/// `deleted …`) on stdout, one line each; errors, questions and notices on stderr; and when
/// stdout carries the data (an export to stdout), no confirmation at all.
@Suite struct StreamTests {
    let box = Sandbox()

    @Test func everyConfirmationIsOneLineOnStdoutAndStderrStaysEmpty() {
        box.carnetInProcess(["sample"])
        let commands: [([String], String)] = [
            (["add", "--name", "Ada Lovelace"], "saved contact 6"),
            (["edit", "6", "--email", "ada@example.com"], "saved contact 6"),
            (["favorite", "6"], "saved favorite 6 at 1"),
            (["unfavorite", "6"], "saved unfavorite 6"),
            (["quote", "add", "--text", "Less is more."], "saved quote 2"),
            (["quote", "use", "1"], "saved current quote 1"),
            (["quote", "delete", "2"], "deleted quote 2"),
            (["delete", "6", "--yes"], "deleted contact 6"),
            (["export", "--output", box.path("out.json")], "saved export: 5 contacts to \(box.path("out.json"))"),
            (["import", box.path("out.json")], "saved import: added 0, updated 0, unchanged 5, skipped 0"),
            (["db", "backup", box.path("copy.sqlite")], "saved backup \(box.path("copy.sqlite"))"),
        ]
        for (arguments, line) in commands {
            let run = box.carnetInProcess(arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(run.stdout == line + "\n", "\(arguments): \(run)")
            #expect(run.stderr.isEmpty, "\(arguments): \(run)")
        }
    }

    @Test func anExportToStdoutIsTheDataAlone() {
        box.carnetInProcess(["sample"])
        let run = box.carnetInProcess(["export", "--format", "csv"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("uid,name,"), "\(run)")
        #expect(!run.stdout.contains("saved"), "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
    }
}
