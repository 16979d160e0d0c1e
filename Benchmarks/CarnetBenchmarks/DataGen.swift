import SeededRandom
import CarnetModels

/// A fixed seed gives the same contacts on every run and on both sides.
typealias SeededGenerator = SplitMix64

/// Plausible, valid contacts as an address book holds them: many distinct names (so the name
/// index is realistic), some non-ASCII, a structured name, "Sales, Gale Foods" positions as title
/// and organization, one or two emails and phones (one preferred), and some postal addresses,
/// birthdays and anniversaries (with and without a year) and categories, so that every workload
/// reads and writes the child tables too. Every draft is as Carnet saves it (`normalized()`), so
/// the raw side writes exactly what Carnet writes.
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
    private static let cities = [
        ("Lyon", "69002", "France"), ("Leeds", "LS1 4AP", "UK"), ("Porto", "4000-322", "Portugal"),
        ("Kraków", "31-042", "Poland"), ("Osaka", "530-0001", "Japan"), ("Austin", "78701", "USA"),
    ]
    private static let streets = ["Rue de la Paix", "High Street", "Rua das Flores", "Main Street", "Mill Lane"]
    private static let categories = ["friends", "family", "work", "clients", "suppliers", "book club", "école"]

    /// `count` drafts from `seed`; the same arguments always give the same drafts.
    static func drafts(count: Int, seed: UInt64 = 0xC0FFEE) -> [ContactDraft] {
        var rng = SeededGenerator(seed: seed)
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        var drafts: [ContactDraft] = []
        drafts.reserveCapacity(count)
        for i in 0..<count {
            let (first, firstASCII) = pick(firstNames)
            var last = ""
            for _ in 0..<(2 + Int(rng.next() % 2)) { last += pick(syllables) }
            let surname = last.prefix(1).uppercased() + last.dropFirst()
            let role = pick(roles)
            let company = pick(companies)
            let domain = domains[i % domains.count]
            var draft = ContactDraft(
                name: "\(first) \(surname)", nameParts: PersonName(given: first, family: surname),
                organization: company, title: role)
            draft.emails = [LabeledValue("\(firstASCII).\(last)\(i % 1000)@\(domain)", label: "work")]
            if chance(50) { draft.emails.append(LabeledValue("\(firstASCII)\(i)@home.example", label: "home")) }
            draft.emails[draft.emails.count == 2 && chance(30) ? 1 : 0].preferred = true
            draft.phones = [LabeledValue(
                "+33 6 \(twoDigits(&rng)) \(twoDigits(&rng)) \(twoDigits(&rng)) \(twoDigits(&rng))", label: "cell", preferred: true)]
            if chance(50) { draft.phones.append(LabeledValue("+33 1 \(twoDigits(&rng)) \(twoDigits(&rng)) 00 00", label: "work")) }
            if chance(35) {
                let (city, code, country) = pick(cities)
                draft.addresses = [PostalAddress(
                    label: chance(50) ? "home" : "work", street: "\(1 + rng.next() % 200) \(pick(streets))", locality: city,
                    postalCode: code, country: country)]
            }
            if chance(50) {
                let year: Int? = chance(60) ? 1940 + Int(rng.next() % 66) : nil
                draft.dates.append(ContactDate(label: ContactDate.birthday, year: year, month: 1 + Int(rng.next() % 12), day: 1 + Int(rng.next() % 28)))
            }
            if chance(10) {
                draft.dates.append(ContactDate(label: ContactDate.anniversary, year: 1990 + Int(rng.next() % 35), month: 1 + Int(rng.next() % 12), day: 1 + Int(rng.next() % 28)))
            }
            if chance(50) { draft.categories.append(pick(categories)) }
            if chance(15) {
                let second = pick(categories)
                if !draft.categories.contains(second) { draft.categories.append(second) }
            }
            drafts.append(draft)
        }
        return drafts
    }

    /// How many child rows `drafts` make, by table (the raw side and Carnet must both write them).
    static func childRows(_ drafts: [ContactDraft]) -> [String: Int] {
        var rows: [String: Int] = [:]
        for draft in drafts {
            rows["contact_emails", default: 0] += draft.emails.count
            rows["contact_phones", default: 0] += draft.phones.count
            rows["contact_addresses", default: 0] += draft.addresses.count
            rows["contact_dates", default: 0] += draft.dates.count
            rows["contact_categories", default: 0] += draft.categories.count
        }
        return rows
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
