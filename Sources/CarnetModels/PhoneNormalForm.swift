/// Phone numbers in one form for comparison: E.164 ("+442079460000"), the answer of Google's
/// libphonenumber (as python-phonenumbers 9.0.43 ships it) to `parse(text, region)` then
/// `format_number(number, PhoneNumberFormat.E164)`. "020 7946 0000" in Great Britain,
/// "+44 (0)20 7946 0000", "0044 20 7946 0000" and "011 44 20 7946 0000" in the United States
/// are all "+442079460000".
///
/// A port of `parse`'s path through `phonenumberutil.py` (RFC 3966 `tel:` values, the
/// extraction of the number from the text, extensions, international and national prefixes,
/// the national prefix transform rules, vanity numbers' letters, full-width and other decimal
/// digits, Italian leading zeros), reading the metadata of Scripts/phone-metadata.py
/// (PhoneMetadata.swift). Tests/CarnetModelsTests/PhoneNormalFormTests.swift holds it to the
/// Python package's answers. Like `parse`, it does not check that the number is valid (in use):
/// "+44 20 1234" is "+44201234". Characters are read as Unicode 14.0 has them (the data of the
/// Python 3.11 it is tested against), whatever the Swift toolchain's own Unicode version.
public struct PhoneNormalForm: Sendable, Hashable {
    /// The default region (ISO 3166-1 alpha-2, upper case) for numbers written without a country code; nil when unknown.
    public let region: String?

    /// Upper-cases `region` (an empty one is nil). A code libphonenumber does not know ("UK",
    /// "001") is kept, and then works as none: only numbers with a country code have an E.164
    /// form (`isKnownRegion` tells beforehand).
    public init(region: String?) {
        let code = region?.uppercased()
        self.region = code?.isEmpty == false ? code : nil
    }

    /// The number in E.164 ("+442079460000"), or nil when it cannot be known: no country code in the text and no default region, or not a number libphonenumber would parse.
    public func e164(_ text: String) -> String? {
        PhoneParsing.e164(text, region: region)
    }

    /// What a list knows a phone entry by: its E.164 form where it can be told, else `text`.
    public func entryKey(_ text: String) -> String {
        e164(text) ?? text
    }

    /// Whether libphonenumber's metadata knows the region code (case-insensitive), e.g. "GB" yes, "UK" no, "001" no.
    public static func isKnownRegion(_ code: String) -> Bool {
        PhoneRegions.codes.contains(code.uppercased())
    }

    /// The region of a POSIX locale value such as "fr_FR.UTF-8", "en_GB", "de_DE@euro"; nil for "C", "POSIX", "C.UTF-8", "" or an unknown region.
    public static func localeRegion(_ locale: String) -> String? {
        // language[_territory][.codeset][@modifier]
        let name = locale.prefix { $0 != "@" }.prefix { $0 != "." }
        guard let underscore = name.firstIndex(of: "_") else { return nil }
        let territory = name[name.index(after: underscore)...].uppercased()
        return isKnownRegion(territory) ? territory : nil
    }
}

/// One region's metadata as `parse` reads it (a line of PhoneMetadata.table), its patterns compiled.
final class PhoneRegion: Sendable {
    /// "GB"; "001" for a non-geographic entity.
    let id: String
    let countryCode: Int
    let countryCodeDigits: [UInt32]
    /// Whether `region_code_for_country_code` gives this region for its code.
    let isMain: Bool
    let internationalPrefix: PhonePattern?
    let nationalPrefixForParsing: PhonePattern?
    /// The national prefix transform rule: digits, then the group whose text follows them.
    let transformRule: (digits: [UInt32], group: Int)?
    /// The general description's national number pattern; nil when it has none (matches nothing).
    let nationalNumberPattern: PhonePattern?
    let possibleLengths: [Int]
    let localOnlyLengths: [Int]

