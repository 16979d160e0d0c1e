import CarnetModels
import Foundation
import TestNeeds
import Testing

@testable import CarnetSync

#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sync's own HTTP transport (libcurl, ``CurlTransport``) and XML reader (``XMLReader``)
/// stand in for Foundation's URLSession and XMLParser, which would load libcurl, libxml2 and ICU
/// at every start of every command. Here they are held to those standard implementations on
/// the real conversation of a sync with each real server: every request the sync sent, and
/// every WebDAV answer it read.
@Suite(.serialized, .needs("radicale", "xandikos")) struct StandardImplementationTests {
    /// Carnet's tree (FoundationXML has an XMLNode of its own).
    typealias Node = CarnetSync.XMLNode

    /// Every request a sync sends and every answer it gets, through the real transport.
    final class RecordingTransport: HTTPTransport {
        let inner = CurlTransport()
        private(set) var exchanges: [(request: HTTPRequest, response: HTTPResponse)] = []

        func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
            let response = try inner.send(request)
            exchanges.append((request, response))
            return response
        }
    }

    /// A first sync up from one file and a first sync down into another: the discovery
    /// PROPFINDs, what the address book stores (asked for the group made here; Xandikos says
    /// it in attributes), the PUTs, sync-collection and addressbook-multiget REPORTs, as each
    /// server answers them.
    static func conversation(_ kind: ServerKind) throws -> (fixture: SyncFixture, exchanges: [(request: HTTPRequest, response: HTTPResponse)]) {
        let fixture = try SyncFixture(kind)
        let recorder = RecordingTransport()
        let up = try fixture.book("up", transport: recorder)
        let ada = try up.add("Ada Lovelace", phone: "+44 20 7946 0000", note: "Analyst & <engine> \"notes\"")
        _ = try up.add("Zoë Ångström", phone: "+33 1 23 45 67 89")
        var group = ContactDraft(name: "Analysts")
        group.kind = .group
        group.members = [ada.uid]
        try up.storage.insertContact(group)
        try up.sync()
        let down = try fixture.book("down", transport: recorder)
        try down.sync()
        #expect(try down.contacts().count == 3 && down.storage.groupCount() == 1)
        return (fixture, recorder.exchanges)
    }

    // MARK: - XMLReader and XMLParser

    /// A ``CarnetSync/XMLNode`` tree built by Foundation's XMLParser with namespaces resolved: what
    /// ``XMLReader/parse(_:)`` must give (nil when XMLParser finds the document not well-formed).
    final class StandardTreeBuilder: NSObject, XMLParserDelegate {
        private var open: [Node] = []
        private(set) var root: Node?

        static func parse(_ data: Data) -> Node? {
            let parser = XMLParser(data: data)
            parser.shouldProcessNamespaces = true
            parser.shouldResolveExternalEntities = false
            let builder = StandardTreeBuilder()
            parser.delegate = builder
            return parser.parse() && !builder.failed ? builder.root : nil
        }

        /// Any error libxml2 reports, including those it reads on after.
        private(set) var failed = false

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            failed = true
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            open.append(Node(namespace: namespaceURI ?? "", name: elementName, attributes: attributeDict))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            let node = open.removeLast()
            if open.isEmpty { root = node } else { open[open.count - 1].children.append(node) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !open.isEmpty { open[open.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if !open.isEmpty { open[open.count - 1].text += String(decoding: CDATABlock, as: UTF8.self) }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func xmlReaderReadsEveryAnswerAsXMLParserDoes(_ kind: ServerKind) throws {
        let (fixture, exchanges) = try Self.conversation(kind)
        defer { fixture.server.stop() }
        let answers = exchanges.map(\.response).filter { ($0.headers["content-type"] ?? "").contains("xml") && !$0.body.isEmpty }
        // Discovery, the listing and the cards: at least a PROPFIND and a REPORT each way.
        #expect(answers.count >= 4, "\(exchanges.map { "\($0.request.method) \($0.response.status)" })")
        // What the address book stores: Xandikos says it in attributes, Radicale does not know the property.
        let stores = try #require(exchanges.first { String(decoding: $0.request.body ?? Data(), as: UTF8.self).contains("supported-address-data") })
        #expect(String(decoding: stores.response.body, as: UTF8.self).contains("version=\"3.0\"") == (kind == .xandikos))
        for answer in answers {
            let standard = try #require(StandardTreeBuilder.parse(answer.body), "\(String(decoding: answer.body, as: UTF8.self))")
            let ours = try #require(XMLReader.parse(answer.body), "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(Self.foldingLineEnds(ours) == standard, "\(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    /// The one known difference: XML (1.0, section 2.11) reads a line end written as CR LF as LF,
    /// and XMLParser does; XMLReader keeps the CR, so a vCard in `address-data` keeps the CRLF
    /// line ends it was stored with (a CR written `&#13;` is kept by both).
    static func foldingLineEnds(_ node: Node) -> Node {
        var folded = node
        folded.text = node.text.replacingOccurrences(of: "\r\n", with: "\n")
        folded.children = node.children.map(foldingLineEnds)
        return folded
    }

    /// The syntax servers use that a sync's own answers may not show (prefixes declared again,
    /// the default namespace, CDATA, comments, processing instructions, character references,
    /// attributes), and documents both must refuse.
    @Test func xmlReaderAgreesWithXMLParserOnTheRestOfTheSyntax() throws {
        let wellFormed = [
            "<D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\"><D:response><D:href>/a.vcf</D:href>"
                + "<D:propstat><D:prop><D:getetag>\"23ba4d-ff11fb\"</D:getetag><C:address-data>BEGIN:VCARD&#13;\nFN:Cyrus &amp; Daboo&#13;\n"
                + "END:VCARD&#13;\n</C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>",
            "<?xml version='1.0'?><!-- before --><multistatus xmlns='DAV:'><sync-token>http://x/ns/sync/1</sync-token>"
                + "<response><href>/a%20b.vcf</href><x:propstat xmlns:x=\"urn:other\"><x:prop/></x:propstat>"
                + "<propstat xmlns:c='urn:ietf:params:xml:ns:carddav'><prop><c:address-data><![CDATA[FN:<Zoë> & co]]></c:address-data>"
                + "<displayname>&#x00C9;lodie &#233;t&#xe9; &lt;&gt;&quot;&apos;</displayname><c:empty/></prop></propstat></response>"
                + "<?pi inside?></multistatus>\n<!-- after -->\n",
            "<a:root xmlns:a='urn:a'><a:x xmlns:a='urn:b'><a:y/></a:x><plain/>text <!-- c --> more</a:root>",
            // RFC 6352 section 6.2.2's property as a server answers it, and as Xandikos names its element.
            "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>/ab/</D:href><D:propstat><D:prop>"
                + "<C:supported-address-data xmlns:C=\"urn:ietf:params:xml:ns:carddav\">"
                + "<C:address-data-type content-type=\"text/vcard\" version=\"3.0\"/>"
                + "<C:address-data-type content-type='text/vcard' version='4.0' />"
                + "<C:address-data-type content-type=\"application/vcard+json\"\tversion=\"4.0\"></C:address-data-type>"
                + "</C:supported-address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>",
            "<ns0:multistatus xmlns:ns0=\"DAV:\" xmlns:ns1=\"urn:ietf:params:xml:ns:carddav\"><ns0:response><ns0:prop>"
                + "<ns1:supported-address-data><ns1:content-type content-type=\"text/vcard\" version=\"3.0\" /></ns1:supported-address-data>"
                + "</ns0:prop></ns0:response></ns0:multistatus>",
            // Values: references, the other quote, white space read as spaces, empty; prefixed names, xml:lang.
            "<r xmlns:p='urn:p' a=\"&amp;&#x41;&lt; &quot;'\" b='\"' c='' d='x\ty\nz\r\nw\rv' e='&#9;&#10;&#13;' p:a='1' xml:lang='en'"
                + " f = 'é&#xe9;>'><p:s a='2' p:a='3'/><t xmlns='urn:d' a='4'/></r>",
        ]
        for text in wellFormed {
            let data = Data(text.utf8)
            let standard = try #require(StandardTreeBuilder.parse(data), "\(text)")
            #expect(XMLReader.parse(data) == standard, "\(text)")
        }
        let malformed = [
            "<D:multistatus xmlns:D=\"DAV:\"><D:response></D:multistatus>",  // unclosed
            "<a></b>",  // mismatched
            "text before <a/>",
            "<a/><b/>",  // two roots
            "",
            "<undeclared:root/>",  // a prefix never declared
            "<a>&unknown;</a>",  // an entity no DTD declares
            "<a x='1' x='2'/>",  // an attribute twice
            "<a xmlns:p='urn:p' xmlns:q='urn:p' p:x='1' q:x='2'/>",  // twice through two prefixes
            "<a p:x='1'/>",  // an attribute's prefix never declared
            "<a x='fish & chips'/>",
            "<a x='<'/>",
            "<a x='1'y='2'/>",
        ]
        for text in malformed {
            let data = Data(text.utf8)
            #expect(StandardTreeBuilder.parse(data) == nil, "XMLParser: \(text)")
            #expect(XMLReader.parse(data) == nil, "XMLReader: \(text)")
        }
    }

    // MARK: - CurlTransport and URLSession

    /// Each request of the conversation that changes nothing, sent again through CurlTransport
    /// and through URLSession: the same status, body and entity headers.
    @Test(arguments: ServerKind.allCases)
    func curlTransportAnswersAsURLSessionDoes(_ kind: ServerKind) async throws {
        let (fixture, exchanges) = try Self.conversation(kind)
        defer { fixture.server.stop() }
        let safe = exchanges.map(\.request).filter { ["PROPFIND", "REPORT", "GET", "OPTIONS"].contains($0.method) }
        #expect(safe.contains { $0.method == "PROPFIND" } && safe.contains { $0.method == "REPORT" })
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let curl = CurlTransport()
        var requests = safe
        // A card by GET, and a name that is not there.
        if let put = exchanges.first(where: { $0.request.method == "PUT" })?.request {
            requests.append(HTTPRequest(method: "GET", url: put.url, headers: put.headers.filter { $0.key == "Authorization" }))
            requests.append(HTTPRequest(method: "GET", url: put.url.deletingLastPathComponent().appendingPathComponent("missing.vcf"),
                                        headers: put.headers.filter { $0.key == "Authorization" }))
        }
        for request in requests {
            let ours = try curl.send(request)
            var standard = URLRequest(url: request.url)
            standard.httpMethod = request.method
            for (name, value) in request.headers { standard.setValue(value, forHTTPHeaderField: name) }
            standard.httpBody = request.body
            let (body, answer) = try await session.data(for: standard)
            let response = try #require(answer as? HTTPURLResponse)
            let what = "\(request.method) \(request.url.path)"
            #expect(ours.status == response.statusCode, "\(what)")
            #expect(ours.body == body, "\(what): \(String(decoding: ours.body, as: UTF8.self)) / \(String(decoding: body, as: UTF8.self))")
            for name in ["content-type", "etag", "dav"] {
                #expect(ours.headers[name] == response.value(forHTTPHeaderField: name), "\(what): \(name)")
            }
        }
    }
}
