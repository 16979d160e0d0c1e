/// A regular expression of the subset of Python's `re` that libphonenumber's patterns use, matched
/// as Python's backtracking engine matches them: literals, `.`, classes of literals, ranges and
/// `\d`, capturing and `(?:…)` groups, `|`, the greedy and lazy quantifiers (`*` `+` `?` `{n}`
/// `{n,}` `{n,m}`), `^` and `$`, and IGNORECASE as Python applies it. PhoneNormalForm ports
/// `phonenumberutil.py`, whose answers depend on which alternative matches first, on `match`
/// (a prefix) against `fullmatch` (the whole string) and on what a group captured: this keeps
/// those exactly, and runs on arrays of code points (Python's string indices) without bridging.
///
/// Compiled once per pattern into a program of a backtracking machine whose choice points try
/// their first branch first, as Python's engine does: alternatives left to right, greedy
/// repetition longest first. Scripts/phone-metadata.py refuses metadata using anything else.
struct PhonePattern: Sendable {
    /// Case-insensitive, as `re.IGNORECASE | re.UNICODE`: a character matches when its simple
    /// lower case is what the pattern holds (lowered at compile time), or one of Python's extra
    /// equivalents of it (`ı` for `i`, `ſ` for `s`…).
    let ignoreCase: Bool
    /// Capturing groups, numbered from 1 by their `(` as in Python.
    let groupCount: Int
    private let program: [Instruction]
    private let classes: [CharacterClass]
    /// Each class's ASCII members (negation applied) as two words, for the machine's fast path.
    private let asciiClasses: [UInt64]
    /// What a match can start with, when no match is empty: `search` tries no other position
    /// (when `prefiltered`).
    private let firstCharacters: CharacterClass?
    /// Characters of which every match holds one (when `prefiltered`): a text without any is
    /// turned down at once (most numbers have nothing an extension needs, such as `x` or `#`).
    private let requiredCharacters: CharacterClass?

    /// A match at `start`: where it ends and, for each group, its range (nil when it took no part).
    struct Match {
        let start: Int
        let end: Int
        fileprivate let slots: [Int]

        func group(_ number: Int) -> Range<Int>? {
            let (low, high) = (slots[2 * number], slots[2 * number + 1])
            return low < 0 || high < 0 ? nil : low..<high
        }
    }

    /// The buffers of the machine, kept from one match to the next by a caller that matches often.
    struct Scratch {
        fileprivate var slots: [Int] = []
        fileprivate var stack: [Int] = []
    }

    /// `prefiltered`: work out what a match needs (`requiredCharacters`, `firstCharacters`), so
    /// that a text without it is turned down at once; worth it for the few patterns of
    /// phonenumberutil.py run on every text, not for the metadata's.
    init(_ pattern: String, ignoreCase: Bool = false, prefiltered: Bool = false) {
        self.init(codePoints: PhoneCase.codePoints(pattern), ignoreCase: ignoreCase, prefiltered: prefiltered)
    }

    init(codePoints pattern: [UInt32], ignoreCase: Bool = false, prefiltered: Bool = false) {
        var compiler = Compiler(pattern: pattern, ignoreCase: ignoreCase, prefiltered: prefiltered)
        let required = compiler.compile()
        self.ignoreCase = ignoreCase
        self.groupCount = compiler.groups
        self.program = compiler.program
        self.classes = compiler.classes
        var asciiClasses: [UInt64] = []
        asciiClasses.reserveCapacity(2 * compiler.classes.count)
        for set in compiler.classes {
            asciiClasses.append(set.negated ? ~set.ascii.0 : set.ascii.0)
            asciiClasses.append(set.negated ? ~set.ascii.1 : set.ascii.1)
        }
        self.asciiClasses = asciiClasses
        self.firstCharacters = prefiltered ? Self.firstCharacters(of: compiler.program, classes: compiler.classes) : nil
        self.requiredCharacters = required
    }