    /// A line of PhoneMetadata.table: its nine fields, as ranges of the table's bytes.
    init(_ table: [UInt8], fields: [Range<Int>]) {
        precondition(fields.count == 9, "PhoneMetadata: a line of \(fields.count) fields")
        func text(_ field: Int) -> String { String(decoding: table[fields[field]], as: UTF8.self) }
        func number(_ bytes: ArraySlice<UInt8>) -> Int {
            var value = 0
            for byte in bytes { value = value * 10 + Int(byte) - 0x30 }
            return value
        }
        func pattern(_ field: Int) -> PhonePattern? {
            fields[field].isEmpty ? nil : PhonePattern(codePoints: table[fields[field]].map(UInt32.init))
        }
        func lengths(_ field: Int) -> [Int] {
            var lengths: [Int] = []
            var value = 0
            for byte in table[fields[field]] {
                if byte == 0x2C {
                    lengths.append(value)
                    value = 0
                } else {
                    value = value * 10 + Int(byte) - 0x30
                }
            }
            if !fields[field].isEmpty { lengths.append(value) }
            return lengths
        }
        id = text(0)
        countryCode = number(table[fields[1]])
        countryCodeDigits = table[fields[1]].map(UInt32.init)
        isMain = text(2) == "1"
        internationalPrefix = pattern(3)
        nationalPrefixForParsing = pattern(4)
        if fields[5].isEmpty {
            transformRule = nil
        } else {
            let rule: [UInt32] = table[fields[5]].map(UInt32.init)
            // "9\1": the generator lets through only digits and one group reference.
            let digits: [UInt32] = Array(rule[..<(rule.count - 2)])
            transformRule = (digits, Int(rule[rule.count - 1]) - 0x30)
        }
        nationalNumberPattern = pattern(6)
        possibleLengths = lengths(7)
        localOnlyLengths = lengths(8)
    }
}

/// The metadata of every region, read and compiled at the first use of `PhoneNormalForm` (the
/// table is constant: a static let is built once, on whichever thread first needs it).
struct PhoneRegions: Sendable {
    /// `PhoneMetadata.metadata_for_region`: the geographic regions by code.
    let geographic: [String: PhoneRegion]
    /// `region_code_for_country_code` then `metadata_for_region_or_calling_code`: the region
    /// whose metadata a number written with the code is read by (the main one, or the entity).
    let main: [Int: PhoneRegion]

    static let table = PhoneRegions(PhoneMetadata.table)

    /// The geographic regions' codes alone, read without compiling anything (`localeRegion` at
    /// the start of a program need not pay for the patterns).
    static let codes: Set<String> = Set(PhoneMetadata.table.utf8.split(separator: 0x0A).compactMap { line in
        let code = String(decoding: line.prefix { $0 != 0x09 }, as: UTF8.self)
        return code == "001" ? nil : code
    })

    init(_ table: String) {
        var geographic: [String: PhoneRegion] = [:]
        var main: [Int: PhoneRegion] = [:]
        // By bytes (the table is ASCII): lines (the last without a line feed: a multi-line
        // literal ends before the one ahead of its delimiter), and tab-separated fields.
        let bytes = Array(table.utf8)
        var fields: [Range<Int>] = []
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x09 || bytes[index] == 0x0A {
            fields.append(start..<index)
            start = index + 1
            if index == bytes.count || bytes[index] == 0x0A {
                if fields == [start - 1..<start - 1] { fields.removeAll(); continue }  // an empty line
                let region = PhoneRegion(bytes, fields: fields)
                fields.removeAll(keepingCapacity: true)
                if region.id != "001" { geographic[region.id] = region }
                if region.isMain { main[region.countryCode] = region }
            }
        }
        self.geographic = geographic
        self.main = main
    }
}

/// `phonenumberutil.py`'s `parse` and what it calls, function by function (their Python names in
/// the comments), on arrays of code points: Python's strings, indexed as Python indexes them. One
/// value per parse, holding the buffers its pattern matches share.
struct PhoneParsing {
    typealias Text = [UInt32]

    /// `NumberParseException`, of which only INVALID_COUNTRY_CODE is told apart.
    enum Failure: Error {
        case invalidCountryCode
        case other
    }

    enum CountryCodeSource {
        case withPlusSign, withIDD, fromDefaultCountry
    }

    enum LengthResult {
        case possible, possibleLocalOnly, tooShort, invalidLength, tooLong
    }

    static let minLengthForNSN = 2
    static let maxLengthForNSN = 17
    static let maxInputStringLength = 250

    /// The patterns of phonenumberutil.py that are not metadata, built as it builds them.
    struct Patterns: Sendable {
        /// _VALID_PHONE_NUMBER_PATTERN
        let validPhoneNumber: PhonePattern
        /// _EXTN_PATTERN
        let extensionAtEnd: PhonePattern
        /// _VALID_ALPHA_PHONE_PATTERN
        let validAlphaPhone: PhonePattern

