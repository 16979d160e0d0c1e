import Foundation
import SeededRandom
import Testing
@testable import CarnetStorage

/// The sorter the duplicate finder sorts a book's block keys with gives every pair it was given,
/// by hash then id, whether they fit in one run, spill to several, or to more than one merge
/// takes at once.
@Suite struct PairSorterTests {
    func sorted(_ sorter: PairSorter) throws -> [PairSorter.Pair] {
        var out: [PairSorter.Pair] = []
        try sorter.sorted { out.append(PairSorter.Pair(hash: $0, id: $1)) }
        return out
    }

    @Test(arguments: [
        (runLength: 1 << 17, readLength: 1 << 10, fanIn: 64), (runLength: 100, readLength: 7, fanIn: 64),
        (runLength: 10, readLength: 3, fanIn: 2), (runLength: 1, readLength: 1, fanIn: 3),
    ])
    func givesEveryPairInOrder(runLength: Int, readLength: Int, fanIn: Int) throws {
        var rng = SplitMix64(seed: UInt64(runLength * 31 + fanIn))
        for count in [0, 1, runLength, runLength * 3, 1000] {
            let sorter = PairSorter(runLength: runLength, readLength: readLength, fanIn: fanIn)
            var pairs: [PairSorter.Pair] = []
            for _ in 0..<count {
                // Few hashes, so runs of one hash cross the runs written; negative ones too.
                let pair = PairSorter.Pair(hash: Int64.random(in: -20...20, using: &rng), id: Int64.random(in: 1...50, using: &rng))
                pairs.append(pair)
                try sorter.add(pair.hash, pair.id)
            }
            #expect(try sorted(sorter) == pairs.sorted(), "\(count) pairs")
        }
    }

    @Test func leavesNothingInTheTemporaryDirectory() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("carnet-sort-") }
        let sorter = PairSorter(runLength: 4)
        for i in 0..<100 { try sorter.add(Int64(100 - i), Int64(i)) }
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("carnet-sort-") }
        #expect(after == before)
        #expect(try sorted(sorter).map(\.hash) == Array(1...100))
    }
}
