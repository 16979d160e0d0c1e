import Foundation

/// Why contacts look like one person. The order is their strength: an email is one person's, a
/// phone number often a household's, a name a namesake's, a near name only with something shared.
public enum DuplicateReasonKind: String, Sendable, Codable, CaseIterable {
    case email
    case phone
    case name
    case nearName = "near-name"

    /// Higher is stronger.
    public var strength: Int {
        switch self {
        case .email: 4
        case .phone: 3
        case .name: 2
        case .nearName: 1
        }
    }
}

/// One reason, and the contacts of a group it holds for.
public struct DuplicateReason: Sendable, Equatable, Codable, CustomStringConvertible {
    public let kind: DuplicateReasonKind
    /// What they share, as the user reads it: the email, the number, the name as compared.
    public let detail: String
    /// The contacts it holds for (at least two), in id order.
    public let contactIDs: [Int64]

    public init(kind: DuplicateReasonKind, detail: String, contactIDs: [Int64]) {
        self.kind = kind
        self.detail = detail
        self.contactIDs = contactIDs
    }

    public var description: String {
        switch kind {
        case .email: "same email \(detail)"
        case .phone: "same phone \(detail)"
        case .name: "same name \(detail)"
        case .nearName: "near names, \(detail)"
        }
    }
}

/// Contacts likely to be one person, with every reason found.
public struct DuplicateGroup: Sendable, Equatable {
    /// In id order.
    public let contactIDs: [Int64]
    /// Strongest first.
    public let reasons: [DuplicateReason]

    public init(contactIDs: [Int64], reasons: [DuplicateReason]) {
        self.contactIDs = contactIDs
        self.reasons = reasons
    }

    /// The strength of its strongest reason.
    public var strength: Int { reasons.map(\.kind.strength).max() ?? 0 }
}

/// What the finder knows of a contact: what it compares, nothing else (reading whole contacts
/// would cost more than finding their duplicates).
public struct DuplicateCandidate: Sendable, Equatable {
    public let id: Int64
    public let name: String
    /// The structured name's given and family parts (vCard N), when known: "Mr. John Richter
    /// Doe Sr." is also "John Doe".
    public var given: String
    public var family: String
    public var emails: [String]
    public var phones: [String]
    /// Each address as its parts joined (`PostalAddress/matchText`).
    public var addresses: [String]

    public init(
        id: Int64, name: String, given: String = "", family: String = "", emails: [String] = [], phones: [String] = [], addresses: [String] = []
    ) {
        self.id = id
        self.name = name
        self.given = given
        self.family = family
        self.emails = emails
        self.phones = phones
        self.addresses = addresses
    }
}

/// Two contacts, the smaller id first.
public struct ContactPair: Sendable, Hashable {
    public let first: Int64
    public let second: Int64

    public init(_ a: Int64, _ b: Int64) {
        first = min(a, b)
        second = max(a, b)
    }
}

/// Which contacts a search for duplicates looks at.
public struct DuplicateScope: Sendable, Equatable {
    /// Only these contacts (nil: every contact of the file).
    public var contactIDs: Set<Int64>?
    /// Only groups that hold at least one of these (an import's new contacts); nil: every group.
    public var involving: IDRanges?
    /// Only the contacts of this address book (nil: every book).
    public var bookID: Int64?

    public init(contactIDs: Set<Int64>? = nil, involving: IDRanges? = nil, bookID: Int64? = nil) {
        self.contactIDs = contactIDs
        self.involving = involving
        self.bookID = bookID
    }
}

/// What a search for duplicates found, and what it cost.
public struct DuplicateSearch: Sendable, Equatable {
    /// Strongest first.
    public let groups: [DuplicateGroup]
    /// The contacts looked at.
    public let contacts: Int
    /// The pairs of contacts the finder compared (or linked by a shared key): against
    /// `contacts × (contacts − 1) / 2` for comparing every pair.
    public let pairsCompared: Int
    /// The name of each contact in a group, so a list of groups needs no contact read.
    public let names: [Int64: String]

    public init(groups: [DuplicateGroup], contacts: Int, pairsCompared: Int, names: [Int64: String] = [:]) {
        self.groups = groups
        self.contacts = contacts
        self.pairsCompared = pairsCompared
        self.names = names
    }

