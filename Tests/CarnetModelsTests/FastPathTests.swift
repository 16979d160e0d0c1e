import SeededRandom
@testable import CarnetModels
import Testing

/// The byte-level fast paths of the validation rules (taken for ASCII input, i.e. nearly every
/// bulk import) must decide exactly as the Unicode-level rules they short-cut. The oracles below
/// are those rules written the plain way; the inputs are generated from a fixed seed over an
/// alphabet chosen to hit every branch (space kinds, control characters, `@`, `.`, digits,
/// phone punctuation, accented and combining characters).
@Suite struct FastPathTests {
    static let alphabet: [String] = [
        "a", "Z", "0", "7", "@", ".", " ", "\t", "\n", "\r\n", "\u{0}", "\u{7F}", "+", "-", "(", ")", "_",
        "é", "e\u{301}", "\u{A0}", "\u{85}", "\u{2028}", "\u{3000}", "漢", "🙂", "\u{9F}",
        "\u{200B}", "\u{200D}", "\u{202E}", "\u{FEFF}", "\u{AD}",
    ]

    /// Seeded: the same strings on every run and every machine.
    static func strings(count: Int) -> SeededValues<String> {
        SeededValues(seed: 0x9E37_79B9_7F4A_7C15, count: count) { generator in
            func random(_ bound: Int) -> Int { generator.below(bound) }
            // Mostly ASCII, as real input is, so both paths are exercised heavily.
            let asciiOnly = random(3) > 0
            let pool = asciiOnly ? FastPathTests.alphabet.filter { $0.utf8.allSatisfy { $0 < 0x80 } } : FastPathTests.alphabet
            func piece(_ length: Int) -> String {
                var text = ""
                for _ in 0..<random(length) { text += pool[random(pool.count)] }
                return text
            }
            // One in three is shaped like an address, so valid emails are common enough to test.
            return random(3) == 0 ? piece(4) + "@" + piece(4) + "." + piece(3) : piece(14)
        }
    }

    static func oracleTrimmed(_ value: String) -> String {
        let scalars = value.unicodeScalars
        let invisible: Set<UInt32> = [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF]
        let kept = { (s: Unicode.Scalar) in !s.properties.isWhitespace && !invisible.contains(s.value) }
        guard let first = scalars.firstIndex(where: kept), let last = scalars.lastIndex(where: kept)
        else { return "" }
        return String(scalars[first...last])
    }

    /// Scalar by scalar (as the schema's GLOB sees it): one `@`, no white space, no invisible
    /// format characters, a dotted domain of non-empty labels.
    static func oracleEmail(_ email: String) -> Bool {
        let scalars = email.unicodeScalars
        let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty,
              !scalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .format })
        else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    static func oraclePhone(_ phone: String) -> Bool {
        let allowed = Set("0123456789 +-().")
        return phone.allSatisfy { allowed.contains($0) } && phone.contains(where: \.isNumber)
    }

    static func oracleLine(_ value: String, max: Int) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if value.unicodeScalars.count > max {
            issues.append(FieldIssue(.name, "must be at most \(max) characters (got \(value.unicodeScalars.count))"))
        }
        let lineBreakOrControl: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]
        if value.unicodeScalars.contains(where: { lineBreakOrControl.contains($0.properties.generalCategory) }) {
            issues.append(FieldIssue(.name, "must not contain control characters such as NUL, tabs or line breaks"))
        }
        if value.unicodeScalars.contains(where: { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) || $0.value == 0xFEFF }) {
            issues.append(FieldIssue(.name, "must not contain invisible direction or byte-order characters (U+202A–U+202E, U+2066–U+2069, U+FEFF)"))
        }
        return issues
    }

    @Test func fastPathsDecideAsTheUnicodeRules() {
        var checked = 0
        var (validEmails, validPhones, trimmedSome) = (0, 0, 0)
        for value in Self.strings(count: 20_000) {
            #expect(Rules.trimmed(value) == Self.oracleTrimmed(value), "trimmed \(value.debugDescription)")
            #expect(EmailRule.isValid(value) == Self.oracleEmail(value), "email \(value.debugDescription)")
            #expect(PhoneRule.isValid(value) == Self.oraclePhone(value), "phone \(value.debugDescription)")
            for max in [0, 3, 8] {
                var issues: [FieldIssue] = []
                Rules.checkLine(value, .name, max: max, into: &issues)
                #expect(issues == Self.oracleLine(value, max: max), "line \(value.debugDescription) max \(max)")
            }
            checked += 1
            if Self.oracleEmail(value) { validEmails += 1 }
            if Self.oraclePhone(value) { validPhones += 1 }
            if Self.oracleTrimmed(value) != value { trimmedSome += 1 }
        }
        #expect(checked == 20_000)
        // The generator reaches both answers of every rule, or the comparison proves little.
        print("fast paths: \(validEmails) valid emails, \(validPhones) valid phones, \(trimmedSome) trimmed")
        #expect(validEmails > 200 && validPhones > 100 && trimmedSome > 1000)
    }

    @Test(arguments: ["a@b.c", "first.last@example.com", "a.b@c.d.e", "x@y.z."])
    func handPickedEmailsAgree(email: String) {
        #expect(EmailRule.isValid(email) == Self.oracleEmail(email))
    }

    @Test func validatedEqualsNormalizedWhenValid() throws {
        let draft = ContactDraft(name: "  Gary Edwards ", position: "Web Developer, Bluewares\t", email: " gary@example.com", phone: "555 0100 ")
        #expect(try draft.validated() == draft.normalized())
        #expect(draft.issues().isEmpty)
    }
}
