/// A set of ids kept as runs of consecutive ids, in order: the ids an import of a million cards
/// adds are one run, held in a few bytes where a `Set` would take tens of megabytes.
public struct IDRanges: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
    /// The runs, in order, neither overlapping nor touching.
    public private(set) var ranges: [ClosedRange<Int64>] = []
    public private(set) var count = 0

    public init() {}

    public init<S: Sequence>(_ ids: S) where S.Element == Int64 {
        for id in ids { insert(id) }
    }

    public init(arrayLiteral ids: Int64...) { self.init(ids) }

    public var isEmpty: Bool { count == 0 }

    /// Adds `id`: at the end in constant time, which is how ids are issued.
    public mutating func insert(_ id: Int64) {
        if let last = ranges.last, id > last.upperBound {
            if id == last.upperBound + 1 { ranges[ranges.count - 1] = last.lowerBound...id } else { ranges.append(id...id) }
            count += 1
            return
        }
        guard !contains(id) else { return }
        let at = ranges.partitioningIndex { $0.lowerBound > id }
        ranges.insert(id...id, at: at)
        count += 1
        // Joins the new run with its neighbours where they touch.
        if at + 1 < ranges.count, ranges[at + 1].lowerBound == id + 1 {
            ranges[at] = id...ranges[at + 1].upperBound
            ranges.remove(at: at + 1)
        }
        if at > 0, ranges[at - 1].upperBound + 1 == id {
            ranges[at - 1] = ranges[at - 1].lowerBound...ranges[at].upperBound
            ranges.remove(at: at)
        }
    }

    public func contains(_ id: Int64) -> Bool {
        let after = ranges.partitioningIndex { $0.lowerBound > id }
        return after > 0 && ranges[after - 1].contains(id)
    }

    /// The ids in increasing order.
    public func makeIterator() -> FlattenSequence<[ClosedRange<Int64>]>.Iterator { ranges.joined().makeIterator() }
}

extension Array {
    /// The first index whose element `belongs` says is in the second part (the array being
    /// partitioned: false for every element before it, true from it on).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
