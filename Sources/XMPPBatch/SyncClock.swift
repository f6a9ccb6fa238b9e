import Glibc

/// The UTC dates the batch layer writes: the day a sync state note is dated with (YYYY-MM-DD),
/// and the second the handout report's `handed_out` column records (2026-12-04T18:30:05Z).
public enum SyncClock {
    /// Today: YYYY-MM-DD in UTC.
    public static func today() -> String { utc(time(nil), withTime: false) }

    /// Now, to the second: YYYY-MM-DDTHH:MM:SSZ in UTC.
    public static func now() -> String { utc(time(nil), withTime: true) }

    /// `seconds` since the epoch as a UTC date, with the time of day when `withTime` is set.
    static func utc(_ seconds: time_t, withTime: Bool) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let day = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
        guard withTime else { return day }
        return day + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
