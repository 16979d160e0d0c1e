import Foundation
import TestNeeds
import Testing

/// `carnet query` as the real neomutt and aerc (Debian's packages, `make deps`) use it, each in
/// tmux with the configuration docs/cli.md shows: what a person typing in the To: field gets.
@Suite(.serialized, .needs("tmux", "python3", "neomutt", "aerc")) struct MailClientTerminalTests {
    let box = Sandbox()

    init() {
        for step in [
            ["add", "--name", "Gale Ma", "--email", "gale@example.com"],
            ["add", "--name", "Abigail Gale", "--email", "abi@example.com", "--address", "home:1 Main St; Springfield; IL; 62701; USA"],
            ["add", "--name", "Mark Gale", "--email", "mark@mars.example", "--organization", "Mars Foods"],
            ["add", "--name", "Pat O'Brien", "--email", "pat@example.com"],
            ["add", "--name", "Hopper, Grace", "--email", "grace@example.org"],
            ["group", "add", "Climbing club"], ["group", "add", "Belayers"],
            ["group", "add-member", "Climbing club", "gale ma", "Belayers"],
            ["group", "add-member", "Belayers", "hopper", "Climbing club"],
        ] {
            let run = box.carnetInProcess(step)
            precondition(run.status == 0, "\(step): \(run)")
        }
    }

    /// The line docs/cli.md gives each client, with the built carnet's path.
    func docsLine(_ prefix: String) throws -> String {
        let docs = try String(contentsOf: GuideTests.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let line = try #require(docs.split(separator: "\n").first { $0.hasPrefix(prefix) }, "docs/cli.md has no \(prefix) line")
        return line.replacingOccurrences(of: "carnet query", with: "\(Sandbox.binary) query")
    }

    func neomutt() throws -> FullScreenTerminalTests.Tmux {
        let mail = box.path("mail/inbox")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: mail + "/" + sub, withIntermediateDirectories: true)
        }
        let rc = box.write("neomuttrc", """
            set mbox_type = Maildir
            set folder = \(box.path("mail"))
            set spoolfile = \(mail)
            set sendmail = "/bin/true"
            set from = "me@example.com"
            \(try docsLine("set query_command"))

            """)
        let tmux = try FullScreenTerminalTests.Tmux(
            box, command: "\(Sandbox.shellQuoted(TestTool.path("neomutt"))) -n -F \(rc); sleep 60", columns: 120, rows: 30,
            environment: ["HOME": box.dir.path, "TERM": "screen", "CARNET_DB": box.db])
        tmux.waitFor("NeoMutt: ")
        tmux.keys("m")
        tmux.waitFor("To: ") { $0.hasPrefix("To:") }
        return tmux
    }

    /// `gale ma` and Ctrl-T: the one person meant, completed in place (a street and a name
    /// that only starts with "ma" are not asked about); an apostrophe survives neomutt's quoting.
    @Test func neomuttCompletesThePersonMeant() throws {
        let tmux = try neomutt()
        tmux.type("gale ma")
        tmux.keys("C-t")
        tmux.waitFor("To: Gale Ma <gale@example.com>") { $0.hasPrefix("To: Gale Ma <gale@example.com>") }
        tmux.keys("C-u")
        tmux.type("o'brien")
        tmux.keys("C-t")
        tmux.waitFor("To: Pat O'Brien <pat@example.com>") { $0.hasPrefix("To: Pat O'Brien <pat@example.com>") }
    }

    /// A group's name and Ctrl-T: the query menu lists the group as one entry; picking it puts
    /// every member in To:, the members of the group within once.
    @Test func neomuttAddressesAGroupInOnePick() throws {
        let tmux = try neomutt()
        tmux.type("climbing")
        tmux.keys("C-t")
        let menu = tmux.waitFor("the group's entry") { $0.contains("Climbing club") && $0.contains("group of 2 members") }
        #expect(menu.filter { $0.contains("| Climbing club") }.count == 2, "\(menu.joined(separator: "\n"))")
        tmux.keys("/")
        tmux.type("group of")
        tmux.keys("Enter")
        tmux.keys("Enter")
        let to = tmux.waitFor("the whole group in To:") { $0.hasPrefix("To: ") && $0.contains("gale@example.com") }
        let line = to.first { $0.hasPrefix("To: ") } ?? ""
        #expect(line.trimmingCharacters(in: .whitespaces) == "To: Gale Ma <gale@example.com>, \"Hopper, Grace\" <grace@example.org>", "\(line)")
    }

    /// aerc with docs/cli.md's line: one person for `gale ma`; for a group, its members (aerc
    /// takes one address a line).
    @Test func aercCompletesThePersonMeantAndAGroupsMembers() throws {
        let config = box.path("config/aerc")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: box.path("mail/INBOX/\(sub)"), withIntermediateDirectories: true)
        }
        let accounts = box.write("config/aerc/accounts.conf", """
            [test]
            source = maildir://\(box.path("mail"))
            outgoing = /bin/true
            default = INBOX
            from = Me <me@example.com>

            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: accounts)
        _ = box.write("config/aerc/aerc.conf", "[compose]\n\(try docsLine("address-book-cmd"))\n")
        let tmux = try FullScreenTerminalTests.Tmux(
            box, command: "\(Sandbox.shellQuoted(TestTool.path("aerc"))); sleep 60", columns: 120, rows: 30,
            environment: ["HOME": box.dir.path, "TERM": "screen", "CARNET_DB": box.db, "XDG_CONFIG_HOME": box.path("config")])
        tmux.waitFor("Connected")
        tmux.type(":compose")
        tmux.keys("Enter")
        tmux.waitFor("To:") { $0.hasPrefix("To:") }
        // The editor behind the header fields starts after they are drawn; keys go to the
        // focused field once it has.
        Thread.sleep(forTimeInterval: 1)
        tmux.type("gale ma")
        // aerc asks for completions once typing pauses and shows them over the fields; Tab
        // takes the first.
        let offered = tmux.waitFor("Gale Ma offered") { !$0.hasPrefix("To:") && $0.contains("\"Gale Ma\" <gale@example.com>") }
        #expect(!offered.joined().contains("Abigail") && !offered.joined().contains("Mark Gale"), "\(offered.joined(separator: "\n"))")
        tmux.keys("Tab")
        tmux.waitFor("Gale Ma completed") { $0.hasPrefix("To: \"Gale Ma\" <gale@example.com>") }
        tmux.keys("C-u")
        tmux.waitFor("an empty To:") { $0.hasPrefix("To: ") && !$0.contains("Gale") }
        tmux.type("belay")
        let members = tmux.waitFor("the group's members") { $0.contains("\"Hopper, Grace\" <grace@example.org>") }
        #expect(members.joined(separator: "\n").contains("\"Gale Ma\" <gale@example.com>"), "\(members.joined(separator: "\n"))")
    }
}