    /// The pairs comparing every contact with every other would take.
    public var allPairs: Int { contacts * max(contacts - 1, 0) / 2 }
}

/// The keys contacts are compared by.
public enum DuplicateKeys {
    /// An email, ignoring case.
    public static func email(_ value: String) -> String {
        Rules.trimmed(value).lowercased()
    }

    /// A phone by its E.164 form where `phones` can tell it (`+44 20 7946 0000`, `0044 20 7946
    /// 0000` and, in a file whose region is GB, `020 7946 0000` are `+442079460000`); a number
    /// whose region is unknown by its digits, marked so, meeting only the same digits written
    /// without a country code. Nil for a national number of fewer than six digits, too short to
    /// tell a person.
    public static func phone(_ value: String, _ phones: PhoneNormalForm) -> String? {
        let trimmed = Rules.trimmed(value)
        if let e164 = phones.e164(trimmed) {
            return SearchText.nationalNumber(String(e164.dropFirst())).count >= 6 ? e164 : nil
        }
        let digits = SearchText.phoneDigits(trimmed)
        guard digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.drop(while: { $0 == "0" }).count >= 6 else { return nil }
        return unknownRegion + digits
    }

    /// What starts the key of a number whose region is unknown.
    public static let unknownRegion = "?"

    /// A phone's key as words a search finds it by: the key without the mark of an unknown region.
    public static func phoneSearchText(_ key: String) -> String {
        key.hasPrefix(unknownRegion) ? String(key.dropFirst(unknownRegion.count)) : key
    }

    /// A name's words folded as search folds them (case, accents, punctuation), in alphabetical
    /// order: "Lovelace, Ada", "ada lovelace" and "Ada LOVELACE" are `["ada", "lovelace"]`.
    public static func nameWords(_ name: String) -> [String] {
        let plain = name.utf8.allSatisfy { $0 < 0x80 }
        if plain {
            // ASCII: words are runs of letters and digits, folding is lower-casing.
            var words: [String] = []
            var current: [UInt8] = []
            for byte in name.utf8 {
                let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                if (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) {
                    current.append(lower)
                } else if !current.isEmpty {
                    words.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            }
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            return words.sorted()
        }
        return SearchText.tokens(name).sorted()
    }

    /// An address's words folded (and sorted, as a name's), so punctuation and case do not tell two apart.
    public static func address(_ matchText: String) -> String? {
        let words = nameWords(matchText)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The domain of an email, ignoring case.
    public static func domain(_ emailKey: String) -> String? {
        // ASCII: each byte is a character, so the last "@" is found without forming characters,
        // which cost more than the rest of a key's making.
        if emailKey.utf8.allSatisfy({ $0 < 0x80 }) {
            guard let at = emailKey.utf8.lastIndex(of: UInt8(ascii: "@")) else { return nil }
            let domain = emailKey.utf8[emailKey.utf8.index(after: at)...]
            return domain.isEmpty ? nil : String(Substring(domain))
        }
        guard let at = emailKey.lastIndex(of: "@") else { return nil }
        let domain = emailKey[emailKey.index(after: at)...]
        return domain.isEmpty ? nil : String(domain)
    }

    /// Whether two names (their `nameWords(_:)`, not equal) are near: every word of the shorter
    /// one is a word of the other, its initial ("A. Lovelace"), or one letter away from it
    /// ("Jon"/"John"); and at least one is a whole word of three letters or more.
    public static func areNear(_ a: [String], _ b: [String]) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard !short.isEmpty, long.count - short.count <= 2 else { return false }
        var free = long
        var whole = false
        // Whole words first, so an initial does not take the word a whole one needs.
        var rest: [String] = []
        for word in short {
            if let i = free.firstIndex(of: word) {
                free.remove(at: i)
                if word.count >= 3 { whole = true }
            } else {
                rest.append(word)
            }
        }
        for word in rest {
            if let i = free.firstIndex(where: { other in
                (word.count == 1 && isInitial(word) && other.hasPrefix(word)) || (other.count == 1 && isInitial(other) && word.hasPrefix(other))
                    || (word.count >= 3 && other.count >= 3 && oneEditApart(word, other))
            }) {
                free.remove(at: i)
            } else {
                return false
            }
        }
        return whole
    }

    /// A letter standing for a word ("A." for Ada); a digit stands for nothing.
    private static func isInitial(_ word: String) -> Bool { word.unicodeScalars.allSatisfy(\.properties.isAlphabetic) }

    /// Whether one insertion, deletion or substitution turns `a` into `b`.
    static func oneEditApart(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard abs(x.count - y.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] {
                i += 1
                j += 1
                continue
            }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if y.count > x.count { j += 1 } else {
                i += 1
                j += 1
            }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }
}

/// Finds the contacts likely to be one person without comparing every pair: contacts are put in
/// blocks by what they would share (an email, a phone's number, a name as compared; for near
/// names, a word of the name together with an email domain, a phone or an address), and only
/// contacts of one block are compared.
public enum DuplicateFinder {
    /// Near names are compared within a block of at most this many contacts: a larger one (a
    /// common first name at a large mail provider) says nothing a smaller block would not.
    public static let nearNameBlockLimit = 64
    /// An email, number or name shared by more contacts than this is not a sign of one person
    /// but of many (a switchboard, a team's address, a common name): it is no reason on its own.
    public static let sharedKeyLimit = 12

