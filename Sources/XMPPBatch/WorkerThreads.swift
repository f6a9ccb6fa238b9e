#if canImport(Glibc)
import Glibc
#endif

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

    private final class Job: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
