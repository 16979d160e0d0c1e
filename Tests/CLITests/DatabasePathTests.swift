import Foundation
import Testing

/// What `--db` and `CARNET_DB` may point at: a mistyped path is an error, not a new empty book.
@Suite struct DatabasePathTests {
    let box = Sandbox()

    /// What is in the sandbox directory (the files each run uses for its streams are gone by then).
    func entries() -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: box.dir.path)
        return Set((enumerator?.allObjects as? [String]) ?? [])
    }

    @Test func readingCommandsRefuseAMissingBookAndCreateNothing() {
        let cards = box.path("cards.vcf")
        _ = FileManager.default.createFile(
            atPath: cards, contents: Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n".utf8))
        let before = entries()
        let reading: [[String]] = [
            [], ["list"], ["show", "1"], ["favorites"], ["quote"], ["quote", "list"], ["export"],
            ["export", "--format", "json", "--output", box.path("out.json")], ["import", cards, "--dry-run"],
            ["db", "check"], ["db", "info"], ["db", "backup", box.path("backup.sqlite")],
        ]
        for missing in [box.path("typo.sqlite"), box.path("nodir/sub/x.sqlite")] {
            for arguments in reading {
                let run = box.carnet(arguments + ["--db", missing], useDB: false)
                #expect(run.status == 66, "\(arguments): \(run)")
                #expect(run.stderr.hasPrefix("carnet: no address book at \(missing);"), "\(arguments): \(run)")
                #expect(run.stderr.split(separator: "\n").count == 1)
                #expect(run.stdout.isEmpty, "\(arguments): \(run)")
            }
            let fromEnvironment = box.carnet(["list"], environment: ["CARNET_DB": missing], useDB: false)
            #expect(fromEnvironment.status == 66 && fromEnvironment.stderr.contains("no address book at \(missing)"), "\(fromEnvironment)")
        }
        #expect(entries() == before)
        // `db path` never opens the file, so it still just prints it.
        #expect(box.carnet(["db", "path"]).stdout == box.db + "\n")
        #expect(box.carnet(["--help"], useDB: false).stdout.contains("no address book at the path"))
    }

    @Test func writingCommandsCreateAMissingBook() throws {
        let cards = box.path("cards.vcf")
        _ = FileManager.default.createFile(
            atPath: cards, contents: Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n".utf8))
        let writing: [([String], String)] = [
            (["add", "--name", "Ada"], "new/add.sqlite"),
            (["sample"], "new/sample.sqlite"),
            (["import", cards], "deeper/still/import.sqlite"),
            (["quote", "add", "--text", "Less is more."], "quote.sqlite"),
        ]
        for (arguments, name) in writing {
            let path = box.path(name)
            let run = box.carnet(arguments + ["--db", path], useDB: false)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(FileManager.default.fileExists(atPath: path), "\(arguments) did not create \(path)")
            #expect(box.carnet(["db", "check", "--db", path], useDB: false).stdout == "ok\n")
        }
        let viaEnvironment = box.path("env.sqlite")
        #expect(box.carnet(["add", "--name", "Grace"], environment: ["CARNET_DB": viaEnvironment], useDB: false).status == 0)
        #expect(box.carnet(["list"], environment: ["CARNET_DB": viaEnvironment], useDB: false).stdout.contains("Grace"))
    }

    @Test func theDefaultBookIsCreatedOnFirstUseByAnyCommand() {
        // The sandbox's HOME is its directory and XDG_DATA_HOME is unset.
        let home = box.carnet([], useDB: false)
        #expect(home.status == 0, "\(home)")
        #expect(home.stdout.contains("Two things are infinite") && home.stdout.contains("0 contacts"), "\(home)")
        #expect(FileManager.default.fileExists(atPath: box.path(".local/share/carnet/carnet.sqlite")))
        let data = box.path("xdg")
        let list = box.carnet(["list"], environment: ["XDG_DATA_HOME": data], useDB: false)
        #expect(list.status == 0, "\(list)")
        #expect(FileManager.default.fileExists(atPath: data + "/carnet/carnet.sqlite"))
    }
}
