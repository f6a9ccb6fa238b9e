#if canImport(Glibc)
import Glibc
#endif
import XCTest
import XMPPConnection

/// No core file and no attaching once the tools start (every tool calls `forbidCoreDumps` first).
final class ProcessHardeningTests: XCTestCase {
    func testNoCoreDumpsAndNotDumpable() {
        ProcessHardening.forbidCoreDumps()
        XCTAssertFalse(ProcessHardening.isDumpable)
        XCTAssertEqual(ProcessHardening.coreLimit, 0)
    }
}
