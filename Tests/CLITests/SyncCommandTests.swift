import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// `carnet sync` as a person uses it, against a real Radicale on loopback.
@Suite(.needs("radicale", "curl")) struct SyncCommandTests {
    let box = Sandbox()
    let server: RadicaleServer
    let password = ["CARNET_SYNC_PASSWORD": "secret"]

    init() throws {
        server = try RadicaleServer(users: ["ada": "secret"])
    }

    /// With no password command and no CARNET_SYNC_PASSWORD, a person at a terminal types the
    /// password (not shown, not stored); a script is told the three ways to give one.
    @Test func withoutAPasswordCommandATerminalAsksForIt() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
        let feeder = box.write("type.sh", "#!/bin/sh\nsleep 1\nprintf 'secret\\n'\nsleep 2\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: feeder)
        let setup = box.carnetOnTerminal(["sync", "setup", server.url.absoluteString, "--user", "ada"], feeder: feeder)
        #expect(setup.status == 0, "\(setup)")
        #expect(setup.stdout.contains("Password for ada at 127.0.0.1:\(server.port) (not stored"), "\(setup)")
        #expect(!setup.stdout.contains("secret"), "the password was shown: \(setup)")
        #expect(setup.stdout.contains("saved sync setup"), "\(setup)")
        let sync = box.carnetOnTerminal(["sync"], feeder: feeder)
        #expect(sync.status == 0 && sync.stdout.contains("0 down, 1 up"), "\(sync)")
        #expect(box.sqlite("SELECT count(*) FROM sync_accounts WHERE password_command = ''").stdout.hasPrefix("1"))
        let script = box.carnetInProcess(["sync"])
        #expect(script.status == 78 && script.stderr.contains("or run carnet on a terminal to type it"), "\(script)")
    }

    @Test func setupSyncStatusAndDryRun() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--phone", "555 0100"])
        let setup = box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada", "--password-command", "echo secret"])
        #expect(setup.status == 0, "\(setup)")
        let collection = server.url.absoluteString + "ada/carnet/"
        #expect(setup.lines == ["made the address book \(collection)", "saved sync setup: \(collection) as ada (carnet sync to sync now)"])
        let host = "127.0.0.1:\(server.port)"
        #expect(box.carnetInProcess(["sync", "--dry-run"]).stdout == "would sync with \(host): 0 down, 1 up (1 sent)\n")
        #expect(box.carnetInProcess(["sync", "status"]).lines.contains("to send: 1 new, 0 changed, 0 deleted"))
        let sync = box.carnetInProcess(["sync"])
        #expect(sync.status == 0 && sync.stdout == "synced with \(host): 0 down, 1 up (1 sent)\n" && sync.stderr.isEmpty, "\(sync)")
        let status = box.carnetInProcess(["sync", "status"])
        #expect(status.lines.contains("address book: \(collection)"))
        #expect(status.lines.contains("user: ada (password from: echo secret)"))
        #expect(status.lines.contains("synced contacts: 1"))
        #expect(status.lines.contains("to send: 0 new, 0 changed, 0 deleted"))
        #expect(!status.lines.contains("last sync: never"))

        // A second file: the setup finds the book, the sync brings Ada, the history has it.
        let other = Sandbox()
        #expect(other.carnetInProcess(["sync", "setup", collection, "--user", "ada"], environment: password).status == 0)
        #expect(other.carnetInProcess(["sync"], environment: password).stdout == "synced with \(host): 1 down, 0 up (1 added here)\n")
        #expect(other.carnetInProcess(["list"]).stdout.contains("Ada Lovelace\t\t\t555 0100"))
        #expect(other.carnetInProcess(["history"]).stdout.contains("synced with \(host): 1 down, 0 up"))
    }

    @Test func aConflictIsOneLineOnStderrAndTheServersValueCanWin() throws {
        let other = Sandbox()
        for sandbox in [box, other] { sandbox.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password) }
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--title", "Analyst"])
        box.carnetInProcess(["sync"], environment: password)
        other.carnetInProcess(["sync"], environment: password)
        box.carnetInProcess(["edit", "1", "--title", "Countess"])
        other.carnetInProcess(["edit", "1", "--title", "Mathematician"])
        box.carnetInProcess(["sync"], environment: password)
        let clash = other.carnetInProcess(["sync", "--prefer", "remote"], environment: password)
        #expect(clash.status == 0, "\(clash)")
        #expect(clash.stderr == "carnet: Ada Lovelace: both changed title (kept the server's values; this file's are kept in sync_conflicts, see carnet sync status)\n")
        #expect(other.carnetInProcess(["show", "1"]).stdout.contains("Countess"))
        #expect(other.carnetInProcess(["sync", "status"]).lines.contains("  1  Ada Lovelace: title (kept the server's)"))
        // What lost is in the file, whole, for sqlite3 or a re-import.
        #expect(other.sqlite("SELECT lost_card FROM sync_conflicts").stdout.contains("TITLE:Mathematician"))
    }

    @Test func failuresAreOneLineWithTheirOwnExitCode() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
        box.expectRefused(["sync"], 78, mentioning: "run carnet sync setup URL first")
        box.expectRefused(["sync", "setup", "ftp://example.com/"], 64, mentioning: "is not an http:// or https:// URL")
        box.expectRefused(["sync", "setup", server.url.absoluteString, "--user", "ada", "--password-command", "exit 3"], 78, mentioning: "exited with status 3")
        #expect(box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password).status == 0)
        let wrong = box.carnetInProcess(["sync"], environment: ["CARNET_SYNC_PASSWORD": "wrong"])
        #expect(wrong.status == 77 && wrong.stderr == "carnet: 127.0.0.1:\(server.port) refused the user name or password; check --user and the password command, nothing was changed\n", "\(wrong)")
        box.expectRefused(["sync"], 78, mentioning: "CARNET_SYNC_PASSWORD")
        server.stop()
        let down = box.carnetInProcess(["sync"], environment: password)
        #expect(down.status == 75 && down.stderr.hasPrefix("carnet: cannot reach 127.0.0.1:\(server.port)") && down.stderr.split(separator: "\n").count == 1, "\(down)")
        #expect(box.carnetInProcess(["list"]).lines.count == 2)
        #expect(box.carnetInProcess(["history"]).lines.count == 2)
    }

    /// Another client is the `curl` command itself, not Carnet's transport: a card it PUTs
    /// appears after `carnet sync` with what Carnet does not model, and Carnet's edit of it goes
    /// back with that property still in it.
    @Test func aCardPutWithTheCurlCommandAppearsAndGoesBackWhole() throws {
        let curl = TestTool.path("curl")
        try #require(FileManager.default.isExecutableFile(atPath: curl), "make deps installs curl")
        #expect(box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password).status == 0)
        let card = box.write("grace.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:from-curl-1\r\nFN:Grace Hopper\r\nN:Hopper;Grace;;;\r\nEMAIL;TYPE=work:grace@navy.example\r\nX-RANK:Rear Admiral\r\nEND:VCARD\r\n")
        let url = server.url.absoluteString + "ada/carnet/from-curl-1.vcf"
        let put = box.run(curl, ["-sS", "-u", "ada:secret", "-T", card, "-H", "Content-Type: text/vcard", "-H", "If-None-Match: *", "-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(put.status == 0 && put.stdout == "201", "\(put)")

        let host = "127.0.0.1:\(server.port)"
        #expect(box.carnetInProcess(["sync"], environment: password).stdout == "synced with \(host): 1 down, 0 up (1 added here)\n")
        #expect(box.carnetInProcess(["list"]).stdout.contains("Grace Hopper\t\tgrace@navy.example\t"))
        #expect(box.carnetInProcess(["export", "--format", "vcf"]).stdout.contains("X-RANK:Rear Admiral"))

        #expect(box.carnetInProcess(["edit", "1", "--title", "Computer scientist"]).status == 0)
        #expect(box.carnetInProcess(["sync"], environment: password).stdout == "synced with \(host): 0 down, 1 up (1 sent)\n")
        let get = box.run(curl, ["-sS", "-u", "ada:secret", url])
        #expect(get.status == 0, "\(get)")
        for line in ["UID:from-curl-1", "FN:Grace Hopper", "TITLE:Computer scientist", "X-RANK:Rear Admiral", "grace@navy.example"] {
            #expect(get.stdout.contains(line), "\(line) missing from what curl got back:\n\(get.stdout)")
        }
    }

    @Test func progressShowsOnATerminal() throws {
        let other = Sandbox()
        other.carnetInProcess(["add", "--name", "Grace Hopper"])
        other.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password)
        #expect(other.carnetInProcess(["sync"], environment: password).status == 0)
        box.carnet(["add", "--name", "Ada Lovelace"])
        box.carnet(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password)
        let run = box.carnetOnTerminal(["sync"], environment: password.merging(["NO_COLOR": ""]) { $1 })
        #expect(run.status == 0, "\(run)")
        // One line, rewritten in place (carriage return, erase line) and erased at the end.
        #expect(run.stdout.contains("\r\u{1B}[Ksyncing… asking what changed\r\u{1B}[Ksyncing… downloading 1/1\r\u{1B}[Ksyncing… uploading 1\r\u{1B}[K"), "\(run)")
        #expect(run.stdout.contains("synced with 127.0.0.1:\(server.port): 1 down, 1 up (1 added here; 1 sent)"))
    }
}
