import ArgumentParser
import Foundation
import Testing
@testable import carnet

/// A contact is named on the command line by its id or by words that find it (the search of
/// `carnet list --search`): one match acts on it, several are listed with their ids (exit 80, or a
/// choice on a terminal), none says so (exit 66).
@Suite struct ContactNamesTests {
    /// Every command whose help shows a `<contact>`, found by walking the command table.
    static let commandsTakingAContact: [[String]] = helps.filter { $0.help.contains("<contact>") }.map(\.path)

    /// Every command of the table with its help.
    static let helps: [(path: [String], help: String)] = {
        var found: [(path: [String], help: String)] = []
        func walk(_ command: ParsableCommand.Type, path: [String]) {
            for sub in command.configuration.subcommands {
                let name = sub.configuration.commandName ?? ""
                found.append((path + [name], Carnet.helpMessage(for: sub, columns: 10_000)))
                walk(sub, path: path + [name])
            }
        }
        walk(Carnet.self, path: [])
        return found
    }()

    /// How each of them is run with WORDS naming the contact, and what its output says when it
    /// acted on Grace Hopper (id 1). A command the table misses fails the test below.
    static let invocations: [[String]: (arguments: [String], stdin: String?, says: String)] = [
        ["show"]: (["show", "WORDS"], nil, "Grace Hopper"),
        ["edit"]: (["edit", "WORDS", "--title", "Rear Admiral"], nil, "saved contact 1"),
        ["delete"]: (["delete", "WORDS", "--yes"], nil, "deleted contact 1"),
        ["favorite"]: (["favorite", "WORDS"], nil, "saved favorite 1"),
        ["unfavorite"]: (["unfavorite", "WORDS"], nil, "saved unfavorite 1"),
        ["move"]: (["move", "WORDS", "--to", "Work"], nil, "moved contact 1"),
        ["copy"]: (["copy", "WORDS", "--to", "Work"], nil, "copied contact 1"),
        ["merge"]: (["merge", "WORDS", "brewster"], nil, "merged 4 into contact 1"),
        ["group", "add-member"]: (["group", "add-member", "Climbers", "WORDS"], nil, "saved group 5: 1 member"),
        ["group", "remove-member"]: (["group", "remove-member", "Navy", "WORDS"], nil, "saved group 6: 0 members"),
        ["add-email"]: (["add-email", "--to-contact", "WORDS"], "From: Amazing Grace <amazing@example.com>\n\nhi\n", "saved contact 1"),
    ]

    /// Grace Hopper (1), two Adas (2, 3), Murray Brewster (4); Climbers (5, empty), Navy (6,
    /// Grace in it); Grace a favorite; a book Work.
    static func seeded() -> Sandbox {
        let box = Sandbox()
        // A copy of one seeded file: fifty cases need the same book.
        for name in try! FileManager.default.contentsOfDirectory(atPath: template.dir.path) where name.hasPrefix("book.sqlite") {
            try! FileManager.default.copyItem(atPath: template.path(name), toPath: box.path(name))
        }
        return box
    }

    nonisolated(unsafe) static let template: Sandbox = {
        let box = Sandbox()
        for step in [
            ["add", "--name", "Grace Hopper", "--email", "grace@example.org", "--phone", "+1 555 0100"],
            ["add", "--name", "Ada Lovelace", "--email", "ada@example.com"],
            ["add", "--name", "Ada King"],
            ["add", "--name", "Murray Brewster"],
            ["group", "add", "Climbers"], ["group", "add", "Navy"], ["group", "add-member", "Navy", "1"],
            ["favorite", "1"], ["book", "add", "Work"],
        ] {
            let run = box.carnetInProcess(step)
            precondition(run.status == 0, "\(step): \(run)")
        }
        return box
    }()

    static func run(_ command: [String], words: String, in box: Sandbox) -> Run {
        let invocation = invocations[command]!
        return box.carnetInProcess(invocation.arguments.map { $0 == "WORDS" ? words : $0 }, stdin: invocation.stdin)
    }

    @Test func theCommandTableHasCommandsTakingAContact() {
        #expect(Self.commandsTakingAContact.count >= 10, "\(Self.commandsTakingAContact)")
        #expect(Set(Self.commandsTakingAContact) == Set(Self.invocations.keys), "a command takes <contact> but the test has no invocation for it, or the reverse")
    }

    @Test(arguments: commandsTakingAContact)
    func oneMatchActsOnIt(command: [String]) {
        let box = Self.seeded()
        let run = Self.run(command, words: "hopper", in: box)
        #expect(run.status == 0 && run.stdout.contains(Self.invocations[command]!.says), "\(command): \(run)")
    }

    @Test(arguments: commandsTakingAContact)
    func anIdStaysAnId(command: [String]) {
        let box = Self.seeded()
        let run = Self.run(command, words: "1", in: box)
        #expect(run.status == 0 && run.stdout.contains(Self.invocations[command]!.says), "\(command): \(run)")
    }

