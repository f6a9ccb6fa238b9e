import Glibc
import XMLTree

/// One thread keeping many streams busy: a single poll() over `PolledConnection`s, then what
/// each readable stream has is read without blocking and handed over, stream by stream.
public enum StreamPoller {
    /// Waits until one of `connections` has input, a signal interrupts the wait, or `wake`
    /// passes (one second at most, so the caller's loop looks at its clock and flags at least
    /// that often). Then, for each stream with input, in order, reads what has arrived and calls
    /// `body` with its index, the complete elements, and the failure that ended the reading, if
    /// any (elements that arrived before a failure are passed all the same). Nothing is called
    /// when the wait ends without input.
    public static func wait<E: Error>(
        on connections: [PolledConnection], until wake: ContinuousClock.Instant,
        _ body: (_ index: Int, _ elements: [XMLElement], _ failure: ConnectionError?) throws(E) -> Void
    ) throws(E) {
        var fds = connections.map { pollfd(fd: $0.fileDescriptor, events: Int16(POLLIN), revents: 0) }
        let rc = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds(until: wake)) }
        guard rc > 0 else { return }  // timeout, or EINTR (a signal: the caller checks its flag)
        for (index, pfd) in fds.enumerated() where pfd.revents != 0 {
            var elements: [XMLElement] = []
            var failure: ConnectionError?
            do { try connections[index].readAvailable(into: &elements) } catch { failure = error }
            try body(index, elements, failure)
        }
    }

    /// poll()'s timeout for `wake`: rounded up, so the wait never ends just before it; 0 when it passed.
    public static func milliseconds(until wake: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: wake)
        guard remaining > .zero else { return 0 }
        let ms = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(min(1000, ms))
    }
}
