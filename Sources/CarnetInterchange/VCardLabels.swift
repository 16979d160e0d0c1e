import CarnetModels
import Foundation

/// How a Carnet label is written in a vCard and read back, in one place, so the writer only
/// writes what the reader reads as the same label.
///
/// - A label made of vCard types (`work`, `cell`, `other`, `work,voice`, `intl,postal,work`) is
///   written as `TYPE=`. Reading, `pref` makes the entry preferred, `INTERNET` (email) is dropped
///   as the default it is, the known types are lower-cased (`VOICE` is kept: a phone typed
///   `work,voice` goes back out so), and other values are kept as written (`TYPE=X-NEC-SECRET` →
///   `X-NEC-SECRET`), joined by commas.
/// - Any other label (`Mobile 2`, `school`, `AssistantPhone`) is written as Apple does, and as
///   Google and most address books read it: the property in an `itemN.` group with
///   `itemN.X-ABLabel:label`, the label's own text. Reading, a group's `X-ABLabel` is the label of
///   the property it goes with, over its `TYPE`s, Apple's `_$!<HomePage>!$_` unwrapped.
enum VCardLabels {
    /// The `TYPE` values read in lower case (the rest keep their case).
    static func knownTypes(_ kind: EntryKind) -> Set<String> { typeSet(kind).known }

    /// The types the writer puts in `TYPE=`.
    static func writableTypes(_ kind: EntryKind) -> Set<String> { typeSet(kind).writable }

    /// A kind's known types, and the writable ones made from them.
    private struct TypeSet {
        let known: Set<String>
        let writable: Set<String>

        init(_ known: Set<String>) {
            self.known = known
            writable = known
        }
    }

    private static func typeSet(_ kind: EntryKind) -> TypeSet {
        switch kind {
        case .email, .url: mailTypes
        case .phone: phoneTypes
        case .address: addressTypes
        default: noTypes
        }
    }

    private static let mailTypes = TypeSet(["home", "work", "other"])
    private static let phoneTypes = TypeSet([
        "cell", "home", "work", "fax", "pager", "other", "voice", "text", "video", "textphone", "main", "iphone", "car", "isdn",
        "bbs", "modem", "msg", "pcs",
    ])
    private static let addressTypes = TypeSet(["home", "work", "other", "dom", "intl", "postal", "parcel"])
    private static let noTypes = TypeSet([])

    /// The label and preference `TYPE` values say: `["WORK", "VOICE", "pref"]` → (`work`, true).
    static func label(types: [String], kind: EntryKind) -> (label: String, preferred: Bool) {
        if types.isEmpty { return ("", false) }
        var tokens: [String] = []
        // Repeats are found in a set: a search of `tokens` per value is quadratic in the
        // number of TYPE values, which a hostile card makes tens of thousands.
        var seen: Set<String> = []
        var preferred = false
        let known = knownTypes(kind)
        for value in types {
            let token = Rules.trimmed(value)
            let lower = token.lowercased()
            if lower.isEmpty { continue }
            if lower == "pref" {
                preferred = true
                continue
            }
            if kind == .email, lower == "internet" { continue }
            let kept = known.contains(lower) ? lower : token
            if seen.insert(kept).inserted { tokens.append(kept) }
        }
        return (kind.normalizedLabel(tokens.joined(separator: ",")), preferred)
    }

    /// The `TYPE` values that write `label`, or nil when it is not made of vCard types (or
    /// would not read back the same) and needs an `X-ABLabel`.
    static func typeValues(for label: String, kind: EntryKind) -> [String]? {
        let tokens = label.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let writable = writableTypes(kind)
        guard tokens.allSatisfy({ writable.contains($0) }), self.label(types: tokens, kind: kind).label == label else {
            return nil
        }
        return tokens
    }

    /// Apple's built-in labels, which it writes as `_$!<HomePage>!$_` and shows in the reader's
    /// language.
    static let appleLabels = [
        "Other", "Home", "Work", "HomePage", "Main", "Mobile", "iPhone", "HomeFAX", "WorkFAX", "OtherFAX", "Pager",
        "AssistantPhone", "School", "Anniversary",
    ]

