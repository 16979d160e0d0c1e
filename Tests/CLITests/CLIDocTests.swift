import Foundation
import Testing

/// docs/cli.md matches the binary: its first block of commands runs in its own order, and every
/// `console` block's command lines print what the page shows after them (times, UIDs and a
/// sandbox's path masked; `…` ends what is compared of an answer; `echo $?` is the status).
@Suite struct CLIDocTests {
    static var page: String {
        (try? String(contentsOf: GuideTests.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)) ?? ""
    }

    /// The lines of the page's blocks that open with `opening` (```sh, ```console), joined where a
    /// line ends in `\`.
    static func blocks(_ opening: String) -> [[String]] {
        page.components(separatedBy: "\n" + opening + "\n").dropFirst().map { rest in
            let body = rest.components(separatedBy: "\n```")[0].replacingOccurrences(of: "\\\n", with: " ")
            return body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The first block, as a newcomer types it: every line runs, but those that need a terminal,
    /// a server or a file of their own (carnet add alone, interactive, sync, add-email < FILE).
    @Test func theOpeningCommandsRunInTheirOwnOrder() throws {
        let box = Sandbox()
        let lines = try #require(Self.blocks("```sh").first)
        var ran = 0
        for line in lines where !line.isEmpty {
            let words = GuideTests.shellWords(line)
            #expect(words.first == "carnet", "\(line)")
            let skipped = words == ["carnet", "add"] || line.contains("<") || ["interactive", "sync"].contains(words.dropFirst().first ?? "")
            guard !skipped else { continue }
            // No --db: the book a newcomer gets, under the sandbox's HOME.
            let run = box.carnet(Array(words.dropFirst()), useDB: false, cwd: box.dir.path)
            #expect(run.status == 0, "docs/cli.md: \(line)\n\(run)")
            ran += 1
        }
        #expect(ran >= 20)
    }

    /// What each console block needs in the book before its first line, keyed by that line, and
    /// whether it is read on a terminal (a table) or through a pipe.
    static let setups: [String: (steps: [[String]], terminal: Bool)] = [
        "carnet list --json": ([
            ["add", "--name", "Madison Thompson", "--title", "Sales", "--organization", "Gale Foods", "--email", "work,pref:madison@example.com",
             "--email", "home:madison@home.example", "--phone", "cell:555 0101", "--address", "work:200 Harbor Way; Seattle; WA; 98104; USA",
             "--date", "birthday:1988-03-14", "--category", "work"],
            ["favorite", "1"],
        ], false),
        "carnet show hopper": ([
            ["add", "--name", "Grace Hopper", "--email", "grace@example.org", "--phone", "+1 555 0100"],
            ["add", "--name", "Ada Lovelace", "--email", "ada@example.com"], ["add", "--name", "Ada King"],
        ], false),
        "carnet add --name \"Sam Doe\" --pronouns they/them --gender \"O;non-binary\"": ([], false),
        "carnet add --name \"Ada Lovelace\" --expertise expert:mathematics --expertise poetry --hobby high:riding": ([], false),
        "carnet query ada": ([
            ["add", "--name", "Ada Lovelace", "--email", "home,pref:ada@home.example", "--email", "work:ada@example.com",
             "--organization", "Analytical Engines"],
            ["add", "--name", "Zed Note", "--email", "zed@example.org", "--note", "Ada's friend"],
            ["add", "--name", "Hopper, Grace", "--email", "grace@example.org"],
            ["group", "add", "Climbing club"], ["group", "add-member", "Climbing club", "lovelace", "hopper"],
        ], false),
        "carnet edit 1 --phone \"work:555 0101\"": ([["add", "--name", "Ada Lovelace"]], true),
        "carnet db phone-region GB": ([], false),
        "carnet duplicates": (adas, false),
    ]

    /// Three spellings of Ada Lovelace and Grace Hopper, in a file whose phone region is GB: the
    /// duplicates and merge sections' book.
    static let adas: [[String]] = [
        ["db", "phone-region", "GB"],
        ["add", "--name", "Ada Lovelace", "--email", "work:ada@example.com", "--title", "Analyst"],
        ["add", "--name", "Lovelace, Ada", "--email", "home:ADA@example.com", "--phone", "+44 20 7946 0000", "--title", "Countess"],
        ["add", "--name", "ada lovelace", "--phone", "020 7946 0000", "--note", "Met in 1833"],
        ["add", "--name", "Grace Hopper", "--email", "grace@navy.example"],
    ]

    /// What each of the page's other ```sh blocks needs in the book before its first line (a
    /// block is a walk through its section, run in order), keyed by that line; nil: not run here
    /// (it writes outside the sandbox).
    static let walks: [String: [[String]]?] = [
        "mkdir -p ~/.local/share/bash-completion/completions": nil,
        "# ~/.muttrc (neomutt: ~/.neomuttrc): Ctrl-T completes in the To: prompt, Q queries": nil,
        "carnet book list": [["add", "--name", "Ada Lovelace", "--email", "ada@example.com"]],
        "carnet group add \"Climbing club\"": (1...7).map { ["add", "--name", "Person \($0)", "--email", "p\($0)@example.org"] },
        "carnet merge 1 2": adas,
        "carnet db info": [["sample"]],
    ]

    /// Every command line of the page's other ```sh blocks runs, in its block's order, and
    /// succeeds: the page shows nothing the binary refuses.
    @Test func everyOtherCommandBlockRunsInItsOwnOrder() throws {
        var ran = 0
        for block in Self.blocks("```sh").dropFirst() {
            // A block of a configuration file (muttrc) is MailClientTerminalTests'.
            let lines = block.filter { !$0.isEmpty }
            guard let first = lines.first else { continue }
            let key = first.components(separatedBy: "  #")[0].trimmingCharacters(in: .whitespaces)
            let walk = try #require(Self.walks[key], "docs/cli.md has a block of commands this test has no setup for: \(key)")
            guard let steps = walk else { continue }
            let box = Sandbox()
            _ = box.write("cards.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Alan Turing\r\nEMAIL:alan@example.org\r\nEND:VCARD\r\n")
            for step in steps { try #require(box.carnetInProcess(step).status == 0, "\(step)") }
            for line in lines {
                var words = GuideTests.shellWords(line)
                #expect(words.first == "carnet", "docs/cli.md: \(line)")
                // `> FILE`: what it prints goes to FILE.
                var output: String?
                if let arrow = words.firstIndex(of: ">"), arrow + 1 < words.count {
                    output = words[arrow + 1]
                    words.removeSubrange(arrow...)
                }
                let run = box.carnet(Array(words.dropFirst()), environment: ["EDITOR": "true", "VISUAL": ""], cwd: box.dir.path)
                #expect(run.status == 0, "docs/cli.md: \(line)\n\(run)")
                if let output { _ = box.write(output, run.stdout) }
                ran += 1
            }
        }
        #expect(ran >= 30)
    }

    static func masked(_ text: String, _ box: Sandbox) -> String {
        text.replacingOccurrences(of: box.dir.path, with: "SANDBOX")
            .replacing(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "UUID")
            .replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(\.[0-9]+)?Z/, with: "TIME")
            .replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}/, with: "TIME")
    }

