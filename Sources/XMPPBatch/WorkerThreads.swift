#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Runs `body(0) … body(count - 1)` on `count` threads at once and waits for all of them.
/// For work that blocks on its own connection (the batch log-in phase); with one worker the
/// body runs on the calling thread.
enum WorkerThreads {
    static func run(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        var threads: [pthread_t] = []
        for index in 0..<count {
            let box = Unmanaged.passRetained(Job { body(index) }).toOpaque()
            var thread = pthread_t()
            if pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box) == 0 {
                threads.append(thread)
            } else {
                // No thread to spare: this worker's share runs here instead.
                Unmanaged<Job>.fromOpaque(box).takeRetainedValue().run()
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Runs `body(i)` for every `i` in `0..<total`, taking indices from one queue on `workers`
    /// threads; stops taking them once `shouldStop` says so, once a body returns false (it was
    /// interrupted), or once one throws (the first error is thrown when every worker stopped).
    static func drain(_ total: Int, workers: Int, shouldStop: @escaping @Sendable () -> Bool,
                      _ body: @escaping @Sendable (Int) throws -> Bool) throws -> BatchEnd {
        struct Progress { var next = 0; var stoppedEarly = false; var fatal: (any Error)? }
        let progress = Mutex(Progress())
        run(count: min(workers, total)) { _ in
            while true {
                let index: Int? = progress.withLock { p in
                    guard p.next < total else { return nil }
                    guard !shouldStop() && p.fatal == nil else { p.stoppedEarly = true; return nil }
                    defer { p.next += 1 }
                    return p.next
                }
                guard let index else { return }
                do {
                    if try !body(index) {
                        progress.withLock { p in p.stoppedEarly = true }
                        return
                    }
                } catch {
                    progress.withLock { p in if p.fatal == nil { p.fatal = error } }
                    return
                }
            }
        }
        let end = progress.withLock { p in (p.fatal, p.stoppedEarly) }
        if let fatal = end.0 { throw fatal }
        return end.1 ? .interrupted : .completed
    }

    /// Sleeps for `duration`, waking early once `shouldStop` says so (Ctrl-C).
    static func pause(_ duration: Duration, shouldStop: () -> Bool) {
        let until = ContinuousClock.now + duration
        while !shouldStop() {
            let left = ContinuousClock.now.duration(to: until)
            if left <= .zero { return }
            _ = poll(nil, 0, Int32(min(100, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)))
        }
    }

    private final class Job: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
