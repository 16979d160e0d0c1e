@testable import CarnetModels
import CarnetTestSupport
import Foundation
import SeededRandom
import TestNeeds
import Testing

/// PhoneNormalForm ports libphonenumber's `parse` (python-phonenumbers' phonenumberutil.py) to
/// Swift: these hold it to the Python package's own answers, `format_number(parse(text, region),
/// E164)` or nothing where `parse` raises NumberParseException, for numbers as people type them,
/// for the example numbers of every region written every way, and for generated inputs. The
/// package is the one `make deps` installs into .build/pypackages (PHONENUMBERS_VERSION in the
/// Makefile); without it these tests fail, saying so.
@Suite struct PhoneNormalFormTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let packages = root.appendingPathComponent(".build/pypackages")

    /// Numbers as people type them, by the region where they would: each is tried with that
    /// region as the default, with none, and with others (`defaults`).
    static let typed: [(region: String, texts: [String])] = [
        ("US", [
            "(555) 010-0199", "555-010-0199", "+1 555 010 0199", "1 (650) 253-0000", "650.253.0000", "6502530000", "+16502530000",
            "+1-650-253-0000 x123", "(650) 253-0000 ext. 4", "650-253-0000 ext 4567", "650 253 0000 extension 12", "1-800-FLOWERS",
            "1-800-GOOG-411", "1 800 MICROSOFT", "800 FLOWERS", "011 44 20 7946 0000", "011 33 1 23 45 67 89", "+1 (212) 555-0123",
            "212-555-0123 - 503#", "tel:+1-650-253-0000", "tel:650-253-0000;phone-context=+1", "253-0000", "1 800 555 0199",
            "+1 650 253 0000;ext=55", "+1 650 253 0000,,123", "(530) 583-6985 x302/x2303", "Phone: (650) 253-0000", "1 650 253 0000.",
        ]),
        ("CA", ["(416) 555-0123", "+1 416 555 0123", "1-604-555-0199", "613.555.0142", "011 1 416 555 0123", "416 555 0123 x 5", "555-0123"]),
        ("GB", [
            "020 7946 0000", "+44 20 7946 0000", "+44 (0)20 7946 0000", "+44 (0) 20 7946 0000", "0044 20 7946 0000", "44 20 7946 0000",
            "4420 7946 0000", "07700 900123", "+44 7700 900123", "(0161) 496 0000", "0161 496 0000", "0800 123 4567", "01632 960983",
            "+44 (0) 1632 960983", "020 7946 0000 ext. 4", "+44 20 7946 0000 x123", "02079460000", "(+44) 20 7946 0000", "+44-20-7946-0000.",
            "7946 0000", "999", "00 1 650 253 0000",
        ]),
        ("DE", [
            "030 1234567", "+49 30 1234567", "0049 30 12345678", "(030) 123 456 78", "0151 23456789", "+49 (0)151 23456789", "089/12345678",
            "0800 1234567", "+49-89-1234-5678", "49 30 1234567", "030 12345-678", "+49 30 901820", "0 30 1234567",
        ]),
        ("FR", [
            "01 23 45 67 89", "+33 1 23 45 67 89", "+33 (0)1 23 45 67 89", "0033 6 12 34 56 78", "06 12 34 56 78", "06.12.34.56.78",
            "0612345678", "33 6 12 34 56 78", "0800 123 456", "3615", "+33 6 12 34 56 78 poste 12",
        ]),
        ("IT", [
            "+39 06 1234 5678", "06 1234 5678", "0039 06 12345678", "347 123 4567", "+39 347 1234567", "02 1234 5678", "+39 02-12345678",
            "800 123 456", "0612345678", "39 06 1234 5678", "+39 0 6 1234 5678", "+39 000 1234",
        ]),
        ("ES", ["912 34 56 78", "+34 912 34 56 78", "0034 612 345 678", "612345678", "+34 (91) 234 5678", "900 123 456", "34 612 345 678"]),
        ("NL", ["020 123 4567", "+31 20 123 4567", "+31 (0)20 123 4567", "06 12345678", "0031 6 12345678", "06-12345678", "0800 1234", "31 20 1234567"]),
        ("CH", ["044 668 18 00", "+41 44 668 18 00", "0041 44 668 18 00", "078 123 45 67", "+41 (0)78 123 45 67", "0800 123 456", "41 44 668 18 00"]),
        ("BR", [
            "(11) 91234-5678", "+55 11 91234-5678", "011 91234-5678", "0 21 2345-6789", "0 15 11 91234 5678", "021 11 98765 4321",
            "(21) 2345-6789", "55 11 91234 5678", "+55 (11) 3456-7890", "0800 123 4567", "0XX11 91234 5678", "90 15 11 3456 7890",
        ]),
        ("AR", [
            "011 15 2345-6789", "(011) 15 2345-6789", "+54 9 11 2345-6789", "+54 11 2345-6789", "0351 15 234-5678", "(0351) 423-4567",
            "0054 9 11 2345 6789", "11 2345-6789", "15 2345-6789", "0800 123 4567", "+54 11 15 2345 6789", "0 11 15 2345 6789",
        ]),
        ("MX", [
            "55 1234 5678", "+52 55 1234 5678", "+52 1 55 1234 5678", "044 55 1234 5678", "045 55 1234 5678", "01 55 1234 5678",
            "(33) 1234-5678", "52 55 1234 5678", "00 52 55 1234 5678", "01 800 123 4567",
        ]),
        ("IN", [
            "098765 43210", "+91 98765 43210", "9876543210", "0091 98765 43210", "011 2345 6789", "+91 11 2345 6789", "022-2345-6789",
            "1800 123 4567", "91 98765 43210", "+91-98765-43210",
        ]),
        ("JP", [
            "03-1234-5678", "+81 3-1234-5678", "090-1234-5678", "+81 90 1234 5678", "010 81 3 1234 5678", "0120-123-456", "(03) 1234 5678",
            "０３－１２３４－５６７８", "＋８１　３　１２３４　５６７８", "81 3 1234 5678", "0037 6 1234 5678", "00021234567",
        ]),
        ("CN", [
            "010 1234 5678", "+86 10 1234 5678", "138 0013 8000", "+86 138 0013 8000", "00 86 138 0013 8000", "021-12345678",
            "400 123 4567", "86 138 0013 8000", "17951 138 0013 8000", "0086 10 12345678", "12593 010 1234 5678",
        ]),
        ("AU", [
            "(02) 5550 1234", "02 5550 1234", "+61 2 5550 1234", "0412 345 678", "+61 412 345 678", "0011 61 2 5550 1234", "1800 123 456",
            "13 12 34", "61 412 345 678", "+61 (0)2 5550 1234", "1831 02 5550 1234",
        ]),
        ("RU", [
            "8 (495) 123-45-67", "+7 495 123-45-67", "8 912 345 67 89", "+7 (912) 345-67-89", "810 44 20 7946 0000", "8 800 123 45 67",
            "800 123 45 67", "7 495 123 45 67", "495 123 45 67", "+7 495 123 45 67 доб. 12",
        ]),
        // Trunk prefixes that are the number's own first digits, and must stay.
        ("BY", ["801 123 45 67", "8 017 123 45 67", "+375 17 123 45 67"]),
        ("LT", ["800 12345", "8 5 212 3456", "+370 5 212 3456"]),
        ("KZ", ["800 123 4567", "8 727 123 4567"]),
        // Non-geographic numbers: +800, +808, +870, +882, +979.
        ("001", [
            "+800 1234 5678", "00 800 1234 5678", "011 800 1234 5678", "+808 1234 5678", "+870 773 111 632", "+882 13 1234 5678",
            "+979 1 2345 6789", "+800 12345678 ext. 9",
        ]),
        // Not numbers, or not whole ones, and other odd inputs.
        ("ZZ", [
            "", "+", "12", "123", "abc", "FLOWERS", "++44 20 7946 0000", "+ 44 20 7946 0000", "tel:+44-20-7946-0000",
            "Tel: +44 20 7946 0000", "+44 20 7946 0000 / +44 20 7946 0001", "+1 650 253 0000;isub=123", "+0 20 7946 0000",
            "+999 1234 5678", "00 0 123", "0000", "00", "+44 00", "*123#", "#31#", "1234567890123456789012", "+1 650 253 0000\n",
            "  +44 20 7946 0000  ", "+44 20 7946 0000 ext 12345678901234567890123", "١٢٣٤٥٦٧٨٩٠", "+٤٤ ٢٠ ٧٩٤٦ ٠٠٠٠", "۰۲۱ ۱۲۳۴ ۵۶۷۸",
            "०२२ २३४५ ६७८९", "+54 11 2345 6789 anexo 12", "+44 20 7946 0000 #12", "+1-800-MICROSOFT", "+49 30 1234 567 x",
            "tel:2079460000;phone-context=+44", "tel:2079460000;phone-context=example.com", "tel:2079460000;phone-context=",
            "tel:+44-20-7946-0000;phone-context=+1", "+44 20 7946 0000 ＥＸＴ 12", "+1 650 253 0000 ıNT 3", "+٤٤٢٠٧٩٤٦٠٠٠٠",
            "+44 20 7946 0000\u{00A0}x\u{00A0}12", "+33 1 23 45 67 89_", "(+1) 650 253 0000", "+1 (650) 253-0000 ﹟", "１－８００－ＦＬＯＷＥＲＳ",
        ]),
    ]

    /// The default regions each typed number is tried with: where it was typed, none, and
    /// others; for the odd and non-geographic ones "UK", which libphonenumber does not know.
    static func defaults(for region: String) -> [String?] {
        let regions: [String?] = ["ZZ", "001"].contains(region) ? [nil, "US", "GB", "DE", "UK"] : [region, nil, "US", "GB", "DE"]
        return regions.enumerated().filter { regions.firstIndex(of: $0.element) == $0.offset }.map(\.element)
    }

    static func typedCases() -> [(text: String, region: String?)] {
        typed.flatMap { group in group.texts.flatMap { text in defaults(for: group.region).map { (text, $0) } } }
    }

    @Test(.needs("python3")) func typedNumbersAreWhatLibphonenumberMakesOfThem() throws {
        let cases = Self.typedCases()
        #expect(Self.typed.flatMap(\.texts).count >= 150)
        #expect(Set(Self.typed.map(\.region)).subtracting(["001", "ZZ"]).count >= 12)
        try Self.expectSameAnswers(cases)
    }

    /// The example numbers of every region and non-geographic entity (their fixed-line, mobile,
    /// toll-free… examples), written every way libphonenumber writes them (national,
    /// international, E.164, RFC 3966, as dialled from the US, GB, DE and JP, the national
    /// number alone and after the country code), each with the region, none, and the US as
    /// default: every region's prefixes and transform rules at work.
    @Test(.needs("python3")) func everyRegionsExamplesAreWhatLibphonenumberMakesOfThem() throws {
        let examples = try Self.python(["examples"])
        let cases = try #require(try JSONSerialization.jsonObject(with: examples) as? [[Any]]).map { ($0[0] as! String, $0[1] as? String) }
        #expect(cases.count > 20_000)
        try Self.expectSameAnswers(cases)
    }

    /// Generated inputs (seeded: the same on every run): the typed numbers with characters
    /// inserted, dropped or changed, from an alphabet of what the parser tells apart (digits of
    /// several scripts, plus signs, punctuation, extension labels, RFC 3966 parameters, letters).
    @Test(.needs("python3")) func generatedInputsAreWhatLibphonenumberMakesOfThem() throws {
        let bases = Self.typed.flatMap(\.texts)
        let regions: [String?] = [nil, "US", "GB", "DE", "FR", "IT", "BR", "AR", "MX", "JP", "CN", "AU", "RU", "BY", "GG", "SM", "UK"]
        let pieces = [
            "0", "1", "2", "5", "7", "9", "00", "011", "15", "44", "+", "＋", " ", "-", "(", ")", ".", "/", "x", "#", "*", ",", ";", "~",
            "ext", " ext. ", ";ext=", ";phone-context=+1", ";phone-context=example.com", "tel:", ";isub=1", "０", "５", "٣", "۵", "²",
            "\u{A0}", "\u{2013}", "FLOW", "ı", "ſ", "İ", "K", "доб", "anexo", "ｅｘｔ", "\n", "\t", "_", "é", "(0)",
        ]
        let cases = Array(SeededValues(seed: 0x5EED_0F_E164, count: 6000) { generator -> (String, String?) in
            var text = Array(bases[generator.below(bases.count)].unicodeScalars.map(String.init))
            for _ in 0..<(1 + generator.below(3)) {
                let position = generator.below(text.count + 1)
                switch generator.below(3) {
                case 0: text.insert(pieces[generator.below(pieces.count)], at: position)
                case 1 where !text.isEmpty: text.remove(at: min(position, text.count - 1))
                default: if !text.isEmpty { text[min(position, text.count - 1)] = pieces[generator.below(pieces.count)] }
                }
            }
            return (text.joined(), regions[generator.below(regions.count)])
        })
        try Self.expectSameAnswers(cases)
    }

    /// Scripts/phone-metadata.py, run now with the pinned package, writes
    /// Sources/CarnetModels/PhoneMetadata.swift as committed, byte for byte.
    @Test(.needs("python3")) func generatedMetadataIsCurrent() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-\(UUID().uuidString)-PhoneMetadata.swift")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try Self.run(arguments: [Self.root.appendingPathComponent("Scripts/phone-metadata.py").path, output.path])
        let written = try Data(contentsOf: output)
        let committed = try Data(contentsOf: Self.root.appendingPathComponent("Sources/CarnetModels/PhoneMetadata.swift"))
        #expect(written == committed, "Scripts/phone-metadata.py no longer writes Sources/CarnetModels/PhoneMetadata.swift as committed: run it")
    }

    /// What the typed numbers should be, as a reader checks them (the differential tests say
    /// that Python agrees; these say what that agreement looks like).
    @Test func examples() {
        let gb = PhoneNormalForm(region: "GB")
        for text in ["020 7946 0000", "+44 20 7946 0000", "+44 (0)20 7946 0000", "0044 20 7946 0000", "44 20 7946 0000", "020 7946 0000 ext. 4"] {
            #expect(gb.e164(text) == "+442079460000", "\(text)")
        }
        let us = PhoneNormalForm(region: "us")
        #expect(us.region == "US")
        #expect(us.e164("011 44 20 7946 0000") == "+442079460000")
        #expect(us.e164("1-800-FLOWERS") == "+18003569377")
        #expect(us.e164("(650) 253-0000 x123") == "+16502530000")
        #expect(PhoneNormalForm(region: "IT").e164("06 1234 5678") == "+390612345678")
        #expect(PhoneNormalForm(region: "AR").e164("011 15 2345-6789") == "+5491123456789")
        #expect(PhoneNormalForm(region: "RU").e164("800 123 45 67") == "+78001234567")
        #expect(PhoneNormalForm(region: "JP").e164("０３－１２３４－５６７８") == "+81312345678")
        #expect(PhoneNormalForm(region: nil).e164("+800 1234 5678") == "+80012345678")
        #expect(PhoneNormalForm(region: nil).e164("020 7946 0000") == nil)
        #expect(PhoneNormalForm(region: "UK").region == "UK")
        #expect(PhoneNormalForm(region: "UK").e164("020 7946 0000") == nil)
        #expect(PhoneNormalForm(region: "").region == nil)
        for text in ["", "+", "1", "abc", "+999 1234 5678", "+44 1"] { #expect(gb.e164(text) == nil, "\(text)") }
    }

    /// The decimal digits PhoneNormalForm reads (Python's `\d`, by the Unicode 14.0 that
    /// Python 3.11 has) are Swift's own for the characters Unicode 14.0 had.
    @Test func decimalDigitsAreUnicode14s() {
        var differences: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let properties = Unicode.Scalar(value)?.properties else { continue }
            let digit = properties.generalCategory == .decimalNumber && PhoneCase.isAssigned(properties) ? properties.numericValue.map(Int.init) : nil
            if PhoneCase.decimalDigitValue(value) != digit { differences.append(String(value, radix: 16)) }
        }
        #expect(differences.isEmpty, "U+\(differences.prefix(20).joined(separator: ", U+"))")
    }

    @Test(arguments: [
        ("fr_FR.UTF-8", "FR"), ("en_GB", "GB"), ("de_DE@euro", "DE"), ("en_US.UTF-8", "US"), ("pt_BR.utf8", "BR"), ("sr_RS@latin", "RS"),
        ("ca_ES.UTF-8@valencia", "ES"), ("en_gb", "GB"),
    ])
    func localeRegionIsTheTerritory(locale: String, region: String) {
        #expect(PhoneNormalForm.localeRegion(locale) == region)
    }

    @Test(arguments: ["C", "POSIX", "C.UTF-8", "", "en", "en.UTF-8", "en_UK.UTF-8", "es_419.UTF-8", "en_001", "@euro", "_"])
    func localeRegionIsNilWithoutAKnownTerritory(locale: String) {
        #expect(PhoneNormalForm.localeRegion(locale) == nil)
    }

    @Test func knownRegionsAreLibphonenumbers() {
        for code in ["GB", "gb", "US", "FR", "DE", "AR", "GG", "SJ", "XK", "AC", "TA"] { #expect(PhoneNormalForm.isKnownRegion(code), "\(code)") }
        for code in ["UK", "001", "ZZ", "", "EU", "GBR", "G"] { #expect(!PhoneNormalForm.isKnownRegion(code), "\(code)") }
    }

    // MARK: - Python

    /// Each case's E.164 from PhoneNormalForm is what python-phonenumbers gives (nil where it raises).
    static func expectSameAnswers(_ cases: [(text: String, region: String?)]) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-phones-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        // The region as PhoneNormalForm holds it (upper case, nil for ""), which is what it parses with.
        let json: [[Any]] = cases.map { [$0.text, PhoneNormalForm(region: $0.region).region.map { $0 as Any } ?? NSNull()] }
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let output = String(decoding: try python(["parse", file.path]), as: UTF8.self)
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let version = lines.removeFirst()
        #expect(version == pinnedVersion(), "python-phonenumbers \(version) answered, where the Makefile pins \(pinnedVersion())")
        try #require(lines.count == cases.count + 1 && lines.last == "", "python printed \(lines.count - 1) answers for \(cases.count) cases")
        var differences: [String] = []
        for ((text, region), expected) in zip(cases, lines) {
            let answer = PhoneNormalForm(region: region).e164(text) ?? ""
            if answer != expected {
                differences.append("\(text.debugDescription) in \(region ?? "nil"): libphonenumber \(expected.isEmpty ? "nil" : expected), Swift \(answer.isEmpty ? "nil" : answer)")
            }
        }
        if !differences.isEmpty {
            Issue.record("\(differences.count) of \(cases.count) differ:\n\(differences.prefix(40).joined(separator: "\n"))")
        }
    }

    /// PHONENUMBERS_VERSION in the Makefile.
    static func pinnedVersion() -> String {
        let makefile = (try? String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)) ?? ""
        return makefile.firstMatch(of: #/(?m)^PHONENUMBERS_VERSION = (\S+)$/#).map { String($0.1) } ?? "(not in the Makefile)"
    }

    /// `parse FILE`: the package's version, then for each [text, region] of the JSON file the
    /// E.164 form of what `parse` makes of it, or an empty line where it raises
    /// NumberParseException. `examples`: the example cases, as JSON.
    static let script = #"""
    import json, sys
    import phonenumbers
    from phonenumbers import NumberParseException, PhoneNumberFormat, PhoneNumberType
    from phonenumbers import phonemetadata

    def parse(path):
        with open(path, encoding="utf-8") as f:
            cases = json.load(f)
        out = [phonenumbers.__version__]
        for text, region in cases:
            try:
                out.append(phonenumbers.format_number(phonenumbers.parse(text, region), PhoneNumberFormat.E164))
            except NumberParseException:
                out.append("")
        sys.stdout.write("\n".join(out) + "\n")

    def examples():
        types = [PhoneNumberType.FIXED_LINE, PhoneNumberType.MOBILE, PhoneNumberType.TOLL_FREE, PhoneNumberType.PREMIUM_RATE,
                 PhoneNumberType.SHARED_COST, PhoneNumberType.VOIP, PhoneNumberType.PERSONAL_NUMBER, PhoneNumberType.PAGER,
                 PhoneNumberType.UAN, PhoneNumberType.VOICEMAIL]
        formats = [PhoneNumberFormat.NATIONAL, PhoneNumberFormat.INTERNATIONAL, PhoneNumberFormat.E164, PhoneNumberFormat.RFC3966]
        cases = []
        for region in sorted(phonenumbers.SUPPORTED_REGIONS):
            for kind in types:
                number = phonenumbers.example_number_for_type(region, kind)
                if number is None:
                    continue
                nsn = phonenumbers.national_significant_number(number)
                texts = {phonenumbers.format_number(number, f) for f in formats}
                texts |= {phonenumbers.format_out_of_country_calling_number(number, other) for other in ("US", "GB", "DE", "JP")}
                texts |= {nsn, str(number.country_code) + nsn}
                cases += [[text, default] for text in sorted(texts) for default in (region, None, "US")]
        for code in sorted(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS):
            number = phonenumbers.example_number_for_non_geo_entity(code)
            if number is not None:
                cases += [[phonenumbers.format_number(number, f), default] for f in formats for default in (None, "US", "GB")]
        json.dump(cases, sys.stdout)

    parse(sys.argv[2]) if sys.argv[1] == "parse" else examples()
    """#

    static func python(_ arguments: [String]) throws -> Data {
        try run(arguments: ["-c", script] + arguments)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs python3 (the one on PATH) with the package of .build/pypackages.
    static func run(arguments: [String]) throws -> Data {
        let installed = packages.appendingPathComponent("phonenumbers-\(pinnedVersion()).dist-info")
        try #require(FileManager.default.fileExists(atPath: installed.path),
                     "python-phonenumbers \(pinnedVersion()) is not installed in .build/pypackages: `make deps` installs it")
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = packages.path
        environment["PYTHONIOENCODING"] = "utf-8"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let output = try ChildProcess.run(TestTool.path("python3"), arguments, environment: environment, directory: root)
        guard output.status == 0 else {
            throw Failure(description: "python3 \(arguments.filter { $0 != script }.joined(separator: " ")): \(output.errorTail(5))")
        }
        return output.stdout
    }
}
