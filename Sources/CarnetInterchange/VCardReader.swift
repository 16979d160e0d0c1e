import CarnetModels
import Foundation

/// Reads vCards (RFC 6350 4.0, RFC 2426 3.0, and the 2.1 that old phones export) one line at a
/// time and hands back each contact as soon as its `END:VCARD` arrives, so importing a file of
/// a million cards holds one card in memory, not the file.
///
/// Feed it lines with `feed(line:)` or chunks of bytes with `feed(_:)`, then call
/// `finish()`; do not mix the two ways on one reader. `parse(_:)` does all of it for
/// text that is already in memory.
///
/// Nothing a card holds is lost: a property is either mapped onto the draft, or kept in
/// `ContactDraft.extras` as its unfolded content line, verbatim, with its group and parameters
/// (`item1.X-ABRELATEDNAMES;type=pref:Jenny`). Only `VERSION`, `PRODID` and `REV` are not kept
/// (`REV` becomes `InterchangeRecord.updatedAt`). A mapped property is written back in
/// Carnet's form, without what carries nothing Carnet keeps: `TYPE=INTERNET` of an email (the
/// default), a `tel:` or `mailto:` prefix, `VALUE`, `CHARSET` and `ENCODING`, an `IMPP`'s
/// `X-SERVICE-TYPE` (written again from its scheme), `TYPE=pref` on a date, and the rank of a
/// `PREF` other than the most preferred. A field read in a form its value cannot say (a
/// `LANGUAGE` or other parameter on `FN`, `N`, `ORG`, `NICKNAME`, `TITLE`, `ROLE`, `NOTE`; a note
/// or name with leading or trailing spaces; a birthday with a time or Apple's
/// `X-APPLE-OMIT-YEAR`; a vendor's anniversary such as `X-MS-ANNIVERSARY`) also keeps that line
/// as `X-CARNET-FORM:…` in extras, and goes back out in it while the value is unchanged (see
/// `VCardForms`). What maps:
///
/// | vCard | Carnet |
/// |---|---|
/// | `FN` | name, as given. Without one: from `N`, else `ORG`, else the first email, else the first phone |
/// | `N` | prefix, given, additional, family, suffix, as given (never guessed from `FN`) |
/// | `NOTE` | the note (it may have line breaks) |
/// | each text field's own property (`ContactFields/vCardText`: `NICKNAME`, `TITLE`, `ROLE`, …), under either of its names | that field; a structured value's components joined with `;` |
/// | `ORG` | organization; department (an ORG of more than two units: the further units joined with `;`, written back as one unit, and the report says so) |
/// | `EMAIL`, `TEL`, `ADR`, `URL` | emails, phones, addresses (seven parts), URLs, in order |
/// | `IMPP` | handles: `IMPP:skype:ada` → `skype:ada` (schemes in `VCardLabels.messagingSchemes`) |
/// | `X-SOCIALPROFILE;TYPE=mastodon` | handles: `mastodon:…` |
/// | `BDAY`, `ANNIVERSARY` (and `X-ANNIVERSARY`, `X-EVOLUTION-ANNIVERSARY`, `X-MS-ANNIVERSARY`) | dates `birthday`, `anniversary`, with or without a year (`--MMDD`, Apple's `X-APPLE-OMIT-YEAR`) |
/// | `itemN.X-ABDATE` + `itemN.X-ABLabel` | a date with that label |
/// | `CATEGORIES` | categories (every `CATEGORIES` line, without repeats) |
/// | each list of labelled values described as a property of its own (`ContactFields/vCardLists`), under either of its names | an entry of that list, in order: its text; its label the value of the mapping's label parameter (a known one in lower case), or its `TYPE`s for a mapping without one; only `PREF`, `TYPE=pref` and `VALUE=text` besides |
/// | `PHOTO` | the photo, when inline (3.0 `ENCODING=b`, 2.1 `BASE64`, a 4.0 `data:` URI) and an image |
/// | `UID` | the uid, as written (`urn:uuid:` and all) |
///
/// Labels come from `TYPE` (`TYPE=CELL`, `TYPE=WORK,VOICE`, `TYPE=work;TYPE=fax`, bare 2.1
/// `TEL;CELL`) or from the `X-ABLabel` of the property's `itemN.` group, which then goes with it;
/// see `VCardLabels`. The most preferred entry of each list (`PREF=1`, or `TYPE=pref` as 3.0 and
/// 2.1 write it; the first of equals) is marked preferred.
///
/// A property Carnet models but cannot take as it is stays in extras too, and the record's
/// `InterchangeRecord.notes` say why, with its line: a value that breaks Carnet's rules (a phone
/// `BusinessPhone`, a street on three lines), a second `NOTE`, a parameter Carnet does not model
/// (`ALTID`, `LANGUAGE` on a list entry), a photo given as a link or with broken base64. So a card
/// is never refused for its values, only for its syntax.
///
/// Lines may end in LF, CRLF, CR or CRCRLF; a UTF-8 byte order mark is skipped. Line folding (a
/// line starting with a space or tab continues the previous one), property groups, names in any
/// case (and with the odd `/` of KDE's `X-messaging/xmpp-All`), `CHARSET=` (any encoding
/// Foundation knows; bytes that are not valid UTF-8 without one are read as Windows-1252),
/// quoted-printable with soft line breaks, and value escapes (`\,` `\;` `\\` `\n`) are handled.
/// Folded lines are joined before decoding, so a writer that split a multi-byte character across
/// a fold still reads correctly.
///
/// After a syntax error the reader skips the rest of the broken card and carries on, so an
/// importer can list every problem in one run, or skip one card and keep the rest.
public struct VCardReader: InterchangeReader, LineConsumingReader {
    private var lineNumber = 0
    var splitter = LineSplitter()
    /// The logical line being assembled from folded physical lines; only inside a card.
    private var pending: PendingLine?
    private var card: CardBuilder?
    /// The open card already had an error: ignore it up to its END:VCARD.
    private var skipping = false

