import CarnetModels
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request of the CardDAV conversation.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
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

/// How the sync sends requests: ``URLSessionTransport`` in the program, a wrapper in tests that
/// stops it midway (as a kill would).
public protocol HTTPTransport: AnyObject {
    /// The response, whatever its status; throws only when no response came
    /// (``CarnetModels/SyncFailure/unreachable(server:reason:)`` or ``CarnetModels/SyncFailure/tls(server:reason:)``).
    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse
}

/// Foundation's URLSession (libcurl underneath on Linux): ships with the toolchain, speaks
/// HTTP/1.1 and TLS with the system's certificates, keeps connections open between requests.
/// Carnet's commands are synchronous, so each request waits for its answer on a semaphore (the
/// session calls back on its own queue, never on the waiting thread).
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let timeout: TimeInterval
    private let challenges = ChallengeRefuser()

    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: challenges, delegateQueue: nil)
        self.timeout = timeout
    }

    deinit { session.finishTasksAndInvalidate() }

    /// What the callback hands back to the waiting thread: written before `signal`, read after `wait`.
    private final class Outcome: @unchecked Sendable {
        var data: Data?
        var response: URLResponse?
        var error: (any Error)?
    }

    public func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            outcome.data = data
            outcome.response = response
            outcome.error = error
            done.signal()
        }
        task.resume()
        done.wait()
        let server = request.url.host.map { host in request.url.port.map { "\(host):\($0)" } ?? host } ?? request.url.absoluteString
        if let error = outcome.error {
            // The login was refused: the session was told not to answer the challenge itself.
            if challenges.wasChallenged(task.taskIdentifier) { return HTTPResponse(status: 401) }
            throw .sync(Self.failure(error, server: server))
        }
        guard let http = outcome.response as? HTTPURLResponse else {
            throw .sync(.server("\(server) sent no HTTP response"))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: outcome.data ?? Data())
    }

    private static func failure(_ error: any Error, server: String) -> SyncFailure {
        let nsError = error as NSError
        let reason = nsError.localizedDescription
        guard nsError.domain == NSURLErrorDomain else { return .unreachable(server: server, reason: reason) }
        switch nsError.code {
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateUntrusted,
             NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
             NSURLErrorClientCertificateRequired:
            return .tls(server: server, reason: reason)
        case NSURLErrorCannotConnectToHost: return .unreachable(server: server, reason: "connection refused")
        case NSURLErrorTimedOut: return .unreachable(server: server, reason: "timed out")
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return .unreachable(server: server, reason: "no such host")
        default: return .unreachable(server: server, reason: reason)
        }
    }
}

/// Answers a server's 401 challenge by giving up on it, so the request ends and the sync can
/// say the login was refused. (The Authorization header already went with the request; without
/// a delegate, Foundation on Linux before 6.3.2 waits forever on a challenge it has no
/// credential for: swift-corelibs-foundation issue 5456.)
private final class ChallengeRefuser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var challenged = Set<Int>()

    func wasChallenged(_ task: Int) -> Bool {
        lock.withLock { challenged.remove(task) != nil }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        _ = lock.withLock { challenged.insert(task.taskIdentifier) }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
