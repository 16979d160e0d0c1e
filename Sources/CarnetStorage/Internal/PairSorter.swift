import Foundation
import GRDB

/// Pairs of (hash, id) sorted by hash then id, in memory that does not grow with their count.
///
/// They are gathered in a run of a fixed length; a full run is sorted in memory and written to a
/// private temporary file (unlinked at once, so nothing is left behind whatever happens), and
/// the runs are merged as they are read back. Sorting plain integers in Swift costs a fraction
/// of inserting them into an SQLite table and having its sorter order them: no statement is
/// stepped per pair, no record encoded, and a run is one `write`.
final class PairSorter {
    struct Pair: Comparable {
        var hash: Int64
        var id: Int64

        static func < (a: Pair, b: Pair) -> Bool { a.hash != b.hash ? a.hash < b.hash : a.id < b.id }
    }

    /// The pairs of a run: a few megabytes, so a book of any size is a handful of runs per
    /// hundred thousand contacts, and memory stays what a small book takes.
    static let defaultRunLength = 1 << 17
    /// The pairs each run being merged reads at a time.
    static let defaultReadLength = 1 << 10
    /// The runs merged at once; with more, the first ones are merged into longer runs first, so
    /// a merge holds at most this many read buffers, however large the book.
    static let defaultFanIn = 64

    private let runLength: Int
    private let readLength: Int
    private let fanIn: Int
    private var run: [Pair] = []
    private var file: Int32 = -1
    /// Where each run written lies in the file, in pairs.
    private var runs: [Range<Int>] = []
    private var end = 0

    init(runLength: Int = defaultRunLength, readLength: Int = defaultReadLength, fanIn: Int = defaultFanIn) {
        precondition(runLength > 0 && readLength > 0 && fanIn > 1)
        self.runLength = runLength
        self.readLength = readLength
        self.fanIn = fanIn
    }

    deinit {
        if file >= 0 { close(file) }
    }

    func add(_ hash: Int64, _ id: Int64) throws {
        if run.isEmpty { run.reserveCapacity(runLength) }
        run.append(Pair(hash: hash, id: id))
        if run.count == runLength { try spill() }
    }

    /// Every pair, by hash then id.
    func sorted(_ body: (Int64, Int64) throws -> Void) throws {
        if runs.isEmpty {
            // All in one run: nothing was written, nothing is read back.
            run.sort()
            for pair in run { try body(pair.hash, pair.id) }
            run = []
            return
        }
        if !run.isEmpty { try spill() }
        run = []
        while runs.count > fanIn {
            let group = Array(runs.prefix(fanIn))
            runs.removeFirst(fanIn)
            let start = end
            var out: [Pair] = []
            out.reserveCapacity(readLength)
            try merge(group) { pair in
                out.append(pair)
                if out.count == readLength {
                    try write(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            if !out.isEmpty { try write(out) }
            runs.append(start..<end)
        }
        try merge(runs) { pair in try body(pair.hash, pair.id) }
    }

    /// The run in memory, sorted, to the end of the file.
    private func spill() throws {
        run.sort()
        let start = end
        try write(run)
        runs.append(start..<end)
        run.removeAll(keepingCapacity: true)
    }

    /// The runs' pairs in order, each run read a buffer at a time; the smallest current pair of
    /// the runs is found with a heap.
    private func merge(_ ranges: [Range<Int>], _ emit: (Pair) throws -> Void) throws {
        var readers = try ranges.map { try RunReader(range: $0, length: readLength, sorter: self) }
        // A min-heap of each run's current pair, with the run it is from.
        var heap: [(pair: Pair, run: Int)] = readers.indices.compactMap { i in readers[i].current.map { ($0, i) } }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let left = 2 * i + 1, right = left + 1
                var smallest = i
                if left < heap.count && heap[left].pair < heap[smallest].pair { smallest = left }
                if right < heap.count && heap[right].pair < heap[smallest].pair { smallest = right }
                if smallest == i { return }
                heap.swapAt(i, smallest)
                i = smallest
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        while let (pair, run) = heap.first {
            try emit(pair)
            try readers[run].advance(sorter: self)
            if let next = readers[run].current {
                heap[0].pair = next
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            siftDown(0)
        }
    }

    private struct RunReader {
        var next: Int
        let end: Int
        var buffer: [Pair]
        var index = 0
        var current: Pair?

        init(range: Range<Int>, length: Int, sorter: PairSorter) throws {
            next = range.lowerBound
            end = range.upperBound
            buffer = []
            buffer.reserveCapacity(min(length, range.count))
            try refill(sorter: sorter)
        }

        mutating func advance(sorter: PairSorter) throws {
            index += 1
            if index < buffer.count { current = buffer[index] } else { try refill(sorter: sorter) }
        }

        private mutating func refill(sorter: PairSorter) throws {
            let count = min(buffer.capacity, end - next)
            guard count > 0 else {
                current = nil
                buffer = []
                return
            }
            try sorter.read(count, at: next, into: &buffer)
            next += count
            index = 0
            current = buffer[0]
        }
    }

    private func write(_ pairs: [Pair]) throws {
        if file < 0 { file = try Self.openTemporaryFile() }
        try pairs.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let offset = off_t(end * MemoryLayout<Pair>.stride + done)
                let written = pwrite(file, bytes.baseAddress! + done, bytes.count - done, offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure("could not write the keys to sort")
                }
                done += written
            }
        }
        end += pairs.count
    }

    private func read(_ count: Int, at start: Int, into buffer: inout [Pair]) throws {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: repeatElement(Pair(hash: 0, id: 0), count: count))
        try buffer.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < bytes.count {
                let offset = off_t(start * MemoryLayout<Pair>.stride + done)
                let got = pread(file, bytes.baseAddress! + done, bytes.count - done, offset)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { throw Self.failure("could not read back the keys to sort") }
                done += got
            }
        }
    }

    /// A new file in the temporary directory (`TMPDIR`, as SQLite's own temporary files), its
    /// name removed at once: only this descriptor reaches it, and the system frees it at close.
    private static func openTemporaryFile() throws -> Int32 {
        var template = Array((NSTemporaryDirectory() + "/carnet-sort-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("could not create a temporary file to sort in") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    /// The error of the last system call, as SQLite would report it: a full disk as
    /// `SQLITE_FULL`, which callers already tell the user about.
    private static func failure(_ what: String) -> DatabaseError {
        let code = errno
        return DatabaseError(
            resultCode: code == ENOSPC ? .SQLITE_FULL : .SQLITE_IOERR, message: "\(what) (\(String(cString: strerror(code))))")
    }
}