        init() {
            let digits = #"\d"#
            let plusChars = "+\u{FF0B}"
            let validPunctuation = "-x\u{2010}-\u{2015}\u{2212}\u{30FC}\u{FF0D}-\u{FF0F} "
                + "\u{00A0}\u{00AD}\u{200B}\u{2060}\u{3000}()\u{FF08}\u{FF09}\u{FF3B}\u{FF3D}.\\[\\]/~\u{2053}\u{223C}\u{FF5E}"
            // _ALPHA_MAPPINGS' keys, then the same in lower case.
            let validAlpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            let star = "*"
            // _VALID_PHONE_NUMBER
            let validPhoneNumber = digits + "{\(PhoneParsing.minLengthForNSN)}|[" + plusChars + "]*(?:[" + validPunctuation + star + "]*"
                + digits + "){3,}[" + validPunctuation + star + validAlpha + digits + "]*"
            // _create_extn_pattern(True)
            func extensionDigits(_ maxLength: Int) -> String { "(" + digits + "{1,\(maxLength)})" }
            let possibleSeparatorsBetweenNumberAndExtLabel = "[ \u{00A0}\\t,]*"
            let possibleCharsAfterExtLabel = "[:\\.\u{FF0E}]?[ \u{00A0}\\t,-]*"
            let optionalExtnSuffix = "#?"
            let explicitExtLabels = "(?:e?xt(?:ensi(?:o\u{0301}?|\u{00F3}))?n?|\u{FF45}?\u{FF58}\u{FF54}\u{FF4E}?|\u{0434}\u{043E}\u{0431}|anexo)"
            let ambiguousExtLabels = "(?:[x\u{FF58}#\u{FF03}~\u{FF5E}]|int|\u{FF49}\u{FF4E}\u{FF54})"
            let ambiguousSeparator = "[- ]+"
            let rfcExtn = ";ext=" + extensionDigits(20)
            let explicitExtn = possibleSeparatorsBetweenNumberAndExtLabel + explicitExtLabels + possibleCharsAfterExtLabel
                + extensionDigits(20) + optionalExtnSuffix
            let ambiguousExtn = possibleSeparatorsBetweenNumberAndExtLabel + ambiguousExtLabels + possibleCharsAfterExtLabel
                + extensionDigits(9) + optionalExtnSuffix
            let americanStyleExtnWithSuffix = ambiguousSeparator + extensionDigits(6) + "#"
            let extensionPattern = rfcExtn + "|" + explicitExtn + "|" + ambiguousExtn + "|" + americanStyleExtnWithSuffix
            let possibleSeparatorsNumberExtLabelNoComma = "[ \u{00A0}\\t]*"
            let autoDiallingAndExtLabelsFound = "(?:,{2}|;)"
            let autoDiallingExtn = possibleSeparatorsNumberExtLabelNoComma + autoDiallingAndExtLabelsFound + possibleCharsAfterExtLabel
                + extensionDigits(15) + optionalExtnSuffix
            let onlyCommasExtn = possibleSeparatorsNumberExtLabelNoComma + "(?:,)+" + possibleCharsAfterExtLabel + extensionDigits(9)
                + optionalExtnSuffix
            let extensionsForParsing = extensionPattern + "|" + autoDiallingExtn + "|" + onlyCommasExtn
            // _REGEX_FLAGS = re.UNICODE | re.IGNORECASE
            self.validPhoneNumber = PhonePattern(validPhoneNumber + "(?:" + extensionsForParsing + ")?", ignoreCase: true)
            self.extensionAtEnd = PhonePattern("(?:" + extensionsForParsing + ")$", ignoreCase: true, prefiltered: true)
            self.validAlphaPhone = PhonePattern("(?:.*?[A-Za-z]){3}.*", prefiltered: true)
        }
    }

    static let patterns = Patterns()

    private var scratch = PhonePattern.Scratch()

    // MARK: - parse

    static func e164(_ text: String, region: String?) -> String? {
        let number = PhoneCase.codePoints(text)
        guard number.count <= Self.maxInputStringLength else { return nil }
        var parsing = PhoneParsing()
        do {
            return try parsing.parse(number, region: region)
        } catch {
            return nil
        }
    }