    /// The label an `X-ABLabel` value gives: Apple's `_$!<HomePage>!$_` unwrapped, a known type
    /// lower-cased.
    static func label(abLabel text: String, kind: EntryKind) -> String {
        var label = Rules.trimmed(text)
        if label.hasPrefix("_$!<"), label.hasSuffix(">!$_"), label.count > 8 {
            label = String(label.dropFirst(4).dropLast(4))
        }
        return kind.normalizedLabel(label)
    }

    /// The `X-ABLabel` value that reads back as `label`: its own text, which every program shows
    /// as it is (Apple's wrapped `_$!<AssistantPhone>!$_` shows literally elsewhere). The one
    /// exception is a date labelled `anniversary`, which Apple knows only as `_$!<Anniversary>!$_`.
    static func abLabel(for label: String, kind: EntryKind) -> String {
        if kind == .date, label == ContactDate.anniversary { return "_$!<Anniversary>!$_" }
        return label
    }

    // MARK: Handles

    /// URI schemes of instant messaging that `IMPP` carries, with the service name Apple puts in
    /// `X-SERVICE-TYPE`. A handle labelled with one of these schemes is written as
    /// `IMPP;X-SERVICE-TYPE=Skype:skype:name`; any other as `X-SOCIALPROFILE;TYPE=label:name`.
    static let messagingSchemes: [String: String] = [
        "aim": "AIM", "icq": "ICQ", "irc": "IRC", "msnim": "MSN", "sip": "SIP", "skype": "Skype", "xmpp": "Jabber",
        "ymsgr": "Yahoo", "qq": "QQ", "matrix": "Matrix", "facetime": "FaceTime",
    ]

    /// The properties other programs write a handle as, before `IMPP` (Evolution, khard, KDE,
    /// Apple's older cards, Thunderbird), with the service the handle is labelled with: an
    /// `IMPP` scheme where there is one. A handle read from one goes back out in the line it came
    /// in while its value stays.
    static let vendorMessaging: [String: String] = {
        var services = [
            "X-JABBER": "xmpp", "X-AIM": "aim", "X-ICQ": "icq", "X-SKYPE": "skype", "X-SKYPE-USERNAME": "skype",
            "X-MSN": "msnim", "X-YAHOO": "ymsgr", "X-GADUGADU": "gadugadu", "X-TWITTER": "twitter", "X-GOOGLE-TALK": "xmpp", "X-GTALK": "xmpp",
            "X-GROUPWISE": "groupwise", "X-QQ": "qq", "X-MATRIX": "matrix",
        ]
        // KDE's X-messaging/SERVICE-All, and the name Carnet writes it under where a version
        // allows no `/` (X-messaging-SERVICE-All, the original in X-CARNET-NAME).
        for (kde, service) in [
            "XMPP": "xmpp", "AIM": "aim", "ICQ": "icq", "MSN": "msnim", "SKYPE": "skype", "YAHOO": "ymsgr", "GADU": "gadugadu",
            "IRC": "irc", "GROUPWISE": "groupwise", "SMS": "sms", "MEANWHILE": "meanwhile",
        ] {
            services["X-MESSAGING/\(kde)-ALL"] = service
            services["X-MESSAGING-\(kde)-ALL"] = service
        }
        return services
    }()

    static let vendorMessagingNames = Set(vendorMessaging.keys)
}

/// Dates as vCards write them.
enum VCardDate {
    /// `1815-12-10`, `18151210`, `--12-10`, `--1210`, or any of these followed by a midnight time
    /// (`1985-01-28T00:00:00Z`, as KDE writes a birthday). nil for anything else: a date Carnet
    /// cannot hold without losing part of it.
    static func parse(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        var date = VCardText.trimmed(text)
        if let t = date.firstIndex(where: { $0 == "T" || $0 == "t" }) {
            let time = date[date.index(after: t)...]
            guard time.allSatisfy({ $0 == "0" || $0 == ":" || $0 == "Z" || $0 == "z" || $0 == "." }) else { return nil }
            date = String(date[..<t])
        }
        return ContactDate.parseDate(date)
    }

    /// `18151210`, or `--1210` without a year: RFC 6350's basic form.
    static func basic(_ date: ContactDate) -> String {
        let md = String(format: "%02d%02d", date.month, date.day)
        guard let year = date.year else { return "--" + md }
        return String(format: "%04d", year) + md
    }

    /// `1815-12-10`, or `--12-10` without a year: the form 3.0 files (and `X-ABDATE`) use.
    static func extended(_ date: ContactDate) -> String { date.dateText }
}
