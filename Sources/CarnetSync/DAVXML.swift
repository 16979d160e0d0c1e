import CarnetModels
import Foundation

/// An element of a WebDAV answer: its namespace and local name, its attributes (by the name
/// they are written with), its children, its text.
struct XMLNode: Equatable {
    var namespace: String
    var name: String
    var attributes: [String: String] = [:]
    var children: [XMLNode] = []
    var text = ""

    func child(_ namespace: String, _ name: String) -> XMLNode? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    func all(_ namespace: String, _ name: String) -> [XMLNode] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    /// The text of the first `DAV:href` inside.
    var href: String? { child(DAV.dav, "href")?.text.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// The namespaces and bodies of the requests Carnet makes.
enum DAV {
    static let dav = "DAV:"
    static let cardDAV = "urn:ietf:params:xml:ns:carddav"

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func propfind(_ props: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:prop>\(props)</d:prop></d:propfind>
            """.utf8)
    }

    static func syncCollection(token: String?) -> Data {
        Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escape(token ?? ""))</d:sync-token><d:sync-level>1</d:sync-level>\
            <d:prop><d:getetag/></d:prop></d:sync-collection>
            """.utf8)
    }

    static func multiget(_ hrefs: [String]) -> Data {
        Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><c:address-data/></d:prop>\
            \(hrefs.map { "<d:href>\(escape($0))</d:href>" }.joined())</c:addressbook-multiget>
            """.utf8)
    }

    static let makeAddressBook = Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>\
        <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>Carnet</d:displayname></d:prop></d:set></d:mkcol>
        """.utf8)
}

/// One `DAV:response` of a multistatus: the href, its overall status if it has one (a member
/// removed since a sync-token says 404 here), and the properties found (status 2xx).
struct DAVResponse {
    var href: String
    var status: Int?
    var properties: [XMLNode]

    func property(_ namespace: String, _ name: String) -> XMLNode? {
        properties.first { $0.namespace == namespace && $0.name == name }
    }
}

struct Multistatus {
    var responses: [DAVResponse]
    var syncToken: String?

    /// Reads a 207 body; throws when it is not a multistatus.
    init(_ data: Data, from url: URL) throws(CarnetError) {
        guard let root = XMLReader.parse(data), root.namespace == DAV.dav, root.name == "multistatus" else {
            throw .sync(.server("\(url.absoluteString) answered with something that is not a WebDAV multistatus"))
        }
        syncToken = root.child(DAV.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        responses = root.all(DAV.dav, "response").compactMap { response in
            guard let href = response.href else { return nil }
            var properties: [XMLNode] = []
            for propstat in response.all(DAV.dav, "propstat") {
                guard let status = propstat.child(DAV.dav, "status").map({ Self.status($0.text) }), (200..<300).contains(status ?? 0),
                      let prop = propstat.child(DAV.dav, "prop")
                else { continue }
                properties += prop.children
            }
            return DAVResponse(href: href, status: response.child(DAV.dav, "status").flatMap { Self.status($0.text) }, properties: properties)
        }
    }

    /// "HTTP/1.1 404 Not Found" → 404.
    static func status(_ line: String) -> Int? {
        let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
