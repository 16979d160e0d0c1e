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
}
