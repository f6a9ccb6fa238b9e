import Glibc
import XCTest
import CResolv
import XMPPConnection

/// No core file and no attaching once the tools start (every tool calls `forbidCoreDumps` first).
final class ProcessHardeningTests: XCTestCase {
    func testNoCoreDumpsAndNotDumpable() {
        var before = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &before), 0)
        // The test runner is not a tool: what the test turns off is turned back on for the tests
        // after it (LocalUserEndToEndTests raises the soft limit in the shells it starts).
        defer {
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &before)
            _ = xt_set_dumpable(1)
        }
        ProcessHardening.forbidCoreDumps()
        XCTAssertFalse(ProcessHardening.isDumpable)
        XCTAssertEqual(ProcessHardening.coreLimit, 0)
        var after = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &after), 0)
        XCTAssertEqual(after.rlim_max, before.rlim_max, "the hard limit is the starting process's to keep")
    }
}
