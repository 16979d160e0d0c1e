import CarnetModels
import Foundation
import Testing

@testable import CarnetSync

/// What the sync reads off the wire: the XML reader on the WebDAV answers servers send and on
/// what it must refuse; libcurl's header lines and failures.
@Suite struct DAVWireTests {
    private func parse(_ text: String) -> XMLNode? { XMLReader.parse(Data(text.utf8)) }

    /// RFC 6352 section 8.7.1's addressbook-multiget answer (an IETF code component, BSD
    /// licence), in the shape Nextcloud/SabreDAV send it: prefixes, a line end as `&#13;`.
    @Test func aMultigetAnswerWithPrefixesAndCharacterReferences() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8" ?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
              <D:response>
                <D:href>/home/bernard/addressbook/vcf102.vcf</D:href>
                <D:propstat>
                  <D:prop>
                    <D:getetag>"23ba4d-ff11fb"</D:getetag>
                    <C:address-data>BEGIN:VCARD&#13;
            VERSION:3.0&#13;
            NICKNAME:me&#13;
            UID:34222-232@example.com&#13;
            FN:Cyrus &amp; Daboo&#13;
            EMAIL:daboo@example.com&#13;
            END:VCARD&#13;
            </C:address-data>
                  </D:prop>
                  <D:status>HTTP/1.1 200 OK</D:status>
                </D:propstat>
              </D:response>
              <D:response>
                <D:href>/home/bernard/addressbook/vcf2.vcf</D:href>
                <D:status>HTTP/1.1 404 Resource not found</D:status>
              </D:response>
            </D:multistatus>
            """
        let status = try Multistatus(Data(text.utf8), from: URL(string: "http://127.0.0.1/")!)
        #expect(status.responses.map(\.href) == ["/home/bernard/addressbook/vcf102.vcf", "/home/bernard/addressbook/vcf2.vcf"])
        #expect(status.responses.map(\.status) == [nil, 404])
        let card = try #require(status.responses[0].property(DAV.cardDAV, "address-data")).text
        #expect(card.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
        #expect(card.contains("FN:Cyrus & Daboo\r\n"))
        #expect(status.responses[0].property(DAV.dav, "getetag")?.text == "\"23ba4d-ff11fb\"")
    }

    /// The default namespace (as Apple's servers write), a prefix declared again inside, CDATA,
    /// a comment, a processing instruction, a DOCTYPE, a byte order mark, numeric references.
    @Test func namespacesCDATAAndTheRestOfTheSyntax() throws {
        let text = "\u{FEFF}<?xml version='1.0'?><!DOCTYPE multistatus [ <!ELEMENT x ANY> ]>"
            + "<!-- before --><multistatus xmlns='DAV:'><sync-token>http://x/ns/sync/1</sync-token>"
            + "<response><href>/a%20b.vcf</href><x:propstat xmlns:x=\"urn:other\"><x:prop/></x:propstat>"
            + "<propstat xmlns:c='urn:ietf:params:xml:ns:carddav'><prop><c:address-data><![CDATA[FN:<Zoë> & co]]></c:address-data>"
            + "<displayname>&#x00C9;lodie &#233;t&#xe9; &lt;&gt;&quot;&apos;</displayname><c:empty/></prop></propstat></response>"
            + "<?pi inside?></multistatus>\n<!-- after -->\n"
        let root = try #require(parse(text))
        #expect(root.namespace == "DAV:" && root.name == "multistatus")
        #expect(root.child("DAV:", "sync-token")?.text == "http://x/ns/sync/1")
        let response = try #require(root.child("DAV:", "response"))
        #expect(response.href == "/a%20b.vcf")
        #expect(response.all("urn:other", "propstat").count == 1)
        let prop = try #require(response.child("DAV:", "propstat")?.child("DAV:", "prop"))
        #expect(prop.child(DAV.cardDAV, "address-data")?.text == "FN:<Zoë> & co")
        #expect(prop.child("DAV:", "displayname")?.text == "Élodie été <>\"'")
        #expect(prop.child(DAV.cardDAV, "empty") == XMLNode(namespace: DAV.cardDAV, name: "empty"))
    }

    /// What an address book stores (RFC 6352 section 6.2.2), read from its attributes: the
    /// RFC's example, a server of 3.0 and 4.0 (and jCard, not a vCard), Xandikos's element
    /// name, the RFC's defaults, and no property at all (3.0 alone, as the RFC says).
    @Test func whatAnAddressBookSaysItStores() throws {
        func versions(_ types: String?) throws -> Set<String> {
            guard let types else { return CardDAVClient.vCardVersions(nil) }
            let text = "<D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\"><D:response><D:href>/ab/</D:href>"
                + "<D:propstat><D:prop><C:supported-address-data>\(types)</C:supported-address-data></D:prop>"
                + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>"
            let status = try Multistatus(Data(text.utf8), from: URL(string: "http://127.0.0.1/")!)
            return CardDAVClient.vCardVersions(status.responses.first?.property(DAV.cardDAV, "supported-address-data"))
        }
        #expect(try versions("<C:address-data-type content-type=\"text/vcard\" version=\"3.0\"/>") == ["3.0"])
        #expect(try versions("""
            <C:address-data-type content-type="text/vcard" version="3.0"/>
            <C:address-data-type content-type="text/vcard" version="4.0"/>
            <C:address-data-type content-type="application/vcard+json" version="4.0"/>
            """) == ["3.0", "4.0"])
        #expect(try versions("<C:address-data-type content-type='application/vcard+json' version='4.0'/>") == ["3.0"])
        #expect(try versions("<C:content-type content-type=\"text/vcard\" version=\"4.0\" />") == ["4.0"])
        #expect(try versions("<C:address-data-type version=\"4.0\"/><C:address-data-type/>") == ["3.0", "4.0"])
        #expect(try versions("<C:address-data-type content-type=\" Text/VCard \" version=\" 4.0 \"/>") == ["4.0"])
        #expect(try versions("") == ["3.0"])
        #expect(try versions(nil) == ["3.0"])
        let node = try #require(parse("<a xmlns:p='urn:p' v='4.0' p:v='x&amp;y'/>"))
        #expect(node.attributes == ["v": "4.0", "p:v": "x&y"])
    }

    @Test(arguments: [
        "",
        "   ",
        "<a>",
        "<a></b>",
        "<a><b></a></b>",
        "<a>x &nbsp; y</a>",
        "<a>fish & chips</a>",
        "<a>&#0;</a>",
        "<a>&#xD800;</a>",
        "text<a/>",
        "<a/>text",
        "<a/><b/>",
        "<p:a/>",
        "<a b='1'/ >",
        "<a b=1/>",
        "<a b='1'c='2'/>",
        "<a b='1' b='2'/>",
        "<a p:b='1'/>",
        "<a b='x & y'/>",
        "<a><![CDATA[never closed</a>",
        "<a><!-- never closed</a>",
        "<a>\u{0}</a><",
    ])
    func malformedAnswersAreRefused(_ text: String) {
        #expect(parse(text) == nil, "\(text.debugDescription)")
    }

    @Test func aMultistatusThatIsNotOneSaysSo() {
        #expect(throws: CarnetError.sync(.server("http://127.0.0.1/ answered with something that is not a WebDAV multistatus"))) {
            try Multistatus(Data("<html><body>Gateway timeout</html>".utf8), from: URL(string: "http://127.0.0.1/")!)
        }
    }

    /// Header lines as libcurl hands them over: the status line first, names in any case, a
    /// repeated header joined.
    @Test func responseHeadersAreReadFromTheLastResponse() {
        let headers = CurlTransport.headers("HTTP/1.1 201 Created\r\nETag: \"abc\"\r\ncontent-type: text/vcard\r\nDAV: 1\r\nDAV: addressbook\r\nBad line\r\n\r\n")
        #expect(headers == ["etag": "\"abc\"", "content-type": "text/vcard", "dav": "1, addressbook"])
    }

    @Test func libcurlFailuresAreToldApart() {
        #expect(CurlTransport.failure(code: 7, reason: "Failed to connect", server: "h:1") == .unreachable(server: "h:1", reason: "connection refused"))
        #expect(CurlTransport.failure(code: 28, reason: "Timeout", server: "h") == .unreachable(server: "h", reason: "timed out"))
        #expect(CurlTransport.failure(code: 6, reason: "Could not resolve host", server: "h") == .unreachable(server: "h", reason: "no such host"))
        #expect(CurlTransport.failure(code: 7, reason: "Failed to connect", osError: Int(EHOSTUNREACH), server: "h") == .unreachable(server: "h", reason: "Failed to connect"))
        #expect(CurlTransport.failure(code: 60, reason: "SSL certificate problem: self-signed certificate", server: "h")
            == .tls(server: "h", reason: "its certificate is not trusted: self-signed certificate"))
        #expect(CurlTransport.failure(code: 35, reason: "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", server: "h")
            == .tls(server: "h", reason: "the TLS handshake failed: wrong version number; is it an https server on that port?"))
        #expect(CurlTransport.failure(code: 77, reason: "error setting certificate file:\n/x", server: "h") == .tls(server: "h", reason: "error setting certificate file:"))
    }
}