    /// The union of the characters and classes the program can consume first, or nil when it can
    /// match without consuming one (or begins with `.` or a negated class).
    private static func firstCharacters(of program: [Instruction], classes: [CharacterClass]) -> CharacterClass? {
        var first = CharacterClass()
        var seen = Set<Int>()
        var pending = [0]
        while let pc = pending.popLast() {
            guard seen.insert(pc).inserted else { continue }
            switch program[pc] {
            case .character(let value): first.insert(value...value)
            case .set(let index):
                let set = classes[index]
                if set.negated { return nil }
                first.ascii.0 |= set.ascii.0
                first.ascii.1 |= set.ascii.1
                first.ranges += set.ranges
                first.digits = first.digits || set.digits
            case .split(let a, let b): pending += [a, b]
            case .jump(let target): pending.append(target)
            case .save, .start: pending.append(pc + 1)
            case .any, .end, .match: return nil
            }
        }
        return first
    }

    /// Whether `text` from `start` on holds none of the characters every match needs.
    private func lacksRequired(_ text: [UInt32], from start: Int) -> Bool {
        guard let required = requiredCharacters else { return false }
        return !text[start...].contains { required.contains(ignoreCase ? PhoneCase.lower($0) : $0) }
    }

    /// Python's `pattern.match(text)`: the first match starting at `start`, by the engine's order.
    func match(_ text: [UInt32], at start: Int = 0, scratch: inout Scratch) -> Match? {
        if lacksRequired(text, from: start) { return nil }
        guard let end = run(text, at: start, whole: false, scratch: &scratch) else { return nil }
        return Match(start: start, end: end, slots: Array(scratch.slots[..<(2 * groupCount + 2)]))
    }

    /// Python's `pattern.fullmatch(text)`.
    func fullMatch(_ text: [UInt32], scratch: inout Scratch) -> Bool {
        if lacksRequired(text, from: 0) { return false }
        return run(text, at: 0, whole: true, scratch: &scratch) != nil
    }

    /// Python's `pattern.search(text)`: the match at the first position where there is one.
    func search(_ text: [UInt32], scratch: inout Scratch) -> Match? {
        if lacksRequired(text, from: 0) { return nil }
        for start in 0...text.count {
            if let first = firstCharacters {
                guard start < text.count else { return nil }
                if !first.contains(ignoreCase ? PhoneCase.lower(text[start]) : text[start]) { continue }
            }
            if let end = run(text, at: start, whole: false, scratch: &scratch) {
                return Match(start: start, end: end, slots: Array(scratch.slots[..<(2 * groupCount + 2)]))
            }
        }
        return nil
    }

    // MARK: - The machine

    fileprivate enum Instruction {
        /// One character, lowered when the pattern ignores case.
        case character(UInt32)
        case set(Int)
        /// `.`: anything but a line feed.
        case any
        /// Try `first`; when everything after it fails, `second`.
        case split(first: Int, second: Int)
        case jump(Int)
        case save(Int)
        /// `^`: the start of the text.
        case start
        /// `$`: the end of the text, or just before a line feed that ends it.
        case end
        case match
    }

