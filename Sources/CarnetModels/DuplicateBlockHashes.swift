extension DuplicateFinder {
    /// The 64-bit hash of a block key (`BlockKeys/exact` or `BlockKeys/near`), what a finder that
    /// sorts keys off disk sorts: FNV-1a of the key, its lowest bit saying which kind of block it
    /// opens (1 for near names).
    public static func blockHash(_ key: String, near: Bool) -> Int64 {
        marked(StableHash.fnv1a(key), near: near)
    }

    /// The `blockHash(_:near:)` of each of `blockKeys(_:phones:)`' keys, in increasing order and
    /// each once, appended to `hashes` (emptied first).
    ///
    /// The same keys, hashed as they are spelled rather than built: a pass over a whole book asks
    /// this for every contact, and building each key (a word of the name with each context
    /// joined) and putting it in a set cost more than the rest of the pass.
    public static func blockHashes(_ candidate: DuplicateCandidate, phones: PhoneNormalForm, into hashes: inout [Int64]) {
        hashes.removeAll(keepingCapacity: true)
        let nameWords = DuplicateKeys.nameWords(candidate.name)
        // Each context (an email's domain, a number, an address) by its tag and its value.
        var contexts: [(tag: UInt8, value: String)] = []
        for email in candidate.emails {
            let key = DuplicateKeys.email(email)
            hashes.append(exact(tag: "e", key))
            if let domain = DuplicateKeys.domain(key) { contexts.append((UInt8(ascii: "d"), domain)) }
        }
        for phone in candidate.phones {
            guard let key = DuplicateKeys.phone(phone, phones) else { continue }
            hashes.append(exact(tag: "p", key))
            contexts.append((UInt8(ascii: "p"), key))
        }
        for address in candidate.addresses {
            guard let key = DuplicateKeys.address(address) else { continue }
            contexts.append((UInt8(ascii: "a"), key))
        }
        if !nameWords.isEmpty { hashes.append(name(nameWords)) }
        // Most cards' name is their given and family names: their words are the name's, already hashed.
        if !candidate.given.isEmpty && !candidate.family.isEmpty && !spellsOut(candidate.name, candidate.given, candidate.family) {
            let parts = DuplicateKeys.nameWords(candidate.given + " " + candidate.family)
            if !parts.isEmpty { hashes.append(name(parts)) }
        }
        for word in nameWords where word.count >= 2 {
            var start = StableHash.FNV1a()
            start.combine(word)
            start.combine(byte: 0x02)
            for context in contexts {
                var hash = start
                hash.combine(byte: context.tag)
                hash.combine(byte: 0x01)
                hash.combine(context.value)
                hashes.append(marked(hash.value, near: true))
            }
        }
        // A key met twice (two emails at one domain, a word twice in the name) is one block.
        hashes.sort()
        var kept = 0
        for i in hashes.indices where kept == 0 || hashes[kept - 1] != hashes[i] {
            hashes[kept] = hashes[i]
            kept += 1
        }
        hashes.removeLast(hashes.count - kept)
    }

    /// Whether `name` is `given + " " + family`, byte for byte, found without joining them.
    private static func spellsOut(_ name: String, _ given: String, _ family: String) -> Bool {
        let (name, given, family) = (name.utf8, given.utf8, family.utf8)
        guard name.count == given.count + 1 + family.count, name.starts(with: given) else { return false }
        let rest = name.dropFirst(given.count)
        return rest.first == 0x20 && rest.dropFirst().elementsEqual(family)
    }

    /// "t\u{1}" + key, hashed as an exact key.
    private static func exact(tag: Unicode.Scalar, _ key: String) -> Int64 {
        var hash = StableHash.FNV1a()
        hash.combine(byte: UInt8(ascii: tag))
        hash.combine(byte: 0x01)
        hash.combine(key)
        return marked(hash.value, near: false)
    }

    /// "n\u{1}" + the words joined by spaces, hashed as an exact key.
    private static func name(_ words: [String]) -> Int64 {
        var hash = StableHash.FNV1a()
        hash.combine(byte: UInt8(ascii: "n"))
        hash.combine(byte: 0x01)
        for (i, word) in words.enumerated() {
            if i > 0 { hash.combine(byte: 0x20) }
            hash.combine(word)
        }
        return marked(hash.value, near: false)
    }

    private static func marked(_ hash: UInt64, near: Bool) -> Int64 {
        Int64(bitPattern: near ? hash | 1 : hash & ~1)
    }
}
