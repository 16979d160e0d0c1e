import CarnetModels
import Foundation
import Testing

/// The From: header of a message, as `carnet add-email` reads it (RFC 5322 and RFC 2047).
@Suite struct MailSenderTests {
    func sender(_ headers: String) -> MailSender? {
        MailSender.from(message: Data((headers + "\n\nbody\n").utf8))
    }

    @Test func theShapesOfAFromHeader() {
        #expect(sender("From: Ada Lovelace <ada@example.com>") == MailSender(name: "Ada Lovelace", email: "ada@example.com"))
        #expect(sender("From: \"Lovelace, Ada \\\"A\\\"\" <ada@example.com>") == MailSender(name: "Lovelace, Ada \"A\"", email: "ada@example.com"))
        #expect(sender("from: ada@example.com (Ada Lovelace)") == MailSender(name: "Ada Lovelace", email: "ada@example.com"))
        #expect(sender("From: <ada@example.com>") == MailSender(name: "", email: "ada@example.com"))
        #expect(sender("From: ada@example.com") == MailSender(name: "", email: "ada@example.com"))
        #expect(sender("Subject: x\r\nFrom: Ada\r\n  Lovelace <ada@example.com>\r\nTo: b@example.com") == MailSender(name: "Ada Lovelace", email: "ada@example.com"))
        #expect(sender("Subject: no sender") == nil)
        #expect(sender("From: nobody at all") == nil)
        // Only the header block counts.
        #expect(MailSender.from(message: Data("Subject: x\n\nFrom: body@example.com\n".utf8)) == nil)
    }

    @Test func encodedWordsInBAndQAndAnyCharsetFoundationKnows() {
        #expect(MailSender.decodeEncodedWords("=?UTF-8?Q?=C3=89lodie_Martin?=") == "Élodie Martin")
        #expect(MailSender.decodeEncodedWords("=?utf-8?b?w4lsb2RpZSBNYXJ0aW4=?=") == "Élodie Martin")
        #expect(MailSender.decodeEncodedWords("=?ISO-8859-1?Q?Andr=E9?= Gide") == "André Gide")
        #expect(MailSender.decodeEncodedWords("=?windows-1252?Q?=80uro?=") == "€uro")
        #expect(MailSender.decodeEncodedWords("=?Shift_JIS?B?k4yLngr=?=").hasPrefix("東京"))
        // Adjacent encoded words join without the space between them; plain words keep theirs.
        #expect(MailSender.decodeEncodedWords("=?UTF-8?Q?Gr=C3=A9?= =?UTF-8?Q?goire?= L") == "Grégoire L")
        #expect(MailSender.decodeEncodedWords("Dr =?UTF-8?Q?=C3=89?=") == "Dr É")
        // A language tag (RFC 2231) is dropped; what cannot be decoded stays as written.
        #expect(MailSender.decodeEncodedWords("=?UTF-8*fr?Q?=C3=A9t=C3=A9?=") == "été")
        #expect(MailSender.decodeEncodedWords("=?x-unknown?Q?abc?=") == "=?x-unknown?Q?abc?=")
        #expect(MailSender.decodeEncodedWords("=?UTF-8?Q?=ZZ?=") == "=?UTF-8?Q?=ZZ?=")
        #expect(sender("From: =?UTF-8?Q?=C3=89lodie?= =?UTF-8?Q?_Martin?= <elodie@example.fr>") == MailSender(name: "Élodie Martin", email: "elodie@example.fr"))
    }
}