    /// `parse(number, region)` then `format_number(…, PhoneNumberFormat.E164)`.
    mutating func parse(_ number: Text, region: String?) throws(Failure) -> String {
        let regions = PhoneRegions.table
        var nationalNumber = try Self.buildNationalNumberForParsing(number)
        guard isViablePhoneNumber(nationalNumber) else { throw .other }
        // _check_region_for_parsing: `_is_valid_region_code` (in SUPPORTED_REGIONS, as given) or a
        // leading plus sign.
        if region.flatMap({ regions.geographic[$0] }) == nil {
            guard let first = nationalNumber.first, Self.isPlus(first) else { throw .other }
        }
        nationalNumber = maybeStripExtension(nationalNumber)
        // PhoneMetadata.metadata_for_region(region.upper()); the region is upper case already.
        var metadata = region.flatMap { regions.geographic[$0] }

        var countryCode: Int
        var normalizedNationalNumber: Text
        do {
            (countryCode, normalizedNationalNumber) = try maybeExtractCountryCode(nationalNumber, metadata: metadata)
        } catch .invalidCountryCode {
            let pluses = Self.leadingPlusCount(nationalNumber)
            guard pluses > 0 else { throw .invalidCountryCode }
            // Strip the plus-char, and try again.
            (countryCode, normalizedNationalNumber) = try maybeExtractCountryCode(Array(nationalNumber[pluses...]), metadata: metadata)
            if countryCode == 0 { throw .invalidCountryCode }
        }

        if countryCode != 0 {
            // region_code_for_country_code; the metadata is reloaded unless that is the region given.
            guard let numberRegion = regions.main[countryCode] else { throw .other }
            if numberRegion.id != region { metadata = numberRegion }
        } else {
            normalizedNationalNumber += normalize(nationalNumber)
            if region != nil {
                // A region that is not valid came with a plus sign, and then a country code or an
                // exception: Python never reaches here without metadata.
                guard let metadata else { throw .other }
                countryCode = metadata.countryCode
            } else {
                // Unreachable too: without a region only a number with a plus sign gets here,
                // and it has a country code or raised.
                throw .other
            }
        }

        guard normalizedNationalNumber.count >= Self.minLengthForNSN else { throw .other }
        if let metadata {
            let potentialNationalNumber = maybeStripNationalPrefixCarrierCode(normalizedNationalNumber, metadata: metadata)
            // We require that the NSN remaining after stripping the national prefix and carrier
            // code be long enough to be a possible length for the region.
            switch Self.testNumberLength(potentialNationalNumber, metadata: metadata) {
            case .tooShort, .possibleLocalOnly, .invalidLength: break
            case .possible, .tooLong: normalizedNationalNumber = potentialNationalNumber
            }
        }
        guard normalizedNationalNumber.count >= Self.minLengthForNSN, normalizedNationalNumber.count <= Self.maxLengthForNSN else { throw .other }
        return "+\(countryCode)" + Self.nationalSignificantNumber(normalizedNationalNumber)
    }