    /// Where the first match at `start` ends (the whole text when `whole`), its groups in the
    /// scratch's slots.
    private func run(_ text: [UInt32], at start: Int, whole: Bool, scratch: inout Scratch) -> Int? {
        // Taken out of the scratch while the machine runs, so that it holds them alone.
        var slots = scratch.slots
        var stack = scratch.stack
        scratch = Scratch()
        defer { scratch = Scratch(slots: slots, stack: stack) }
        let slotCount = 2 * (groupCount + 1)
        if slots.count < slotCount {
            slots = [Int](repeating: -1, count: slotCount)
        } else {
            for index in 0..<slotCount { slots[index] = -1 }
        }
        // Choice points and group boundaries to restore, as pairs: (pc, position) for a choice,
        // (-1 - slot, old value) for a boundary.
        stack.removeAll(keepingCapacity: true)
        let ignoreCase = self.ignoreCase
        let matched: Int? = program.withUnsafeBufferPointer { program in
            asciiClasses.withUnsafeBufferPointer { asciiClasses in
                text.withUnsafeBufferPointer { text in
                    let count = text.count
                    var pc = 0
                    var position = start
                    while true {
                        var failed = false
                        switch program[pc] {
                        case .character(let wanted):
                            if position < count, (ignoreCase ? PhoneCase.lower(text[position]) : text[position]) == wanted {
                                position += 1
                                pc += 1
                            } else {
                                failed = true
                            }
                        case .set(let index):
                            failed = true
                            if position < count {
                                let value = ignoreCase ? PhoneCase.lower(text[position]) : text[position]
                                let found: Bool
                                if value < 64 {
                                    found = asciiClasses[2 * index] & (UInt64(1) << UInt64(value)) != 0
                                } else if value < 128 {
                                    found = asciiClasses[2 * index + 1] & (UInt64(1) << UInt64(value - 64)) != 0
                                } else {
                                    found = classes[index].contains(value)
                                }
                                if found {
                                    position += 1
                                    pc += 1
                                    failed = false
                                }
                            }
                        case .any:
                            if position < count, text[position] != 0x0A {
                                position += 1
                                pc += 1
                            } else {
                                failed = true
                            }
                        case .split(let first, let second):
                            stack.append(second)
                            stack.append(position)
                            pc = first
                        case .jump(let target):
                            pc = target
                        case .save(let slot):
                            stack.append(-1 - slot)
                            stack.append(slots[slot])
                            slots[slot] = position
                            pc += 1
                        case .start:
                            if position == 0 { pc += 1 } else { failed = true }
                        case .end:
                            if position == count || (position == count - 1 && text[position] == 0x0A) { pc += 1 } else { failed = true }
                        case .match:
                            if !whole || position == count { return position }
                            failed = true
                        }
                        guard failed else { continue }
                        // Back to the last choice point, undoing the group boundaries set since.
                        while true {
                            guard let value = stack.popLast(), let tag = stack.popLast() else { return nil }
                            if tag >= 0 {
                                pc = tag
                                position = value
                                break
                            }
                            slots[-1 - tag] = value
                        }
                    }
                }
            }
        }
        guard let end = matched else { return nil }
        slots[0] = start
        slots[1] = end
        return end
    }

    // MARK: - Classes

    /// A class: its ASCII members as a bitmap, the others as ranges, and whether `\d` (Unicode
    /// decimal digits, Python's `\d` on a str) is in it; negated for `[^…]` and `\D`.
    fileprivate struct CharacterClass: Sendable, Equatable {
        var ascii: (UInt64, UInt64) = (0, 0)
        var ranges: [ClosedRange<UInt32>] = []
        var digits = false
        var negated = false

        init() {}

        static func == (a: Self, b: Self) -> Bool {
            a.ascii == b.ascii && a.ranges == b.ranges && a.digits == b.digits && a.negated == b.negated
        }

        init(_ value: UInt32) {
            insert(value...value)
        }

        mutating func insert(_ range: ClosedRange<UInt32>) {
            if range.lowerBound < 0x80 {
                for value in range.lowerBound...min(range.upperBound, 0x7F) {
                    if value < 64 { ascii.0 |= 1 << UInt64(value) } else { ascii.1 |= 1 << UInt64(value - 64) }
                }
            }
            if range.upperBound >= 0x80 { ranges.append(max(range.lowerBound, 0x80)...range.upperBound) }
        }

        func contains(_ value: UInt32) -> Bool {
            let found: Bool
            if value < 0x80 {
                found = value < 64 ? ascii.0 & (1 << UInt64(value)) != 0 : ascii.1 & (1 << UInt64(value - 64)) != 0
            } else {
                found = ranges.contains { $0.contains(value) } || (digits && PhoneCase.isDecimalDigit(value))
            }
            return found != negated
        }
    }

    // MARK: - Compiling

    /// Reads the pattern (recursive descent over Python's grammar) and writes the program as it
    /// goes: no tree. A repeated part is written once, then copied as often as its bounds say.
    private struct Compiler {
        let pattern: [UInt32]
        let ignoreCase: Bool
        /// Whether to work out what every match needs (`Needs.required`).
        let prefiltered: Bool
        var index = 0
        var groups = 0
        var program: [Instruction] = []
        var classes: [CharacterClass] = []

        /// What a part of the pattern is known to need: the fewest characters it matches, and a
        /// class of which whatever it matches holds a character (when `prefiltered`; nil when none
        /// is known, such as for an optional part).
        struct Needs {
            var width: Int
            var required: CharacterClass?
        }

