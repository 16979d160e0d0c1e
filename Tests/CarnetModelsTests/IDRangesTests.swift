import CarnetModels
import Testing

@Suite struct IDRangesTests {
    @Test func idsIssuedInOrderAreOneRun() {
        var ids = IDRanges()
        for id in Int64(1)...100_000 { ids.insert(id) }
        #expect(ids.ranges == [1...100_000])
        #expect(ids.count == 100_000)
        #expect(ids.contains(1) && ids.contains(100_000) && !ids.contains(0) && !ids.contains(100_001))
    }

    /// Any order gives the set a `Set` gives, its runs apart and in order.
    @Test func anyOrderHoldsWhatASetHolds() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let values = (0..<200).map { _ in Int64.random(in: 0..<300, using: &generator) }
            let ids = IDRanges(values)
            let set = Set(values)
            #expect(Array(ids) == set.sorted())
            #expect(ids.count == set.count)
            for probe in Int64(-1)...301 { #expect(ids.contains(probe) == set.contains(probe)) }
            for (a, b) in zip(ids.ranges, ids.ranges.dropFirst()) { #expect(a.upperBound + 1 < b.lowerBound) }
        }
    }
}
