import Foundation
import Testing

/// `carnet db info`'s parts of the size, `carnet history --prune-before` and `carnet db compact`.
@Suite struct FileSpaceCommandTests {
    let box = Sandbox()

    /// The first whole number of a line: the bytes of `size:` and of each part.
    func number(_ line: String) -> Int64? {
        line.split(separator: " ").lazy.compactMap { Int64($0) }.first
    }

    func fileSize() -> Int64 {
        Int64((try? FileManager.default.attributesOfItem(atPath: box.db)[.size] as? NSNumber)?.intValue ?? -1)
    }

    @Test func dbInfoSaysWhatTakesTheSpaceAndThePartsAddUpToTheSize() throws {
        #expect(box.carnetInProcess(["sample"]).status == 0)
        let info = box.carnetInProcess(["db", "info"])
        let lines = info.lines
        let size = try #require(lines.firstIndex { $0.hasPrefix("size:") }, "\(info)")
        #expect(lines[size].contains(/^size: +[0-9]+ bytes \([0-9.]+ (KB|MB)\)$/) && number(lines[size]) == fileSize(), "\(info)")
        let parts = Array(lines[(size + 1)...(size + 5)])
        #expect(parts.map { $0.split(separator: ":")[0] } == ["  data", "  indexes", "  search", "  history", "  free"], "\(info)")
        #expect(parts.compactMap(number).reduce(0, +) == number(lines[size]), "\(info)")
        #expect(parts.allSatisfy { $0.contains(" bytes (") && $0.contains("%") }, "\(info)")
        #expect(lines[size + 6].hasPrefix("journal:"))

        let json = try #require(box.json(box.carnetInProcess(["db", "info", "--json"]).stdout) as? [String: Any])
        let space = try #require(json["space"] as? [String: Any])
        #expect(Set(space.keys) == ["data", "indexes", "searchIndex", "history", "free", "total"])
        #expect(space["total"] as? Int == json["fileBytes"] as? Int)
    }

    @Test func dbCompactGivesTheFreeSpaceBackAndKeepsTheBookAndItsHistory() throws {
        let note = String(repeating: "A long note. ", count: 40)
        let cards = (1...400).map { "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Person \($0)\r\nEMAIL:p\($0)@example.org\r\nNOTE:\(note)\r\nEND:VCARD\r\n" }
        let file = box.write("cards.vcf", cards.joined())
        #expect(box.carnetInProcess(["import", file]).status == 0)
        // The undone import keeps its contacts in the history until a new change drops it.
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["add", "--name", "Ada Lovelace"]).status == 0)
        let before = fileSize()

        let run = box.carnet(["db", "compact"])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == 2, "\(run)")
        #expect(run.lines[0].hasPrefix("compacting \(box.db) (") && run.lines[0].contains(" free): needs up to "), "\(run)")
        #expect(run.lines[0].contains(" of disk space in \(box.dir.path), which has "), "\(run)")
        let after = fileSize()
        #expect(after < before / 2, "\(before) → \(after)")
        #expect(run.lines[1].hasPrefix("compacted \(box.db): \(before) → \(after) bytes ("), "\(run)")
        #expect(run.lines[1].hasSuffix(" given back)"), "\(run)")

        let mode = (try FileManager.default.attributesOfItem(atPath: box.db)[.posixPermissions] as? NSNumber)?.intValue ?? 0
        #expect(mode & 0o777 == 0o600)
        #expect(box.carnet(["db", "check"]).stdout == "ok\n")
        #expect(box.carnetInProcess(["list"]).lines.dropFirst().map { $0.contains("Ada Lovelace") } == [true])
        #expect(box.carnet(["undo"]).stdout == "undone 2: added Ada Lovelace\n")
        #expect(box.carnet(["redo"]).stdout == "redone 2: added Ada Lovelace\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.dir.path).filter { $0.contains(".compact-") } == [])
    }

    @Test func historyPruneBeforeDropsTheOlderActionsAndSaysWhatUndoReaches() throws {
        for name in ["Ada Lovelace", "Grace Hopper", "Alan Turing"] { box.carnetInProcess(["add", "--name", name]) }
        #expect(box.sqlite("UPDATE history SET time = '2020-03-01T12:00:00.000Z' WHERE id < 3").status == 0)

        // A time with its zone: an action at that very moment is not older.
        let none = box.carnetInProcess(["history", "--prune-before", "2020-03-01T12:00:00Z"])
        #expect(none.status == 0, "\(none)")
        #expect(none.lines.count == 1 && none.lines[0].hasPrefix("no action is older than 2020-03-01T12:00:00Z; undo reaches back to 1 ("), "\(none)")

        let run = box.carnetInProcess(["history", "--prune-before", "2021-01-01"])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == 2, "\(run)")
        #expect(run.lines[0].contains(/^dropped 2 actions \([0-9.]+ (bytes|KB)\) older than 2021-01-01; undo reaches back to 3 \([0-9 :-]+\): added Alan Turing$/), "\(run)")
        #expect(run.lines[1].contains(/^the file keeps its size, [0-9.]+ (bytes|KB) of it free now: carnet db compact gives that back$/), "\(run)")
        #expect(box.carnetInProcess(["history"]).lines.dropFirst().map { $0.split(separator: "\t")[0] } == ["3"])
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 3: added Alan Turing\n")
        #expect(box.carnetInProcess(["undo"]).status == 66)
        #expect(box.carnetInProcess(["list"]).lines.count == 3)  // the header, Ada and Grace

        // What was undone stays to be redone, whatever its age.
        let undone = box.carnetInProcess(["history", "--prune-before", "2100-01-01"])
        #expect(undone.stdout.hasPrefix("no action is older than 2100-01-01; the oldest action kept is undone, 3 ("), "\(undone)")
        #expect(box.carnetInProcess(["redo"]).stdout == "redone 3: added Alan Turing\n")

        for wrong in [["--prune-before", "2021-02-30"], ["--prune-before", "last year"], ["--prune-before", "2021-01-01", "--keep", "5"]] {
            let refused = box.carnetInProcess(["history"] + wrong)
            #expect(refused.status == 64, "\(wrong): \(refused)")
        }
    }
}
