import SeededRandom
import CarnetModels

/// A fixed seed gives the same contacts on every run and on both sides.
typealias SeededGenerator = SplitMix64

/// Plausible, valid contacts: many distinct names (so the name index is realistic), some
/// non-ASCII, positions like "Sales, Gale Foods", emails and phones that pass Carnet's rules.
enum ContactData {
    // (display, ASCII for the email address)
    private static let firstNames: [(String, String)] = [
        ("Ada", "ada"), ("Alan", "alan"), ("Grace", "grace"), ("Edsger", "edsger"), ("Barbara", "barbara"),
        ("Donald", "donald"), ("Frances", "frances"), ("John", "john"), ("Margaret", "margaret"),
        ("Ken", "ken"), ("Dennis", "dennis"), ("Radia", "radia"), ("Leslie", "leslie"), ("Niklaus", "niklaus"),
        ("Tony", "tony"), ("Karen", "karen"), ("Guido", "guido"), ("Hedy", "hedy"), ("Claude", "claude"),
        ("Éloïse", "eloise"), ("Zoë", "zoe"), ("Łukasz", "lukasz"), ("Søren", "soren"), ("Inès", "ines"),
        ("Hiroshi", "hiroshi"), ("Mei", "mei"), ("Priya", "priya"), ("Olusegun", "olusegun"), ("Chiara", "chiara"),
        ("Mateo", "mateo"), ("Anouk", "anouk"), ("Björn", "bjorn"), ("Yara", "yara"), ("Tomás", "tomas"),
        ("Aiko", "aiko"), ("Farid", "farid"), ("Lena", "lena"), ("Ravi", "ravi"), ("Sofia", "sofia"), ("Wen", "wen"),
    ]
    private static let syllables = [
        "ka", "lo", "mi", "ra", "ten", "vel", "dor", "sha", "mar", "qui", "bel", "zon", "tra", "ni", "gue",
        "sto", "ber", "lin", "ox", "ham",
    ]
    private static let roles = [
        "Sales", "Engineering", "Support", "Design", "Finance", "Legal", "Marketing", "Operations", "Research",
        "Purchasing",
    ]
    private static let companies = [
        "Gale Foods", "Norbert & Sons", "Acme Corp", "Blue Harbor", "Quill Ltd", "Orchid Labs", "Tessera",
        "North Mill", "Cobalt Freight", "Juniper Health",
    ]
    private static let domains = ["example.com", "example.org", "mail.example.net", "corp.example"]

    /// `count` drafts from `seed`; the same arguments always give the same drafts.
    static func drafts(count: Int, seed: UInt64 = 0xC0FFEE) -> [ContactDraft] {
        var rng = SeededGenerator(seed: seed)
        var drafts: [ContactDraft] = []
        drafts.reserveCapacity(count)
        for i in 0..<count {
            let (first, firstASCII) = firstNames[Int(rng.next() % UInt64(firstNames.count))]
            var last = ""
            for _ in 0..<(2 + Int(rng.next() % 2)) { last += syllables[Int(rng.next() % UInt64(syllables.count))] }
            let surname = last.prefix(1).uppercased() + last.dropFirst()
            let role = roles[Int(rng.next() % UInt64(roles.count))]
            let company = companies[Int(rng.next() % UInt64(companies.count))]
            let domain = domains[i % domains.count]
            let phone = "+33 6 \(twoDigits(&rng)) \(twoDigits(&rng)) \(twoDigits(&rng)) \(twoDigits(&rng))"
            drafts.append(ContactDraft(
                name: "\(first) \(surname)",
                position: "\(role), \(company)",
                email: "\(firstASCII).\(last)\(i % 1000)@\(domain)",
                phone: phone))
        }
        return drafts
    }

    private static func twoDigits(_ rng: inout SeededGenerator) -> String {
        let n = rng.next() % 100
        return n < 10 ? "0\(n)" : "\(n)"
    }

    /// `count` distinct ids in 1...n in a fixed pseudo-random order (a partial Fisher–Yates).
    static func distinctIDs(count: Int, upTo n: Int, seed: UInt64) -> [Int64] {
        precondition(count <= n, "cannot pick \(count) distinct ids out of \(n)")
        var rng = SeededGenerator(seed: seed)
        var pool = Array(Int64(1)...Int64(n))
        for i in 0..<count {
            let j = i + Int(rng.next() % UInt64(n - i))
            pool.swapAt(i, j)
        }
        return Array(pool.prefix(count))
    }
}