        init(pattern: [UInt32], ignoreCase: Bool, prefiltered: Bool) {
            self.pattern = pattern
            self.ignoreCase = ignoreCase
            self.prefiltered = prefiltered
            program.reserveCapacity(pattern.count + 8)
        }

        func fail(_ what: String) -> Never {
            preconditionFailure("PhonePattern: \(what) at \(index) of \(String(String.UnicodeScalarView(pattern.compactMap(Unicode.Scalar.init))))")
        }

        var next: UInt32? { index < pattern.count ? pattern[index] : nil }

        /// The program, ending in `match`; what every match needs.
        mutating func compile() -> CharacterClass? {
            let needs = alternatives()
            if index != pattern.count { fail("unbalanced )") }
            program.append(.match)
            return needs.required
        }

        /// branch|branch|…: each branch but the last behind a split whose other side is the next.
        mutating func alternatives() -> Needs {
            var choice = program.count
            program.append(.jump(choice + 1))  // becomes a split if a `|` follows
            var needs = sequence()
            var exits: [Int] = []
            while next == 0x7C {  // |
                index += 1
                exits.append(program.count)
                program.append(.jump(-1))
                program[choice] = .split(first: choice + 1, second: program.count)
                choice = program.count
                program.append(.jump(choice + 1))
                let branch = sequence()
                needs.width = min(needs.width, branch.width)
                needs.required = union(needs.required, branch.required)
            }
            for exit in exits { program[exit] = .jump(program.count) }
            return needs
        }

        mutating func sequence() -> Needs {
            var needs = Needs(width: 0, required: nil)
            while let c = next, c != 0x7C, c != 0x29 {  // | )
                let start = program.count
                var part = atom()
                while let quantifier = self.quantifier() {
                    if part.width == 0 && (quantifier.max ?? 2) > 1 { fail("a repeated part that can be empty") }
                    repeatLast(from: start, min: quantifier.min, max: quantifier.max, greedy: quantifier.greedy)
                    part = Needs(width: quantifier.min * part.width, required: quantifier.min > 0 ? part.required : nil)
                }
                needs.width += part.width
                needs.required = smaller(needs.required, part.required)
            }
            return needs
        }

        /// The program from `start` on, written `min` times, then `max - min` times optionally
        /// (each copy inside the previous one: x{0,2} is (x(x)?)?), or then any number of times.
        /// The part in place is the first copy; an optional one moves up for the choice before it.
        mutating func repeatLast(from start: Int, min: Int, max: Int?, greedy: Bool) {
            if max == 0 { return program.removeSubrange(start...) }
            var bodyStart = start
            if min == 0 {
                program.insert(.jump(-1), at: start)
                relocate(start + 1..<program.count, by: 1)
                bodyStart = start + 1
            }
            let bodyEnd = program.count
            func copy() {
                let copyStart = program.count
                for index in bodyStart..<bodyEnd { program.append(program[index]) }
                relocate(copyStart..<program.count, by: copyStart - bodyStart)
            }
            func choice(_ at: Int, exit: Int) -> Instruction {
                greedy ? .split(first: at + 1, second: exit) : .split(first: exit, second: at + 1)
            }
            var skips: [Int] = []
            if min == 0 {
                skips.append(start)
            } else {
                for _ in 1..<min { copy() }
            }
            if let max {
                for _ in Swift.max(min, 1)..<max {
                    skips.append(program.count)
                    program.append(.jump(-1))
                    copy()
                }
            } else {
                let loop: Int
                if min == 0 {
                    loop = start
                } else {
                    loop = program.count
                    program.append(.jump(-1))
                    copy()
                }
                program.append(.jump(loop))
                program[loop] = choice(loop, exit: program.count)
            }
            for skip in skips where max != nil { program[skip] = choice(skip, exit: program.count) }
        }

        /// Moves the targets of the choices and jumps in `range` by `offset`.
        mutating func relocate(_ range: Range<Int>, by offset: Int) {
            for index in range {
                switch program[index] {
                case .split(let first, let second): program[index] = .split(first: first + offset, second: second + offset)
                case .jump(let target): program[index] = .jump(target + offset)
                default: break
                }
            }
        }

