import XCTest
@testable import XMPPBatch

/// The UTC dates sync's state notes and the handout report's `handed_out` column are written with.
final class SyncClockTests: XCTestCase {
    func testADayIsYearMonthDayAndASecondAddsTheTimeOfDayInUTC() {
        XCTAssertEqual(SyncClock.utc(0, withTime: false), "1970-01-01")
        XCTAssertEqual(SyncClock.utc(0, withTime: true), "1970-01-01T00:00:00Z")
        XCTAssertEqual(SyncClock.utc(1_796_409_005, withTime: true), "2026-12-04T18:30:05Z")
        XCTAssertEqual(SyncClock.utc(951_815_107, withTime: false), "2000-02-29")
        XCTAssertEqual(SyncClock.utc(951_815_107, withTime: true), "2000-02-29T09:05:07Z")
    }

    func testTodayAndNowAreTheSameDayAndTheHandoutStampIsNow() {
        let before = SyncClock.now()
        let today = SyncClock.today(), stamp = HandoutReport.now()
        let after = SyncClock.now()
        XCTAssertEqual(today.utf8.count, 10)
        XCTAssertEqual(stamp.utf8.count, 20)
        XCTAssertTrue(before <= stamp && stamp <= after, "\(before) ≤ \(stamp) ≤ \(after)")
        XCTAssertTrue([before, after].contains { $0.hasPrefix(today) }, "\(today) is not the day of \(before)…\(after)")
    }
}
