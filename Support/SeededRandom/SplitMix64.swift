/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator whose whole state is one number,
/// so a seed replays the same sequence on every run and every machine. The benchmark, the stress
/// tool and the generated-input tests share this one copy.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`, for picking from small alphabets in tests.
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

/// `count` values made by `make` from a generator seeded with `seed`: the same values on every
/// run and every machine, for the generated-input tests.
public struct SeededValues<Element>: Sequence, IteratorProtocol {
    private var generator: SplitMix64
    private var remaining: Int
    private let make: (inout SplitMix64) -> Element

    public init(seed: UInt64, count: Int, _ make: @escaping (inout SplitMix64) -> Element) {
        generator = SplitMix64(seed: seed)
        remaining = count
        self.make = make
    }

    public mutating func next() -> Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return make(&generator)
    }
}