        mutating func quantifier() -> (min: Int, max: Int?, greedy: Bool)? {
            guard let c = next else { return nil }
            var bounds: (Int, Int?)
            switch c {
            case 0x2A: bounds = (0, nil); index += 1  // *
            case 0x2B: bounds = (1, nil); index += 1  // +
            case 0x3F: bounds = (0, 1); index += 1  // ?
            case 0x7B:  // {
                // {n}, {n,}, {,m}, {n,m}; anything else is a literal `{`, as in Python.
                var cursor = index + 1
                func number() -> Int? {
                    let begin = cursor
                    while cursor < pattern.count, (0x30...0x39).contains(pattern[cursor]) { cursor += 1 }
                    return cursor == begin ? nil : pattern[begin..<cursor].reduce(0) { $0 * 10 + Int($1) - 0x30 }
                }
                let low = number()
                var high = low
                if cursor < pattern.count, pattern[cursor] == 0x2C {  // ,
                    cursor += 1
                    high = number()
                }
                guard cursor < pattern.count, pattern[cursor] == 0x7D else { return nil }
                if low == nil && high == nil && pattern[cursor - 1] != 0x2C { return nil }
                bounds = (low ?? 0, high)
                index = cursor + 1
            default:
                return nil
            }
            if let high = bounds.1, high < bounds.0 { fail("a bad repetition") }
            var greedy = true
            if next == 0x3F {  // lazy
                greedy = false
                index += 1
            }
            if next == 0x2B { fail("a possessive quantifier") }
            return (bounds.0, bounds.1, greedy)
        }

        mutating func atom() -> Needs {
            let c = pattern[index]
            index += 1
            switch c {
            case 0x28:  // (
                var capture: Int?
                if next == 0x3F {  // (?
                    guard index + 1 < pattern.count, pattern[index + 1] == 0x3A else { fail("an unsupported group") }
                    index += 2
                } else {
                    groups += 1
                    capture = groups
                }
                if let capture { program.append(.save(2 * capture)) }
                let needs = alternatives()
                guard next == 0x29 else { fail("a missing )") }
                index += 1
                if let capture { program.append(.save(2 * capture + 1)) }
                return needs
            case 0x5B:  // [
                return set(characterClass())
            case 0x2E:  // .
                program.append(.any)
                return Needs(width: 1, required: nil)
            case 0x5E:  // ^
                program.append(.start)
                return Needs(width: 0, required: nil)
            case 0x24:  // $
                program.append(.end)
                return Needs(width: 0, required: nil)
            case 0x5C:  // \
                switch escape() {
                case .character(let value): return character(value)
                case .set(let set): return self.set(set)
                }
            case 0x2A, 0x2B, 0x3F: fail("nothing to repeat")
            default: return character(c)
            }
        }

        mutating func character(_ value: UInt32) -> Needs {
            guard ignoreCase else {
                program.append(.character(value))
                return Needs(width: 1, required: prefiltered ? CharacterClass(value) : nil)
            }
            let lower = PhoneCase.lower(value)
            if PhoneCase.extraCases[lower] != nil {
                var set = CharacterClass()
                insert(lower...lower, into: &set)
                return self.set(set)
            }
            program.append(.character(lower))
            return Needs(width: 1, required: prefiltered ? CharacterClass(lower) : nil)
        }

        mutating func set(_ set: CharacterClass) -> Needs {
            // Once per pattern: a national number pattern has `\d` a dozen times.
            if let index = classes.firstIndex(where: { $0 == set }) {
                program.append(.set(index))
            } else {
                classes.append(set)
                program.append(.set(classes.count - 1))
            }
            return Needs(width: 1, required: prefiltered && !set.negated ? set : nil)
        }

        enum Escape {
            case character(UInt32)
            case set(CharacterClass)
        }

