/// A size as a person reads it: "812 bytes", "3.4 MB", "1.2 GB" (decimal units, as disks and
/// `df -H` count them), for messages about the file's size.
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        let units = ["KB", "MB", "GB", "TB"]
        guard bytes >= 1000 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
