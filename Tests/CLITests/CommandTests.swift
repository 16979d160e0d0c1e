import Foundation
import Testing

/// Each command, as a person or a script runs it, against its own temporary database.
@Suite struct CommandTests {
    let box = Sandbox()

    @Test func homeScreenOfANewAddressBook() {
        // The default file, as on a first run: a missing --db file is created only by a write.
        let run = box.carnetInProcess([], useDB: false)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Two things are infinite"))
        #expect(run.stdout.contains("Albert Einstein"))
        #expect(run.stdout.contains("0 contacts"))
    }

    @Test func addThenListInTheNextProcess() {
        let add = box.carnetInProcess(["add", "--name", "Madison Thompson", "--position", "Sales, Gale Foods", "--email", "madison@example.com", "--phone", "555 0101"])
        #expect(add.status == 0, "\(add)")
        #expect(add.stdout == "saved contact 1\n")
        box.carnetInProcess(["add", "--name", "Tyler Porter", "--position", "Software developer, Prophecy"])
        let list = box.carnetInProcess(["list"])
        #expect(list.status == 0)
        #expect(list.lines == [
            "id\tname\tposition\temail\tphone\tfavorite",
            "1\tMadison Thompson\tSales, Gale Foods\tmadison@example.com\t555 0101\t0",
            "2\tTyler Porter\tSoftware developer, Prophecy\t\t\t0",
        ])
        let home = box.carnetInProcess([])
        #expect(home.stdout.contains("2 contacts"))
    }

    @Test func onATerminalListIsAnAlignedTableAndColourFollowsNoColor() throws {
        box.carnet(["add", "--name", "Madison Thompson", "--position", "Sales, Gale Foods", "--email", "madison@example.com"])
        box.carnet(["add", "--name", "Ty", "--phone", "555 0102"])
        box.carnet(["favorite", "2"])
        let table = box.carnetOnTerminal(["list"])
        #expect(table.lines == [
            "ID  NAME              POSITION           EMAIL                PHONE     ★",
            " 1  Madison Thompson  Sales, Gale Foods  madison@example.com",
            " 2  Ty                                                        555 0102  ★",
        ], "\(table)")
        #expect(!table.stdout.contains("\u{1B}["))  // the sandbox sets NO_COLOR: no escapes
        let coloured = box.carnetOnTerminal(["list"], environment: ["NO_COLOR": "", "TERM": "xterm"])
        #expect(coloured.stdout.hasPrefix("\u{1B}[1mID  NAME"), "\(coloured)")
        let plain = box.carnet(["list"])
        #expect(!plain.stdout.contains("\u{1B}[") && plain.lines[0].hasPrefix("id\tname"))
    }

    @Test func listJSONIsTheDocumentedSchema() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--email", "ada@example.com"])
        box.carnetInProcess(["favorite", "1"])
        let run = box.carnetInProcess(["list", "--json"])
        #expect(run.status == 0)
        let array = try #require(box.json(run.stdout) as? [[String: Any]])
        #expect(array.count == 1)
        let ada = array[0]
        // Every field of the contact, nested; every key always there (README: "JSON schema").
        #expect(Set(ada.keys) == [
            "id", "uid", "name", "prefix", "given", "additional", "family", "suffix", "nickname", "pronouns", "gender", "organization",
            "department", "title", "role", "emails", "phones", "addresses", "urls", "handles", "dates", "note", "categories", "expertise",
            "hobbies", "interests", "photo", "extras", "favorite", "createdAt", "updatedAt", "version",
        ])
        #expect(ada["name"] as? String == "Ada Lovelace")
        #expect(ada["given"] as? String == "Ada" && ada["family"] as? String == "Lovelace")
        let emails = try #require(ada["emails"] as? [[String: Any]])
        #expect(emails.count == 1 && emails[0]["value"] as? String == "ada@example.com" && emails[0]["label"] as? String == "")
        #expect(ada["favorite"] as? Bool == true)
        #expect(ada["id"] as? Int == 1)
        let empty = box.carnetInProcess(["list", "--json", "--search", "nobody"])
        #expect((box.json(empty.stdout) as? [Any])?.isEmpty == true)
    }

    @Test func listSearchLimitAndFavorites() {
        for name in ["Gary Edwards", "Katherine Price", "Madison Thompson", "Rebecca Rogers", "Tyler Porter"] {
            box.carnetInProcess(["add", "--name", name, "--email", "\(name.split(separator: " ")[0].lowercased())@example.com"])
        }
        let limited = box.carnetInProcess(["list", "--limit", "2"])
        #expect(limited.lines.count == 3)
        #expect(limited.lines[1].contains("Gary Edwards"))
        let search = box.carnetInProcess(["list", "--search", "REBECCA"])
        #expect(search.lines.count == 2 && search.lines[1].contains("Rebecca Rogers"))
        box.carnetInProcess(["favorite", "5"])
        box.carnetInProcess(["favorite", "1", "--at", "1"])
        let favorites = box.carnetInProcess(["favorites"])
        #expect(favorites.lines.dropFirst().map { $0.split(separator: "\t")[1] } == ["Gary Edwards", "Tyler Porter"])
        let json = box.carnetInProcess(["favorites", "--json"])
        #expect((box.json(json.stdout) as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Gary Edwards", "Tyler Porter"])
        let unfav = box.carnetInProcess(["unfavorite", "1"])
        #expect(unfav.status == 0)
        #expect(box.carnetInProcess(["list", "--favorites"]).lines.count == 2)
    }

    @Test func showInTextAndJSON() throws {
        let pngPath = box.path("face.png")
        _ = FileManager.default.createFile(atPath: pngPath, contents: tinyPNG)
        box.carnetInProcess(["add", "--name", "Gary Edwards", "--position", "Web Developer, Bluewares", "--photo", pngPath])
        let text = box.carnetInProcess(["show", "1"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Gary Edwards"))
        #expect(text.stdout.contains("  Title            Web Developer\n"), "\(text)")
        #expect(text.stdout.contains("  Organization     Bluewares\n"), "\(text)")
        #expect(text.stdout.contains("Photo\n  PNG, \(tinyPNG.count) bytes\n"), "\(text)")
        let json = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(json["photo"] as? String == tinyPNG.base64EncodedString())
        let removed = box.carnetInProcess(["edit", "1", "--no-photo"])
        #expect(removed.status == 0)
        #expect(!box.carnetInProcess(["show", "1"]).stdout.contains("Photo"))
    }

    @Test func editWithFlagsKeepsIdentity() throws {
        box.carnetInProcess(["add", "--name", "Katherine Price", "--position", "Marketing, Golden Roads"])
        box.carnetInProcess(["favorite", "1"])
        let before = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        let edit = box.carnetInProcess(["edit", "1", "--name", "Kate Price"])
        #expect(edit.stdout == "saved contact 1\n", "\(edit)")
        let after = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(after["name"] as? String == "Kate Price")
        #expect(after["uid"] as? String == before["uid"] as? String)
        #expect(after["version"] as? Int == 2)
        #expect(after["favorite"] as? Bool == true)
    }

    @Test func aSaveThatChangesNothingSaysSoAndWritesNoVersion() throws {
        box.carnetInProcess(["add", "--name", "Gary Edwards", "--email", "gary@example.com"])
        let before = box.snapshot()
        for arguments in [["edit", "1", "--name", "Gary Edwards"], ["edit", "1", "--name", "  Gary Edwards ", "--email", "gary@example.com"],
                          ["edit", "1", "--email", "gary@example.com", "--force"], ["edit", "1", "--no-photo"]] {
            let run = box.carnetInProcess(arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(run.stdout == "contact 1 unchanged (nothing to save)\n", "\(arguments): \(run)")
            #expect(run.stderr.isEmpty, "\(arguments): \(run)")
        }
        #expect(box.snapshot() == before)
        let shown = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(shown["version"] as? Int == 1)
        // A real change still says saved.
        #expect(box.carnetInProcess(["edit", "1", "--name", "Gary R. Edwards"]).stdout == "saved contact 1\n")
    }

    @Test func aQuoteSaveThatChangesNothingSaysSo() throws {
        #expect(box.carnetInProcess(["quote", "add", "--text", "Less is more.", "--author", "Mies van der Rohe", "--use"]).status == 0)
        let before = box.snapshot()
        for arguments in [["quote", "edit", "--text", "Less is more."], ["quote", "edit", "--id", "2", "--author", "Mies van der Rohe", "--force"]] {
            let run = box.carnetInProcess(arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(run.stdout == "quote 2 unchanged (nothing to save)\n", "\(arguments): \(run)")
        }
        #expect(box.snapshot() == before)
        let quote = try #require(box.json(box.carnetInProcess(["quote", "--json"]).stdout) as? [String: Any])
        #expect(quote["version"] as? Int == 1)
        #expect(box.carnetInProcess(["quote", "edit", "--text", "More is more."]).stdout == "saved quote 2\n")
    }

    @Test func deleteAsksOrNeedsYes() {
        box.carnetInProcess(["add", "--name", "Rebecca Rogers"])
        let refused = box.carnetInProcess(["delete", "1"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--yes"))
        let deleted = box.carnetInProcess(["delete", "1", "--yes"])
        #expect(deleted.status == 0 && deleted.stdout == "deleted contact 1\n")
        #expect(box.carnetInProcess(["show", "1"]).status == 66)
    }

    @Test func quoteCommands() throws {
        // A write creates the missing --db file (a read would not); a new book has one quote.
        #expect(box.carnetInProcess(["quote", "use", "1"]).status == 0)
        #expect(box.carnetInProcess(["quote"]).stdout.contains("Albert Einstein"))
        let json = try #require(box.json(box.carnetInProcess(["quote", "--json"]).stdout) as? [String: Any])
        #expect(json["author"] as? String == "Albert Einstein")
        #expect(box.carnetInProcess(["quote", "edit", "--text", "Imagination is more important than knowledge."]).status == 0)
        #expect(box.carnetInProcess(["quote"]).stdout.contains("Imagination"))
        let added = box.carnetInProcess(["quote", "add", "--text", "Less is more.", "--author", "Mies van der Rohe"])
        #expect(added.stdout == "saved quote 2\n")
        #expect(box.carnetInProcess(["quote"]).stdout.contains("Imagination"))  // not current without --use
        #expect(box.carnetInProcess(["quote", "use", "2"]).status == 0)
        #expect(box.carnetInProcess(["quote"]).stdout.contains("Less is more."))
        let list = box.carnetInProcess(["quote", "list"])
        #expect(list.lines.count == 2 && list.lines[1].hasPrefix("* 2"))
        #expect(box.carnetInProcess(["quote", "delete", "2"]).status == 0)
        let last = box.carnetInProcess(["quote", "delete", "1"])
        #expect(last.status == 65)
        #expect(last.stderr.contains("only quote"))
        #expect(box.carnetInProcess(["quote", "use", "9"]).status == 66)
    }

    @Test func databaseCommands() throws {
        box.carnetInProcess(["add", "--name", "Tyler Porter"])
        #expect(box.carnetInProcess(["db", "path"]).stdout == box.db + "\n")
        let info = box.carnetInProcess(["db", "info"])
        let infoJSON = try #require(box.json(box.carnetInProcess(["db", "info", "--json"]).stdout) as? [String: Any])
        let supported = try #require(infoJSON["supportedSchemaVersion"] as? Int)
        #expect(info.stdout.contains("schema:       \(supported) (this carnet knows up to \(supported))"))
        #expect(info.stdout.contains("contacts:     1"))
        #expect(infoJSON["schemaVersion"] as? Int == supported && supported >= 7)
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
        let backup = box.path("backup.sqlite")
        let made = box.carnetInProcess(["db", "backup", backup])
        #expect(made.status == 0, "\(made)")
        #expect(box.carnetInProcess(["db", "backup", backup]).status != 0)  // never overwrites
        let copy = box.carnetInProcess(["list", "--db", backup], useDB: false)
        #expect(copy.lines.last?.contains("Tyler Porter") == true)
    }

    @Test func databaseLocationPrecedence() throws {
        let xdg = box.path("xdg")
        let fromXDG = box.carnetInProcess(["db", "path"], environment: ["XDG_DATA_HOME": xdg], useDB: false)
        #expect(fromXDG.stdout == xdg + "/carnet/carnet.sqlite\n")
        let fromHome = box.carnetInProcess(["db", "path"], useDB: false)
        #expect(fromHome.stdout == box.dir.path + "/.local/share/carnet/carnet.sqlite\n")
        let env = box.path("env.sqlite")
        #expect(box.carnetInProcess(["db", "path"], environment: ["CARNET_DB": env, "XDG_DATA_HOME": xdg], useDB: false).stdout == env + "\n")
        let flag = box.path("flag.sqlite")
        #expect(box.carnetInProcess(["--db", flag, "db", "path"], environment: ["CARNET_DB": env], useDB: false).stdout == flag + "\n")
        // First use creates the directory and file privately.
        #expect(box.carnetInProcess(["add", "--name", "X"], environment: ["XDG_DATA_HOME": xdg], useDB: false).status == 0)
        let fm = FileManager.default
        let dirMode = (try fm.attributesOfItem(atPath: xdg + "/carnet")[.posixPermissions] as? NSNumber)?.intValue
        let fileMode = (try fm.attributesOfItem(atPath: xdg + "/carnet/carnet.sqlite")[.posixPermissions] as? NSNumber)?.intValue
        #expect(dirMode.map { $0 & 0o777 } == 0o700)
        #expect(fileMode.map { $0 & 0o777 } == 0o600)
    }

    @Test func aCopiedBinaryWorksFromAnotherDirectory() throws {
        let elsewhere = box.path("bin")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let copy = elsewhere + "/carnet"
        try FileManager.default.copyItem(atPath: Sandbox.binary, toPath: copy)
        let run = box.carnet(["add", "--name", "Anywhere"], binary: copy, cwd: "/")
        #expect(run.status == 0, "\(run)")
        #expect(box.carnet(["db", "info"], binary: copy, cwd: "/").stdout.contains("0001_initial"))
    }

    @Test func helpHasExamplesAndExitCodesAndCompletionsExist() {
        let help = box.carnetInProcess(["--help"], useDB: false)
        #expect(help.status == 0)
        #expect(help.stdout.contains("EXIT CODES"))
        #expect(help.stdout.contains("67  conflict"))
        for command in [["list"], ["show"], ["add"], ["edit"], ["delete"], ["favorite"], ["birthdays"], ["quote"], ["db"], ["interactive"]] {
            let sub = box.carnetInProcess(command + ["--help"], useDB: false)
            #expect(sub.status == 0, "\(command)")
            #expect(sub.stdout.contains("EXAMPLE") || sub.stdout.contains("carnet interactive"), "\(command)")
        }
        let completion = box.carnetInProcess(["--generate-completion-script", "bash"], useDB: false)
        #expect(completion.status == 0)
        #expect(completion.stdout.contains("_carnet"))
    }
}