    @Test(arguments: commandsTakingAContact)
    func severalMatchesAreListedWithTheirIdsAndExit80(command: [String]) {
        let box = Self.seeded()
        let before = box.carnetInProcess(["export", "--format", "json"]).stdout
        let run = Self.run(command, words: "ada", in: box)
        #expect(run.status == 80, "\(command): \(run)")
        #expect(run.stderr.contains("2 contacts match \"ada\""), "\(command): \(run)")
        #expect(run.stderr.contains("  2  Ada Lovelace  ada@example.com") && run.stderr.contains("  3  Ada King"), "\(command): \(run)")
        #expect(box.carnetInProcess(["export", "--format", "json"]).stdout == before, "\(command) changed the book")
    }

    @Test(arguments: commandsTakingAContact)
    func noMatchSaysSo(command: [String]) {
        let box = Self.seeded()
        let run = Self.run(command, words: "nobody", in: box)
        if command == ["group", "remove-member"] {
            // Words that find no one may be a member's UID from another file: it is no member.
            #expect(run.status == 65 && run.stderr.contains("nobody is not a member of Navy"), "\(run)")
        } else {
            #expect(run.status == 66 && run.stderr.contains("no contact matches \"nobody\""), "\(command): \(run)")
        }
    }

    @Test func digitsAreAnIdUnlessSearchSaysOtherwise() throws {
        let box = Self.seeded()
        // Every command with a single CONTACT takes --search, which searches for digits too.
        let withSearch = Self.helps.filter { $0.help.contains("<contact>") && $0.help.contains("--search <text>") }.map(\.path)
        #expect(withSearch.count >= 7, "\(withSearch)")
        for command in withSearch {
            let fresh = Self.seeded()
            var arguments = Self.invocations[command]!.arguments
            let at = arguments.firstIndex(of: "WORDS")!
            arguments.replaceSubrange(at...at, with: ["--search", "5550100"])
            let run = fresh.carnetInProcess(arguments, stdin: Self.invocations[command]!.stdin)
            #expect(run.status == 0 && run.stdout.contains(Self.invocations[command]!.says), "\(arguments): \(run)")
        }
        // Without --search, the same digits are an id no one has.
        #expect(box.carnetInProcess(["show", "5550100"]).status == 66)
    }

    @Test func aWholeNameIsTheOneMeantAmongNamesItStarts() {
        let box = Self.seeded()
        #expect(box.carnetInProcess(["add", "--name", "Ada Kingsley"]).status == 0)
        let run = box.carnetInProcess(["show", "Ada King"])
        #expect(run.status == 0 && run.stdout.hasPrefix("Ada King\n"), "\(run)")
        #expect(box.carnetInProcess(["show", "ada kings"]).stdout.hasPrefix("Ada Kingsley\n"))
    }

    @Test func aGroupIsShownByItsName() {
        let box = Self.seeded()
        let run = box.carnetInProcess(["show", "navy"])
        #expect(run.status == 0 && run.stdout.contains("Navy") && run.stdout.contains("Grace Hopper"), "\(run)")
    }

    @Test func mergeTakesAFieldFromTheContactNamedByItsWords() {
        let box = Self.seeded()
        #expect(box.carnetInProcess(["edit", "brewster", "--title", "Captain"]).status == 0)
        #expect(box.carnetInProcess(["edit", "hopper", "--title", "Admiral"]).status == 0)
        let run = box.carnetInProcess(["merge", "hopper", "brewster", "--take", "title=brewster"])
        #expect(run.status == 0, "\(run)")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Captain"))
        let twice = box.carnetInProcess(["merge", "hopper", "grace"])
        #expect(twice.status == 64 && twice.stderr.contains("contact 1 is named twice"), "\(twice)")
    }

    @Test func aTerminalOffersAChoice() {
        let box = Self.seeded()
        let feeder = box.write("answer.sh", "#!/bin/sh\nsleep 1\nprintf '2\\n'\nsleep 1\n")
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: feeder)
        let run = box.carnetOnTerminal(["show", "ada"], feeder: feeder)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("1)  Ada King  [3]") && run.stdout.contains("2)  Ada Lovelace  ada@example.com  [2]") && run.stdout.contains("Which one? (1-2, Enter cancels) 2"), "\(run)")
        #expect(run.stdout.contains("Ada Lovelace\n") && run.stdout.contains("Id               2"), "\(run)")
    }

    @Test func theLineModeOpensAContactByName() {
        let box = Self.seeded()
        let run = box.carnetInProcess(["interactive", "--line"], stdin: "open hopper\nback\nopen ada\nquit\n")
        #expect(run.stdout.contains("Grace Hopper") && run.stdout.contains("grace@example.org"), "\(run)")
        #expect(run.stdout.contains("error: 2 contacts match \"ada\""), "\(run)")
    }
}