    public static func find(
        _ candidates: [DuplicateCandidate], differentPeople: Set<ContactPair> = [], involving: IDRanges? = nil,
        phones: PhoneNormalForm
    ) -> DuplicateSearch {
        // Exact keys: one block per key, the members linked through the block's first.
        // Sized once: growing them key by key rehashed every key several times.
        var blocks: [String: [Int]] = Dictionary(minimumCapacity: candidates.count * 4)
        var nearBlocks: [String: [Int]] = Dictionary(minimumCapacity: candidates.count * 8)
        var words: [[String]] = []
        words.reserveCapacity(candidates.count)
        for (index, candidate) in candidates.enumerated() {
            let keys = blockKeys(candidate, phones: phones)
            words.append(keys.words)
            for key in keys.exact { blocks[key, default: []].append(index) }
            for key in keys.near { nearBlocks[key, default: []].append(index) }
        }
        var collector = DuplicateCollector(phones: phones)
        for (key, members) in blocks where members.count > 1 && members.count <= sharedKeyLimit {
            collector.exactBlock(key, members.map { candidates[$0] })
        }
        for (key, members) in nearBlocks where members.count > 1 && members.count <= nearNameBlockLimit {
            collector.nearBlock(key, members.map { (candidates[$0].id, words[$0]) })
        }
        var names: [Int64: String] = [:]
        for candidate in candidates { names[candidate.id] = candidate.name }
        return collector.finish(
            contacts: candidates.count, differentPeople: differentPeople, involving: involving,
            name: { names[$0] ?? "" })
    }

    /// What a contact is put in blocks by: its name's words, and its keys (see `find`).
    public struct BlockKeys: Sendable, Equatable {
        /// The name's words (`DuplicateKeys/nameWords(_:)`), which near names compare.
        public var words: [String]
        /// An email, a number or a whole name, each shared only by one person's cards.
        public var exact: Set<String>
        /// A word of the name together with an email domain, a number or an address.
        public var near: Set<String>
    }

    /// The blocks `candidate` belongs in: one finder keeps them in dictionaries, another sorts
    /// them on disk, and both ask here.
    public static func blockKeys(_ candidate: DuplicateCandidate, phones: PhoneNormalForm) -> BlockKeys {
        let nameWords = DuplicateKeys.nameWords(candidate.name)
        var keys: Set<String> = []
        var contexts: Set<String> = []
        for email in candidate.emails {
            let key = DuplicateKeys.email(email)
            keys.insert("e\u{1}" + key)
            if let domain = DuplicateKeys.domain(key) { contexts.insert("d\u{1}" + domain) }
        }
        for phone in candidate.phones {
            guard let key = DuplicateKeys.phone(phone, phones) else { continue }
            keys.insert("p\u{1}" + key)
            contexts.insert("p\u{1}" + key)
        }
        for address in candidate.addresses {
            guard let key = DuplicateKeys.address(address) else { continue }
            contexts.insert("a\u{1}" + key)
        }
        if !nameWords.isEmpty { keys.insert("n\u{1}" + nameWords.joined(separator: " ")) }
        if !candidate.given.isEmpty && !candidate.family.isEmpty {
            let parts = DuplicateKeys.nameWords(candidate.given + " " + candidate.family)
            if !parts.isEmpty { keys.insert("n\u{1}" + parts.joined(separator: " ")) }
        }
        var near: Set<String> = []
        for word in Set(nameWords) where word.count >= 2 {
            for context in contexts { near.insert(word + "\u{2}" + context) }
        }
        return BlockKeys(words: nameWords, exact: keys, near: near)
    }

