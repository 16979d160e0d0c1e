import CarnetModels
import CarnetSync
import Foundation
import TestNeeds
import Testing

/// `carnet sync setup URL` finds the one address book from whatever URL a person was given:
/// the server's root (with or without its `/`), the principal, the address book home set,
/// RFC 6764's `/.well-known/carddav` (which redirects), or the collection itself.
@Suite(.needs("radicale", "xandikos")) struct DiscoveryTests {
    enum EntryPoint: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case root, bareHost, principal, homeSet, wellKnown, collection
        var testDescription: String { rawValue }

        func url(_ fixture: SyncFixture) -> String {
            let server = fixture.server
            switch self {
            case .root: return server.url.absoluteString
            case .bareHost: return "http://127.0.0.1:\(server.port)"
            case .principal: return server.principal(SyncFixture.user).absoluteString
            case .homeSet: return server.home(SyncFixture.user).absoluteString
            case .wellKnown: return server.url.absoluteString + ".well-known/carddav"
            case .collection: return fixture.collection.absoluteString
            }
        }
    }

    @Test(arguments: ServerKind.allCases, EntryPoint.allCases)
    func setupFindsTheAddressBookFrom(_ server: ServerKind, _ entry: EntryPoint) throws {
        let fixture = try SyncFixture(server)
        // The first file makes the address book; the second is given the entry point.
        let first = try fixture.book("a")
        try first.add("Ada Lovelace")
        try first.sync()
        let second = try fixture.book("b", setUp: false)
        let found = try second.engine.setup(url: entry.url(fixture), username: SyncFixture.user, passwordCommand: "")
        #expect(!found.created)
        #expect(found.account.collectionURL == fixture.collection.absoluteString)
        #expect(try second.sync().added == 1)
    }
}

extension DiscoveryTests {
    /// `/.well-known/carddav` answers a redirect (Radicale 301, Xandikos 302): the PROPFIND
    /// that follows it must still carry its body, or the server answers every property it has
    /// (an empty PROPFIND is allprop) instead of the ones asked, and a property allprop leaves
    /// out, as the address book home set may be, is never found.
    @Test(arguments: ServerKind.allCases) func aRedirectedPropfindKeepsItsBody(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let wellKnown = fixture.server.url.appendingPathComponent(".well-known/carddav")
        let body = "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop><d:current-user-principal/></d:prop></d:propfind>"
        let response = try raw.send("PROPFIND", wellKnown, headers: ["Depth": "0"], body: body)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 207)
        #expect(text.contains("current-user-principal"))
        #expect(!text.contains("resourcetype"), "answered as allprop: \(text.prefix(300))")
    }
}
