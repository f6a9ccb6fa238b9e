/// A date written `YYYY-MM-DD` (ISO 8601, as vcard-temp's BDAY holds it), checked against the
/// calendar: `1980-02-30` is no date.
public enum CalendarDate {
    /// True when `text` is `YYYY-MM-DD` and names a real day (leap years included).
    public static func isValid(_ text: String) -> Bool {
        guard let (year, month, day) = parts(text) else { return false }
        return (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// The numbers of a `YYYY-MM-DD` text, whether or not they name a real day; nil for any other form.
    public static func parts(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let u = Array(text.utf8)
        let digit = { (b: UInt8) in (0x30...0x39).contains(b) }
        guard u.count == 10, u[4] == 0x2D, u[7] == 0x2D, u[0..<4].allSatisfy(digit), u[5..<7].allSatisfy(digit),
              u[8..<10].allSatisfy(digit),
              let year = Int(String(decoding: u[0..<4], as: UTF8.self)), let month = Int(String(decoding: u[5..<7], as: UTF8.self)),
              let day = Int(String(decoding: u[8..<10], as: UTF8.self)) else { return nil }
        return (year, month, day)
    }

    /// Days in `month` of `year` (Gregorian).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