    /// One component as groups with no two members the user said are different people: each
    /// member joins the first group it shares a reason with and has no such pair in.
    static func split(_ members: [Int64], _ reasons: [DuplicateReason], _ different: Set<ContactPair>) -> [DuplicateGroup] {
        let hasExclusion = !different.isEmpty && members.indices.contains { i in
            members[(i + 1)...].contains { different.contains(ContactPair(members[i], $0)) }
        }
        var parts: [[Int64]]
        if !hasExclusion {
            parts = [members]
        } else {
            var linked: [Int64: Set<Int64>] = [:]
            for reason in reasons {
                for a in reason.contactIDs { linked[a, default: []].formUnion(reason.contactIDs.filter { $0 != a && !different.contains(ContactPair(a, $0)) }) }
            }
            parts = []
            for member in members {
                if let i = parts.firstIndex(where: { part in
                    part.contains { linked[member]?.contains($0) == true } && !part.contains { different.contains(ContactPair(member, $0)) }
                }) {
                    parts[i].append(member)
                } else {
                    parts.append([member])
                }
            }
        }
        return parts.compactMap { part in
            guard part.count > 1 else { return nil }
            let inPart = Set(part)
            let kept = reasons.compactMap { reason -> DuplicateReason? in
                let ids = reason.contactIDs.filter(inPart.contains)
                // A reason holds between members not said to be different.
                let holds = ids.indices.contains { i in ids[(i + 1)...].contains { !different.contains(ContactPair(ids[i], $0)) } }
                return ids.count > 1 && holds ? DuplicateReason(kind: reason.kind, detail: reason.detail, contactIDs: ids) : nil
            }
            guard !kept.isEmpty else { return nil }
            let sorted = kept.sorted { a, b in
                if a.kind.strength != b.kind.strength { return a.kind.strength > b.kind.strength }
                return a.detail != b.detail ? a.detail < b.detail : a.contactIDs.lexicographicallyPrecedes(b.contactIDs)
            }
            return DuplicateGroup(contactIDs: part.sorted(), reasons: sorted)
        }
    }
}

/// Turns blocks into groups: each block of an exact key links its members with one reason,
/// each block of near names compares its members pair by pair, and the contacts linked, split
/// where the user said two are different people, are the groups. It holds only what the blocks
/// found, never the book, so a finder that walks blocks off disk stays in bounded memory.
public struct DuplicateCollector {
    private let phones: PhoneNormalForm
    private var links = IDUnionFind()
    private var reasons: [DuplicateReason] = []
    private var nearPairs: [ContactPair: String] = [:]
    /// Pairs compared, or linked by a shared key.
    public private(set) var compared = 0

    public init(phones: PhoneNormalForm) { self.phones = phones }

    /// A block of an exact key (`DuplicateFinder/BlockKeys/exact`) of two to
    /// `DuplicateFinder/sharedKeyLimit` members, in id order.
    public mutating func exactBlock(_ key: String, _ members: [DuplicateCandidate]) {
        guard let first = members.first else { return }
        let kind: DuplicateReasonKind
        switch key.first {
        case "e": kind = .email
        case "p": kind = .phone
        default: kind = .name
        }
        compared += members.count - 1
        for member in members.dropFirst() { links.union(first.id, member.id) }
        let value = String(key.dropFirst(2))
        let detail: String
        switch kind {
        case .email: detail = value
        case .phone: detail = Rules.trimmed(first.phones.first { DuplicateKeys.phone($0, phones) == value } ?? value)
        default: detail = "“" + value + "”"
        }
        reasons.append(DuplicateReason(kind: kind, detail: detail, contactIDs: members.map(\.id).sorted()))
    }