        mutating func escape() -> Escape {
            guard let c = next else { fail("a trailing backslash") }
            index += 1
            switch c {
            case 0x64, 0x44:  // \d \D
                var set = CharacterClass()
                set.insert(0x30...0x39)
                set.digits = true
                set.negated = c == 0x44
                return .set(set)
            case 0x74: return .character(0x09)  // \t
            case 0x6E: return .character(0x0A)  // \n
            default:
                // Python: an escaped letter or digit is a special sequence; anything else is itself.
                if (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) {
                    fail("an unsupported escape")
                }
                return .character(c)
            }
        }

        mutating func characterClass() -> CharacterClass {
            var set = CharacterClass()
            if next == 0x5E {  // ^
                set.negated = true
                index += 1
            }
            var first = true
            while true {
                guard let c = next else { fail("a missing ]") }
                if c == 0x5D && !first {  // ]
                    index += 1
                    break
                }
                first = false
                index += 1
                var low = c
                if c == 0x5C {
                    switch escape() {
                    case .character(let value): low = value
                    case .set(let inner):
                        guard !inner.negated else { fail("\\D in a class") }
                        set.digits = set.digits || inner.digits
                        set.insert(0x30...0x39)
                        continue
                    }
                }
                // A range, unless the `-` is the last thing in the class.
                if next == 0x2D, index + 1 < pattern.count, pattern[index + 1] != 0x5D {
                    index += 1
                    var high = pattern[index]
                    index += 1
                    if high == 0x5C {
                        guard case .character(let value) = escape() else { fail("a class in a range") }
                        high = value
                    }
                    guard low <= high else { fail("a bad range") }
                    insert(low...high, into: &set)
                } else {
                    insert(low...low, into: &set)
                }
            }
            return set
        }

        /// Python's `_optimize_charset` with IGNORECASE: the lower case of each member, and that
        /// lower case's extra equivalents; the input character is lowered before the test.
        func insert(_ range: ClosedRange<UInt32>, into set: inout CharacterClass) {
            guard ignoreCase else { return set.insert(range) }
            guard range.count <= 0x400 else { fail("a long range ignoring case") }
            for value in range {
                let lower = PhoneCase.lower(value)
                set.insert(lower...lower)
                for extra in PhoneCase.extraCases[lower] ?? [] { set.insert(extra...extra) }
            }
        }

        func union(_ a: CharacterClass?, _ b: CharacterClass?) -> CharacterClass? {
            guard var union = a, let b else { return nil }
            union.ascii.0 |= b.ascii.0
            union.ascii.1 |= b.ascii.1
            union.ranges += b.ranges
            union.digits = union.digits || b.digits
            return union
        }

        /// The one of the two with fewer characters (any Unicode digit counts as many).
        func smaller(_ a: CharacterClass?, _ b: CharacterClass?) -> CharacterClass? {
            guard let a else { return b }
            guard let b else { return a }
            func size(_ set: CharacterClass) -> Int {
                set.ascii.0.nonzeroBitCount + set.ascii.1.nonzeroBitCount + set.ranges.reduce(0) { $0 + $1.count } + (set.digits ? 1000 : 0)
            }
            return size(b) < size(a) ? b : a
        }
    }
}