    /// `_set_italian_leading_zeros_for_phone_number`, `to_long` and `national_significant_number`:
    /// the leading zeros (all but the last digit when every digit is 0), then the number. That is
    /// the digits as they are, written out the way Python gets to them.
    static func nationalSignificantNumber(_ digits: Text) -> String {
        var zeros = 0
        if digits.count > 1 && digits[0] == 0x30 {
            zeros = 1
            while zeros < digits.count - 1 && digits[zeros] == 0x30 { zeros += 1 }
        }
        let value = digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) }  // at most 17 digits
        return String(repeating: "0", count: zeros) + String(value)
    }

    // MARK: - The number in the text

    /// `_build_national_number_for_parsing`: the number of an RFC 3966 value with a phone-context,
    /// or what `_extract_possible_number` finds; without its isdn-subaddress.
    static let phoneContextPrefix = PhoneCase.codePoints(";phone-context=")
    static let rfc3966Prefix = PhoneCase.codePoints("tel:")
    static let isdnSubaddress = PhoneCase.codePoints(";isub=")

    static func buildNationalNumberForParsing(_ number: Text) throws(Failure) -> Text {
        let indexOfPhoneContext = find(phoneContextPrefix, in: number)
        var nationalNumber: Text
        if let indexOfPhoneContext {
            // _extract_phone_context
            let start = indexOfPhoneContext + phoneContextPrefix.count
            var phoneContext: Text = []
            if start < number.count {
                let end = find([0x3B], in: number, from: start) ?? number.count
                phoneContext = Array(number[start..<end])
            }
            guard Self.isPhoneContextValid(phoneContext) else { throw .other }
            nationalNumber = phoneContext[0] == 0x2B ? phoneContext : []
            let indexOfNationalNumber = find(rfc3966Prefix, in: number).map { $0 + rfc3966Prefix.count } ?? 0
            if indexOfNationalNumber < indexOfPhoneContext {
                nationalNumber += number[indexOfNationalNumber..<indexOfPhoneContext]
            }
        } else {
            nationalNumber = Self.extractPossibleNumber(number)
        }
        if let indexOfIsdn = find(isdnSubaddress, in: nationalNumber), indexOfIsdn > 0 {
            nationalNumber = Array(nationalNumber[..<indexOfIsdn])
        }
        return nationalNumber
    }

    /// `_is_phone_context_valid` (the context is present): it matches
    /// _RFC3966_GLOBAL_NUMBER_DIGITS, `^\+(\d|[\-\.\(\)]?)*\d(\d|[\-\.\(\)]?)*$` (a plus sign,
    /// then digits and `-.()` with a digit among them), or _RFC3966_DOMAINNAME,
    /// `^(label\.)*toplabel\.?$`. Written out: the first repeats a part that can be empty, which
    /// PhonePattern does not take, and the second backtracks without end on a long label.
    static func isPhoneContextValid(_ context: Text) -> Bool {
        guard let first = context.first else { return false }
        if first == 0x2B {
            let rest = context.dropFirst()
            if rest.allSatisfy({ PhoneCase.isDecimalDigit($0) || [0x2D, 0x2E, 0x28, 0x29].contains($0) })
                && rest.contains(where: PhoneCase.isDecimalDigit) {
                return true
            }
        }
        // _RFC3966_DOMAINLABEL `[alnum]+((\-)*[alnum])*` and _RFC3966_TOPLABEL
        // `[alpha]+((\-)*[alnum])*`: alpha is ASCII letters, alnum those and \d.
        func isAlpha(_ c: UInt32) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
        func isAlphanumeric(_ c: UInt32) -> Bool { isAlpha(c) || PhoneCase.isDecimalDigit(c) }
        func isLabel(_ label: ArraySlice<UInt32>, top: Bool) -> Bool {
            guard let first = label.first, let last = label.last else { return false }
            return (top ? isAlpha(first) : isAlphanumeric(first)) && isAlphanumeric(last)
                && label.allSatisfy { isAlphanumeric($0) || $0 == 0x2D }
        }
        var name = context[...]
        if name.last == 0x2E { name = name.dropLast() }
        let labels = name.split(separator: 0x2E, omittingEmptySubsequences: false)
        return labels.dropLast().allSatisfy { isLabel($0, top: false) } && isLabel(labels.last!, top: true)
    }

    /// `_extract_possible_number`: from the first plus sign or digit (_VALID_START_CHAR), without
    /// what ends it that is not a letter, a number or `#` (_UNWANTED_END_CHARS,
    /// `(?:_|[^#\w])+$`), and cut before a second number (_SECOND_NUMBER_START, `[\\/] *x`).
    static func extractPossibleNumber(_ number: Text) -> Text {
        guard let start = number.firstIndex(where: { Self.isPlus($0) || PhoneCase.isDecimalDigit($0) }) else { return [] }
        var result = Array(number[start...])
        while let last = result.last, last == 0x5F || !(last == 0x23 || PhoneCase.isWordCharacter(last)) {
            result.removeLast()
        }
        var index = 0
        while index < result.count {
            if result[index] == 0x5C || result[index] == 0x2F {
                var next = index + 1
                while next < result.count && result[next] == 0x20 { next += 1 }
                if next < result.count && result[next] == 0x78 { return Array(result[..<index]) }
            }
            index += 1
        }
        return result
    }

    /// `_is_viable_phone_number`
    mutating func isViablePhoneNumber<C: Collection<UInt32>>(_ number: C) -> Bool {
        number.count >= Self.minLengthForNSN && Self.patterns.validPhoneNumber.fullMatch(Array(number), scratch: &scratch)
    }

    /// `_maybe_strip_extension`, keeping only the number: the extension found by _EXTN_PATTERN
    /// is cut off when what comes before it is a viable number.
    mutating func maybeStripExtension(_ number: Text) -> Text {
        if let match = Self.patterns.extensionAtEnd.search(number, scratch: &scratch), isViablePhoneNumber(number[..<match.start]),
           (1...Self.patterns.extensionAtEnd.groupCount).contains(where: { match.group($0) != nil }) {
            return Array(number[..<match.start])
        }
        return number
    }

    /// _PLUS_CHARS_PATTERN, `[+＋]+`, matched at the start: how many plus signs the number starts with.
    static func leadingPlusCount(_ number: Text) -> Int {
        number.prefix(while: Self.isPlus).count
    }

    static func isPlus(_ c: UInt32) -> Bool { c == 0x2B || c == 0xFF0B }

    // MARK: - Normalizing

    /// `_normalize`: a vanity number (three ASCII letters or more: _VALID_ALPHA_PHONE_PATTERN)
    /// keeps its ASCII digits and turns its letters to the keypad's digits, dropping the rest
    /// (_ALPHA_PHONE_MAPPINGS, looked up by `char.upper()`); any other keeps the value of each
    /// of its digits, in any script (`normalize_digits_only`).
    mutating func normalize(_ number: Text) -> Text {
        if Self.patterns.validAlphaPhone.fullMatch(number, scratch: &scratch) {
            return number.compactMap(Self.alphaPhoneDigit)
        }
        return number.compactMap { c in
            let value = PhoneCase.digitValue(c)
            return value < 0 ? nil : 0x30 + UInt32(value)
        }
    }

    /// _ALPHA_PHONE_MAPPINGS[c.upper()]: ASCII digits and letters, and the two characters whose
    /// upper case is an ASCII letter (dotless ı, long ſ).
    static func alphaPhoneDigit(_ c: UInt32) -> UInt32? {
        var upper = c
        switch c {
        case 0x30...0x39: return c
        case 0x61...0x7A: upper = c - 0x20
        case 0x41...0x5A: break
        case 0x131: upper = 0x49  // ı → I
        case 0x17F: upper = 0x53  // ſ → S
        default: return nil
        }
        // ABC DEF GHI JKL MNO PQRS TUV WXYZ
        let keypad: [UInt32] = [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 9, 9, 9, 9]
        return 0x30 + keypad[Int(upper - 0x41)]
    }

    // MARK: - Country code

    /// `_maybe_extract_country_code`: the country code and the national number after it, or 0
    /// and nothing when the number is written without one.
    mutating func maybeExtractCountryCode(_ number: Text, metadata: PhoneRegion?) throws(Failure) -> (Int, Text) {
        if number.isEmpty { return (0, []) }
        // No international prefix: "NonMatch", which never matches a normalized number.
        let (source, fullNumber) = maybeStripI18nPrefixAndNormalize(number, possibleIDDPrefix: metadata?.internationalPrefix)
        if source != .fromDefaultCountry {
            if fullNumber.count <= Self.minLengthForNSN { throw .other }  // TOO_SHORT_AFTER_IDD
            let (potentialCountryCode, restOfNumber) = Self.extractCountryCode(fullNumber)
            if potentialCountryCode != 0 { return (potentialCountryCode, restOfNumber) }
            throw .invalidCountryCode
        } else if let metadata {
            // The number may start with the default region's country code, without a plus sign.
            if fullNumber.starts(with: metadata.countryCodeDigits) {
                var potentialNationalNumber = Array(fullNumber[metadata.countryCodeDigits.count...])
                potentialNationalNumber = maybeStripNationalPrefixCarrierCode(potentialNationalNumber, metadata: metadata)
                if (!matchNationalNumber(fullNumber, metadata: metadata) && matchNationalNumber(potentialNationalNumber, metadata: metadata))
                    || Self.testNumberLength(fullNumber, metadata: metadata) == .tooLong {
                    return (metadata.countryCode, potentialNationalNumber)
                }
            }
        }
        return (0, [])
    }

    /// `_extract_country_code`: a known country code of one to three digits at the start.
    static func extractCountryCode(_ number: Text) -> (Int, Text) {
        guard let first = number.first, first != 0x30 else { return (0, number) }
        var value = 0
        for length in 1...min(number.count, 3) {
            value = value * 10 + Int(number[length - 1]) - 0x30
            if PhoneRegions.table.main[value] != nil { return (value, Array(number[length...])) }
        }
        return (0, number)
    }

    /// `_maybe_strip_i18n_prefix_and_normalize`: leading plus signs, or the region's
    /// international prefix when a digit other than 0 follows it, stripped; normalized.
    mutating func maybeStripI18nPrefixAndNormalize(_ number: Text, possibleIDDPrefix: PhonePattern?) -> (CountryCodeSource, Text) {
        if number.isEmpty { return (.fromDefaultCountry, number) }
        let pluses = Self.leadingPlusCount(number)
        if pluses > 0 { return (.withPlusSign, normalize(Array(number[pluses...]))) }
        let normalized = normalize(number)
        // _parse_prefix_as_idd
        if let idd = possibleIDDPrefix, let match = idd.match(normalized, scratch: &scratch) {
            // Only strip this if the first digit after the match is not a 0, since country
            // calling codes cannot begin with 0.
            if let digit = normalized[match.end...].first(where: PhoneCase.isDecimalDigit), PhoneCase.digitValue(digit) == 0 {
                return (.fromDefaultCountry, normalized)
            }
            return (.withIDD, Array(normalized[match.end...]))
        }
        return (.fromDefaultCountry, normalized)
    }

    // MARK: - National prefix and length

    /// `_maybe_strip_national_prefix_carrier_code`, keeping only the number: the national
    /// prefix (and carrier code) stripped, or the transform rule applied, unless the number
    /// matched the national number pattern before and would not after.
    mutating func maybeStripNationalPrefixCarrierCode(_ number: Text, metadata: PhoneRegion) -> Text {
        guard !number.isEmpty, let prefixPattern = metadata.nationalPrefixForParsing,
              let prefixMatch = prefixPattern.match(number, scratch: &scratch) else { return number }
        let isViableOriginalNumber = matchNationalNumber(number, metadata: metadata)
        let numGroups = prefixPattern.groupCount
        guard let rule = metadata.transformRule, prefixMatch.group(numGroups) != nil else {
            let stripped = Array(number[prefixMatch.end...])
            if isViableOriginalNumber && !matchNationalNumber(stripped, metadata: metadata) { return number }
            return stripped
        }
        // re.sub(prefix_pattern, transform_rule, number, count=1): the match at the start, as
        // `match` found it, replaced by the rule's digits and group.
        var transformedNumber: Text = rule.digits
        if let group = prefixMatch.group(rule.group) { transformedNumber += number[group] }
        transformedNumber += number[prefixMatch.end...]
        if isViableOriginalNumber && !matchNationalNumber(transformedNumber, metadata: metadata) { return number }
        return transformedNumber
    }

    /// `_match_national_number(number, general_desc, False)`: the whole number matches the
    /// general national number pattern (never when there is none).
    mutating func matchNationalNumber(_ number: Text, metadata: PhoneRegion) -> Bool {
        metadata.nationalNumberPattern?.fullMatch(number, scratch: &scratch) ?? false
    }

    /// `_test_number_length` for PhoneNumberType.UNKNOWN: against the general description's lengths.
    static func testNumberLength(_ number: Text, metadata: PhoneRegion) -> LengthResult {
        let actualLength = number.count
        if metadata.localOnlyLengths.contains(actualLength) { return .possibleLocalOnly }
        let minimumLength = metadata.possibleLengths[0]
        if minimumLength == actualLength { return .possible }
        if minimumLength > actualLength { return .tooShort }
        if metadata.possibleLengths[metadata.possibleLengths.count - 1] < actualLength { return .tooLong }
        return metadata.possibleLengths.dropFirst().contains(actualLength) ? .possible : .invalidLength
    }

    // MARK: - Helpers

    /// Python's `str.find`: the first index of `needle` at or after `start`.
    static func find(_ needle: Text, in text: Text, from start: Int = 0) -> Int? {
        guard needle.count <= text.count else { return nil }
        var index = start
        while index + needle.count <= text.count {
            if text[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
