import Foundation

/// A value behind a lock, with `Synchronization.Mutex`'s `withLock`, on what every system Carnet
/// declares has (`Mutex` needs macOS 15 and iOS 18; the package declares macOS 14 and iOS 17).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