/// The character properties Python's `re` and `phonenumberutil.py` read, from Swift's Unicode data.
enum PhoneCase {
    /// The code points of a string (Python's characters), by its bytes when it is ASCII.
    static func codePoints(_ text: String) -> [UInt32] {
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> [UInt32]? in
            bytes.allSatisfy { $0 < 0x80 } ? bytes.map(UInt32.init) : nil
        }
        return (ascii ?? nil) ?? text.unicodeScalars.map(\.value)
    }

    /// The Unicode version of the character data the answers follow: Python 3.11's `unicodedata`
    /// (the python3 the tests run python-phonenumbers with). Swift's own data is newer, and
    /// changes with the toolchain; a character assigned later is, as in Python, unassigned: not
    /// a digit, a letter or a cased character. So a number's normal form does not change with
    /// the Swift that compiled Carnet.
    static let unicodeVersion: Unicode.Version = (14, 0)

    /// Whether a scalar was assigned by `unicodeVersion` (asked only of one whose properties
    /// would count: the lookup is slow).
    static func isAssigned(_ properties: Unicode.Scalar.Properties) -> Bool {
        guard let age = properties.age else { return false }
        return age.major < unicodeVersion.major || (age.major == unicodeVersion.major && age.minor <= unicodeVersion.minor)
    }

    /// The decimal digits (general category Nd) of Unicode 14.0: each run of ten, by its zero.
    /// Tests/CarnetModelsTests/PhoneNormalFormTests.swift checks it against Swift's Unicode data.
    static let decimalDigitZeros: [UInt32] = [
        0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0, 0xF20,
        0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900,
        0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
        0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8,
        0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
    ]

    /// The value of a decimal digit (Python's `\d` on a str: Nd), or nil.
    @inline(__always)
    static func decimalDigitValue(_ value: UInt32) -> Int? {
        if value < 0x80 { return (0x30...0x39).contains(value) ? Int(value) - 0x30 : nil }
        // The last zero at or below the value.
        var (low, high) = (0, decimalDigitZeros.count)
        while low < high {
            let middle = (low + high) / 2
            if decimalDigitZeros[middle] <= value { low = middle + 1 } else { high = middle }
        }
        guard low > 0, value - decimalDigitZeros[low - 1] < 10 else { return nil }
        return Int(value - decimalDigitZeros[low - 1])
    }

    /// Python's `\d` on a str: a Unicode decimal digit (general category Nd).
    @inline(__always)
    static func isDecimalDigit(_ value: UInt32) -> Bool {
        decimalDigitValue(value) != nil
    }

    /// `unicodedata.digit(c, -1)`: the digit value of a decimal digit or another digit (`²`, `①`),
    /// else -1.
    @inline(__always)
    static func digitValue(_ value: UInt32) -> Int {
        if let digit = decimalDigitValue(value) { return digit }
        guard value >= 0x80, let properties = Unicode.Scalar(value)?.properties, properties.numericType == .digit,
              let number = properties.numericValue, isAssigned(properties) else { return -1 }
        return Int(number)
    }

    /// Python's `\w` on a str: a letter (Lu Ll Lt Lm Lo), anything with a numeric value, or `_`.
    static func isWordCharacter(_ value: UInt32) -> Bool {
        if value < 0x80 {
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
        }
        guard let properties = Unicode.Scalar(value)?.properties else { return false }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return isAssigned(properties)
        default: return properties.numericType != nil && isAssigned(properties)
        }
    }

    /// The simple lower case Python's `re` compares under IGNORECASE. Swift gives the full
    /// mapping, which differs from the simple one only for U+0130 (İ, full "i̇", simple "i").
    static func lower(_ value: UInt32) -> UInt32 {
        if value < 0x80 { return (0x41...0x5A).contains(value) ? value + 0x20 : value }
        if value == 0x130 { return 0x69 }
        guard let properties = Unicode.Scalar(value)?.properties, properties.changesWhenLowercased, isAssigned(properties) else { return value }
        let mapping = properties.lowercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first!.value : value
    }

    /// Python 3.11's `re._casefix._EXTRA_CASES`: the lower-case characters that also match other
    /// lower-case ones under IGNORECASE (i and dotless ı, s and long ſ, Cyrillic and its old forms…).
    static let extraCases: [UInt32: [UInt32]] = [
        105: [305], 115: [383], 181: [956], 305: [105], 383: [115], 837: [953, 8126], 912: [8147], 944: [8163],
        946: [976], 949: [1013], 952: [977], 953: [837, 8126], 954: [1008], 956: [181], 960: [982], 961: [1009],
        962: [963], 963: [962], 966: [981], 976: [946], 977: [952], 981: [966], 982: [960], 1008: [954],
        1009: [961], 1013: [949], 1074: [7296], 1076: [7297], 1086: [7298], 1089: [7299], 1090: [7300, 7301],
        1098: [7302], 1123: [7303], 7296: [1074], 7297: [1076], 7298: [1086], 7299: [1089], 7300: [1090, 7301],
        7301: [1090, 7300], 7302: [1098], 7303: [1123], 7304: [42571], 7777: [7835], 7835: [7777],
        8126: [837, 953], 8147: [912], 8163: [944], 42571: [7304], 64261: [64262], 64262: [64261],
    ]
}
