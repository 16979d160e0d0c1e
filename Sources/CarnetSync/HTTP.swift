import CarnetModels
import Foundation

/// One HTTP request of the CardDAV conversation.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// The CA certificate(s), PEM, to verify the server against instead of the system's (an
    /// account's `--ca-file`); nil: the system's.
    public var certificateAuthority: String?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, certificateAuthority: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.certificateAuthority = certificateAuthority
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// How the sync sends requests: ``CurlTransport`` in the program, a wrapper in tests that
/// stops it midway (as a kill would).
public protocol HTTPTransport: AnyObject {
    /// The response, whatever its status; throws only when no response came
    /// (`SyncFailure.unreachable(server:reason:)` or `SyncFailure.tls(server:reason:)`).
    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse
}

extension URL {
    /// The server as messages name it: `host:port`, or the host alone, or the whole URL.
    var serverName: String { host.map { host in port.map { "\(host):\($0)" } ?? host } ?? absoluteString }
}
