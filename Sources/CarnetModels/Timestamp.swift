import Foundation

/// Timestamps as Carnet writes them, in the database and in its JSON and CSV: UTC text
/// `YYYY-MM-DDTHH:MM:SS.SSSZ`, which sorts, reads well in `sqlite3`, and works with SQLite's date
/// functions. Millisecond precision, so a value read back equals the value written. Formatting
/// and parsing are hand-written because loading a million contacts parses two million of them.
public enum Timestamp {
    /// Now, truncated to the millisecond.
    public static func now() -> Date {
        date(milliseconds: milliseconds(Date()))
    }

    /// Milliseconds since 1970, rounded down (the one rounding rule of every Carnet date: the
    /// database, JSON, CSV and vCard agree to the millisecond). Dates past ±285,000 years clamp.
    public static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(max(-9e15, min(9e15, value)))
    }

    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    public static func string(_ date: Date) -> String {
        let ms = milliseconds(date)
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var v = value
            while divisor > 0 {
                bytes.append(UInt8(48 + (v / divisor) % 10))
                v %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4); bytes.append(45)
        append(month, digits: 2); bytes.append(45)
        append(day, digits: 2); bytes.append(84)
        append(msOfDay / 3_600_000, digits: 2); bytes.append(58)
        append(msOfDay / 60_000 % 60, digits: 2); bytes.append(58)
        append(msOfDay / 1000 % 60, digits: 2); bytes.append(46)
        append(msOfDay % 1000, digits: 3); bytes.append(90)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z]`, the forms Carnet and SQLite's
    /// `strftime`/`datetime` write; anything else is nil.
    public static func date(_ text: String) -> Date? {
        // Read in place (a String from SQLite is contiguous UTF-8): no copy, no allocation.
        var text = text
        return text.withUTF8 { date(utf8: $0) }
    }

    private static func date(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for i in from..<(from + count) {
                let b = bytes[i]
                guard b >= 48 && b <= 57 else { return nil }
                value = value * 10 + Int64(b - 48)
            }
            return value
        }
        guard bytes.count >= 16, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 32, bytes[13] == 58,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2)
        else { return nil }
        var second: Int64 = 0
        var millis: Int64 = 0
        if bytes.count >= 19, bytes[16] == 58 {
            guard let s = number(17, 2) else { return nil }
            second = s
            if bytes.count >= 21, bytes[19] == 46 {
                var scale: Int64 = 100
                var i = 20
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                    millis += Int64(bytes[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
            }
        }
        let days = days(fromCivil: year, month, day)
        return date(milliseconds: ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    // Howard Hinnant's days_from_civil / civil_from_days, proleptic Gregorian calendar.
    package static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
    }
}
