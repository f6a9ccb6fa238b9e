#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import XCTest
@testable import XMPPBatch

/// The log-in phase's worker threads: every index runs once, all at the same time.
final class WorkerThreadsTests: XCTestCase {
    func testEveryWorkerRunsOnceAndAllRunAtOnce() {
        let arrived = Atomic<Int>(0)
        let seen = Mutex<[Int]>([])
        let allMet = Mutex<[Bool]>([])
        WorkerThreads.run(count: 4) { index in
            arrived.add(1, ordering: .sequentiallyConsistent)
            // A barrier: with fewer than four threads running at once this would time out.
            let deadline = ContinuousClock.now + .seconds(10)
            while arrived.load(ordering: .sequentiallyConsistent) < 4 && ContinuousClock.now < deadline { usleep(1000) }
            let met = arrived.load(ordering: .sequentiallyConsistent) == 4
            seen.withLock { $0.append(index) }
            allMet.withLock { $0.append(met) }
        }
        XCTAssertEqual(seen.withLock { $0.sorted() }, [0, 1, 2, 3])
        XCTAssertEqual(allMet.withLock { $0 }, [true, true, true, true])
    }

    func testOneWorkerRunsOnTheCallingThreadAndNoneRunsNothing() {
        let caller = pthread_self()
        let ranHere = Mutex<[Bool]>([])
        WorkerThreads.run(count: 1) { _ in
            let here = pthread_equal(pthread_self(), caller) != 0
            ranHere.withLock { $0.append(here) }
        }
        XCTAssertEqual(ranHere.withLock { $0 }, [true])
        WorkerThreads.run(count: 0) { _ in XCTFail("no worker expected") }
    }
}