    public init() {}

    /// Fails if a card is still open (its `END:VCARD` is missing).
    mutating func checkComplete() throws(InterchangeError) {
        if let open = card {
            card = nil
            pending = nil
            skipping = false
            throw InterchangeError(line: open.line, message: "this card has no END:VCARD (the file ends inside it)")
        }
    }

    mutating func consume(_ raw: [UInt8]) throws(InterchangeError) -> InterchangeRecord? {
        lineNumber += 1
        var bytes = raw
        if lineNumber == 1 {
            if let encoding = InterchangeText.utf16Encoding(bytes) {
                throw InterchangeError(line: 1, message: InterchangeText.utf16Message(encoding))
            }
            bytes.dropByteOrderMark()
        }
        guard bytes.count <= InterchangeLimits.recordBytes else {
            if card != nil { skipping = true }
            pending = nil
            throw InterchangeError(line: lineNumber, message: "this line is longer than \(InterchangeLimits.recordBytes) bytes (is it a vCard file?)")
        }
        let folded = bytes.first == 32 || bytes.first == 9

        guard card != nil else {
            // Between cards only blank lines and BEGIN:VCARD belong.
            if bytes.isBlankLine { return nil }
            if bytes.matchesKeyword("BEGIN:VCARD") {
                card = CardBuilder(line: lineNumber)
                skipping = false
                return nil
            }
            let what = folded ? "a folded continuation line" : InterchangeText.preview(bytes)
            throw InterchangeError(line: lineNumber, message: "expected BEGIN:VCARD, found \(what) outside a card")
        }

        if var line = pending {
            // A folded line continues the pending one; so does any line after a vCard 2.1
            // quoted-printable value ending in "=" (a soft line break, not indented).
            if folded || line.isQuotedPrintableSoftBreak {
                pending = nil  // so `line` is the only reference and appending does not copy it
                if folded {
                    line.bytes.append(contentsOf: bytes.dropFirst())
                } else {
                    line.bytes.removeLast()
                    line.bytes.append(contentsOf: bytes)
                }
                try keep(line)
                return nil
            }
        } else if folded && !bytes.isBlankLine {
            skipping = true
            throw InterchangeError(line: lineNumber, message: "a folded continuation line follows no property")
        }

        // The previous logical line is complete: apply it, then look at this one.
        var problem: InterchangeError?
        if let line = pending {
            pending = nil
            if !skipping {
                do throws(InterchangeError) {
                    try card?.apply(line)
                } catch {
                    problem = error
                    skipping = true
                }
            }
        }

        var record: InterchangeRecord?
        if bytes.isBlankLine {
            // Blank lines inside a card are harmless (2.1 puts one after a base64 photo).
        } else if bytes.matchesKeyword("END:VCARD") {
            if !skipping { record = card?.build() }
            card = nil
            skipping = false
        } else if bytes.matchesKeyword("BEGIN:VCARD") {
            if !skipping, let open = card, problem == nil {
                problem = InterchangeError(
                    line: lineNumber,
                    message: "BEGIN:VCARD inside the card that began at line \(open.line) (is its END:VCARD missing?)")
            }
            card = CardBuilder(line: lineNumber)
            skipping = false
        } else {
            pending = PendingLine(bytes: bytes, line: lineNumber)
        }
        if let problem { throw problem }
        return record
    }

    private mutating func keep(_ line: PendingLine) throws(InterchangeError) {
        guard line.bytes.count <= InterchangeLimits.recordBytes else {
            pending = nil
            skipping = true
            throw InterchangeError(line: line.line, message: "this property is longer than \(InterchangeLimits.recordBytes) bytes")
        }
        pending = line
    }
}

/// One logical (unfolded) content line and the physical line it starts on.
private struct PendingLine: Sendable {
    var bytes: [UInt8]
    let line: Int

    var isQuotedPrintableSoftBreak: Bool {
        guard bytes.last == 61, let colon = bytes.firstIndex(of: 58) else { return false }
        return InterchangeText.latin1(bytes[..<colon]).uppercased().contains("QUOTED-PRINTABLE")
    }
}

/// The properties of one card, gathered as its lines arrive and mapped at its `END:VCARD` (a
/// group's `X-ABLabel` may come after the property it labels).
private struct CardBuilder: Sendable {
    let line: Int
    var properties: [VCardProperty] = []

    init(line: Int) { self.line = line }

    mutating func apply(_ pending: PendingLine) throws(InterchangeError) {
        let property = try VCardProperty(pending.bytes, line: pending.line)
        switch property.name {
        case "BEGIN":
            throw InterchangeError(line: pending.line, message: "BEGIN:\(InterchangeText.preview(property.value).dropFirst().dropLast()) inside a card")
        case "END":
            throw InterchangeError(
                line: pending.line,
                message: "END:\(InterchangeText.preview(property.value).dropFirst().dropLast()) does not close a card (expected END:VCARD)")
        default:
            properties.append(property)
        }
    }

    func build() -> InterchangeRecord {
        VCardImport(properties: properties, line: line).record()
    }
}
