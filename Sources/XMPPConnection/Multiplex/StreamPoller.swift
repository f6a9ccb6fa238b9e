import Glibc
import XMLTree

/// One thread keeping many streams busy: a single poll() over their sockets — streams being
/// set up (`PolledSetup`, a connect under way waits to write) and streams in use
/// (`PolledConnection`) alike — after which each ready stream is read without blocking.
public enum StreamPoller {
    /// A socket to watch: for `POLLOUT` (`write`, a connect under way), else for `POLLIN`.
    public struct Watch {
        public var fileDescriptor: Int32
        public var write: Bool
        public init(_ fileDescriptor: Int32, write: Bool = false) {
            self.fileDescriptor = fileDescriptor
            self.write = write
        }
    }

    /// Waits until one of `sockets` is ready, a signal interrupts the wait, or `wake` passes
    /// (one second at most, so the caller's loop looks at its clock and flags at least that
    /// often): the indices of the ready ones, in order; none when the wait ended without input.
    public static func ready(_ sockets: [Watch], until wake: ContinuousClock.Instant) -> [Int] {
        var fds = sockets.map { pollfd(fd: $0.fileDescriptor, events: Int16($0.write ? POLLOUT : POLLIN), revents: 0) }
        let rc = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds(until: wake)) }
        guard rc > 0 else { return [] }  // timeout, or EINTR (a signal: the caller checks its flag)
        return fds.indices.filter { fds[$0].revents != 0 }
    }

    /// poll()'s timeout for `wake`: rounded up, so the wait never ends just before it; 0 when it passed.
    public static func milliseconds(until wake: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: wake)
        guard remaining > .zero else { return 0 }
        let ms = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(min(1000, ms))
    }
}