    @Test func everyConsoleBlockPrintsWhatThePageShows() throws {
        let blocks = Self.blocks("```console").filter { $0.first?.hasPrefix("$ carnet") == true }
        #expect(blocks.count >= 5)
        for block in blocks {
            let first = String(block[0].dropFirst(2)).components(separatedBy: "  #")[0].trimmingCharacters(in: .whitespaces)
            let setup = try #require(Self.setups[first], "docs/cli.md has a console block this test has no setup for: \(first)")
            let box = Sandbox()
            for step in setup.steps {
                let run = box.carnetInProcess(step)
                try #require(run.status == 0, "\(step): \(run)")
            }
            var index = 0
            var last: Run?
            while index < block.count {
                let line = block[index]
                index += 1
                guard line.hasPrefix("$ ") else { continue }
                var expected: [String] = []
                while index < block.count, !block[index].hasPrefix("$ ") {
                    expected.append(block[index])
                    index += 1
                }
                while expected.last == "" { expected.removeLast() }
                let words = GuideTests.shellWords(String(line.dropFirst(2)))
                if words == ["echo", "$?"] {
                    #expect(expected == [String(last?.status ?? -1)], "docs/cli.md: \(line) after \(block)")
                    continue
                }
                let run = setup.terminal
                    ? box.carnetOnTerminal(Array(words.dropFirst()), environment: ["NO_COLOR": "1", "TZ": "UTC"])
                    : box.carnet(Array(words.dropFirst()), environment: ["TZ": "UTC"])
                last = run
                let printed = Self.masked(run.stdout + run.stderr, box).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let shown = expected.map { Self.masked($0, box) }
                let nextIsStatus = index < block.count && block[index] == "$ echo $?"
                if !nextIsStatus { #expect(run.status == 0, "docs/cli.md: \(line)\n\(run)") }
                guard !shown.isEmpty else { continue }
                if let cut = shown.firstIndex(of: "…") {
                    #expect(Array(printed.prefix(cut)) == Array(shown.prefix(cut)), "docs/cli.md: \(line)\npage:\n\(shown.joined(separator: "\n"))\ncarnet:\n\(printed.joined(separator: "\n"))")
                } else {
                    var trimmed = printed
                    while trimmed.last == "" { trimmed.removeLast() }
                    #expect(trimmed == shown, "docs/cli.md: \(line)\npage:\n\(shown.joined(separator: "\n"))\ncarnet:\n\(trimmed.joined(separator: "\n"))")
                }
            }
        }
    }
}