    /// A block of a near key (`DuplicateFinder/BlockKeys/near`) of two to
    /// `DuplicateFinder/nearNameBlockLimit` members, each with its name's words.
    public mutating func nearBlock(_ key: String, _ members: [(id: Int64, words: [String])]) {
        for i in members.indices {
            for j in members.index(after: i)..<members.endIndex {
                let (a, b) = (members[i], members[j])
                let pair = ContactPair(a.id, b.id)
                guard a.words != b.words else { continue }
                let context = key.split(separator: "\u{2}", maxSplits: 1).last.map(String.init) ?? ""
                let shared: String
                switch context.first {
                case "d": shared = "both at " + context.dropFirst(2)
                case "p": shared = "sharing a phone"
                default: shared = "sharing an address"
                }
                // A pair near in several blocks says the least of what they share, whichever
                // block came first: the answer does not depend on the order blocks are met in.
                if let known = nearPairs[pair] {
                    if shared < known { nearPairs[pair] = shared }
                    continue
                }
                compared += 1
                guard DuplicateKeys.areNear(a.words, b.words) else { continue }
                nearPairs[pair] = shared
                links.union(a.id, b.id)
            }
        }
    }

    /// The groups, strongest first: only those holding one of `involving`, when given.
    public mutating func finish(
        contacts: Int, differentPeople: Set<ContactPair>, involving: IDRanges?, name: (Int64) -> String
    ) -> DuplicateSearch {
        var reasons = self.reasons
        for (pair, shared) in nearPairs {
            reasons.append(DuplicateReason(kind: .nearName, detail: shared, contactIDs: [pair.first, pair.second]))
        }
        // Components, then split where the user said two are different people.
        var components: [Int64: [Int64]] = [:]
        var reasonsByRoot: [Int64: [DuplicateReason]] = [:]
        for reason in reasons {
            guard let first = reason.contactIDs.first else { continue }
            let root = links.find(first)
            components[root, default: []].append(contentsOf: reason.contactIDs)
            reasonsByRoot[root, default: []].append(reason)
        }
        var groups: [DuplicateGroup] = []
        for (root, members) in components {
            let memberIDs = Array(Set(members)).sorted()
            let groupReasons = reasonsByRoot[root] ?? []
            // Reasons chain: A shares a number with B, B a name with C, C an email with D… A
            // component larger than a shared key may be is many people, not one: each set of
            // contacts a reason holds for is then a group of its own.
            var pieces: [([Int64], [DuplicateReason])] = []
            if memberIDs.count <= DuplicateFinder.sharedKeyLimit {
                pieces = [(memberIDs, groupReasons)]
            } else {
                var bySet: [[Int64]: [DuplicateReason]] = [:]
                for reason in groupReasons { bySet[reason.contactIDs, default: []].append(reason) }
                pieces = bySet.map { ($0.key, $0.value) }
            }
            for (ids, reasons) in pieces {
                for part in DuplicateFinder.split(ids, reasons, differentPeople) {
                    if let involving, !part.contactIDs.contains(where: involving.contains) { continue }
                    groups.append(part)
                }
            }
        }
        groups.sort { a, b in
            if a.strength != b.strength { return a.strength > b.strength }
            if a.reasons.count != b.reasons.count { return a.reasons.count > b.reasons.count }
            // Then by their contacts, so the order never depends on the order blocks were met in.
            return a.contactIDs.lexicographicallyPrecedes(b.contactIDs)
        }
        var names: [Int64: String] = [:]
        for group in groups { for id in group.contactIDs { names[id] = name(id) } }
        return DuplicateSearch(groups: groups, contacts: contacts, pairsCompared: compared, names: names)
    }
}

/// Disjoint sets of contacts, by id, holding only the contacts ever joined: a finder's links
/// grow with the duplicates found, not with the book.
struct IDUnionFind {
    private var parent: [Int64: Int64] = [:]

    mutating func find(_ x: Int64) -> Int64 {
        var x = x
        while let up = parent[x], up != x {
            let grand = parent[up] ?? up
            parent[x] = grand
            x = grand
        }
        return x
    }

    mutating func union(_ a: Int64, _ b: Int64) {
        let ra = find(a), rb = find(b)
        guard ra != rb else { return }
        parent[ra] = ra
        parent[rb] = rb
        parent[max(ra, rb)] = min(ra, rb)
    }
}
