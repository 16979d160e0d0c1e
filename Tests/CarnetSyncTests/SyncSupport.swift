import CarnetInterchange
import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import DAVTestServer
import Foundation
import RadicaleServer
import Testing
import XandikosServer

/// The real servers the sync suite runs against, each started by the test on loopback.
enum ServerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case radicale, xandikos

    var testDescription: String { rawValue }

    /// A server where `user` owns an empty address book home (Xandikos asks for no password).
    func start(user: String, password: String) throws -> any DAVTestServer {
        switch self {
        case .radicale: try RadicaleServer(users: [user: password])
        case .xandikos: try XandikosServer(user: user)
        }
    }
}

/// One server with one user, and Carnet files that sync with it.
final class SyncFixture {
    let kind: ServerKind?
    let server: any DAVTestServer
    let dir = TempDirectory()
    static let user = "carnet"
    static let password = "secret"
    var environment: [String: String] { ["CARNET_SYNC_PASSWORD": Self.password] }

    init(_ kind: ServerKind = .radicale) throws {
        self.kind = kind
        server = try kind.start(user: Self.user, password: Self.password)
    }

    /// A fixture on a server started otherwise (a Xandikos that says it stores vCard 4.0, or
    /// the scripted server with a quirk: no `kind`).
    init(_ kind: ServerKind?, server: any DAVTestServer) {
        self.kind = kind
        self.server = server
    }

    /// The address book Carnet makes in the user's home on its first setup.
    var collection: URL { server.collection(Self.user) }

    /// A Carnet file named `name`, set up to sync with the user's address book (made by the first).
    func book(_ name: String, transport: HTTPTransport = CurlTransport(), setUp: Bool = true) throws -> Book {
        let storage = try StorageController(path: dir.path(name + ".sqlite"))
        let book = Book(storage: storage, engine: CardDAVSync(storage: storage, transport: transport, environment: environment))
        if setUp { _ = try book.engine.setup(url: server.url.absoluteString, username: Self.user, passwordCommand: "") }
        return book
    }

    /// The same file with another transport (or password).
    func reopen(_ book: Book, transport: HTTPTransport, environment: [String: String]? = nil) -> Book {
        Book(storage: book.storage, engine: CardDAVSync(storage: book.storage, transport: transport, environment: environment ?? self.environment))
    }

    /// The collection's cards as the server has them (href → vCard), read with a plain PROPFIND and GETs.
    func serverCards() throws -> [String: String] {
        let raw = RawClient(user: Self.user, password: Self.password)
        let listing = try raw.send("PROPFIND", collection, headers: ["Depth": "1"], body: "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop></d:propfind>")
        let text = String(decoding: listing.body, as: UTF8.self)
        // `<href>` or `<ns0:href>`: each server picks its own prefix.
        let hrefs = text.matches(of: /<(?:\w+:)?href>([^<]*)<\/(?:\w+:)?href>/).map { String($0.output.1) }.filter { $0.hasSuffix(".vcf") }
        var cards: [String: String] = [:]
        for href in hrefs {
            let card = try raw.send("GET", URL(string: href, relativeTo: server.url)!.absoluteURL)
            cards[href] = String(decoding: card.body, as: UTF8.self)
        }
        return cards
    }

    /// A transport through which this side's first `method` with If-Match finds the card at
    /// `href` changed by another client just before (`line` added to it), so the server answers 412.
    func otherClientAdds(_ line: String, to href: String, before method: String) throws -> InterleavingTransport {
        let raw = RawClient(user: Self.user, password: Self.password)
        let url = try #require(URL(string: href, relativeTo: server.url)).absoluteURL
        return InterleavingTransport(before: method) {
            let card = String(decoding: try raw.send("GET", url).body, as: UTF8.self)
            let edited = card.replacingOccurrences(of: "END:VCARD", with: line + "\r\nEND:VCARD")
            let stored = try raw.send("PUT", url, headers: ["Content-Type": "text/vcard"], body: edited)
            guard stored.isSuccess else { throw CarnetError.sync(.server("the other client's PUT answered \(stored.status)")) }
        }
    }
}

struct Book {
    let storage: StorageController
    let engine: CardDAVSync

    @discardableResult
    func sync(_ options: SyncOptions = SyncOptions()) throws -> SyncReport {
        try engine.sync(options: options, progress: nil)
    }

    func contacts() throws -> [Contact] { try storage.allContacts() }

    /// uid → draft: what two converged files must agree on.
    func byUID() throws -> [String: ContactDraft] {
        Dictionary(uniqueKeysWithValues: try contacts().map { ($0.uid, $0.draft) })
    }

    func contact(named name: String) throws -> Contact {
        guard let contact = try contacts().first(where: { $0.name == name }) else { throw CarnetError.notFound(.contact, id: 0) }
        return contact
    }

    @discardableResult
    func add(_ name: String, phone: String = "", note: String = "") throws -> Contact {
        var draft = ContactDraft(name: name, phone: phone)
        draft.note = note
        return try storage.insertContact(draft)
    }

    @discardableResult
    func edit(_ name: String, _ change: (inout ContactDraft) -> Void) throws -> Contact {
        let contact = try contact(named: name)
        var draft = contact.draft
        change(&draft)
        return try storage.updateContact(contact, with: draft)
    }
}

/// HTTP with no Carnet in it, as another client (curl) would speak it.
struct RawClient {
    let user: String
    let password: String
    let transport = CurlTransport()

    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: String? = nil) throws -> HTTPResponse {
        var headers = headers
        headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        // Xandikos refuses a WebDAV body sent as a form (curl's default type): 415.
        if let body, body.hasPrefix("<?xml"), headers["Content-Type"] == nil { headers["Content-Type"] = "application/xml; charset=utf-8" }
        return try transport.send(HTTPRequest(method: method, url: url, headers: headers, body: body.map { Data($0.utf8) }))
    }
}

/// The real transport that stops answering after `limit` requests, as a sync killed at that
/// moment would stop: the request is never sent, the sync ends with an error.
final class StoppingTransport: HTTPTransport {
    let inner = CurlTransport()
    let limit: Int
    private(set) var sent = 0

    init(after limit: Int) { self.limit = limit }

    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        guard sent < limit else { throw .sync(.unreachable(server: "test", reason: "stopped after \(limit) requests")) }
        sent += 1
        return try inner.send(request)
    }
}

/// The real transport, in front of a server that pretends not to know sync-collection (RFC
/// 6578 is optional): the sync must fall back to comparing ETags.
final class NoSyncCollectionTransport: HTTPTransport {
    let inner = CurlTransport()
    private(set) var refused = 0

    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        if request.method == "REPORT", let body = request.body, String(decoding: body, as: UTF8.self).contains("sync-collection") {
            refused += 1
            return HTTPResponse(status: 501)
        }
        return try inner.send(request)
    }
}

/// The real transport, with another client's change made on the server just before the first
/// `method` request that carries `If-Match`: the version this side last saw is then stale, and
/// the server answers 412.
final class InterleavingTransport: HTTPTransport {
    let inner = CurlTransport()
    let method: String
    private var meanwhile: (() throws -> Void)?
    private(set) var preconditionFailures = 0

    init(before method: String, _ meanwhile: @escaping () throws -> Void) {
        self.method = method
        self.meanwhile = meanwhile
    }

    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        if request.method == method, request.headers["If-Match"] != nil, let change = meanwhile {
            meanwhile = nil
            do { try change() } catch { throw .sync(.server("the other client's change failed: \(error)")) }
        }
        let response = try inner.send(request)
        if response.status == 412 { preconditionFailures += 1 }
        return response
    }
}
