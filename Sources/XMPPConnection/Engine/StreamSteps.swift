import Glibc

/// One part of a stream's life as steps that never wait: the connection engine's parts
/// (`StreamOpening`, `StreamLogIn`, both in `PolledSetup`). Each `advance` takes every step the
/// input that has arrived allows. A poll loop drives many at once (the batch); `run` drives one
/// to its end for a single command, waiting in poll() between steps, so both run the same steps.
protocol StreamSteps: AnyObject {
    /// What the steps end with.
    associatedtype Result
    /// The socket to watch.
    var fileDescriptor: Int32 { get }
    /// Whether the socket is watched for `POLLOUT` (a connect under way) rather than `POLLIN`.
    var wantsWrite: Bool { get }
    /// When the step under way is given up (`expire`).
    var deadline: ContinuousClock.Instant { get }
    /// Takes every step the socket allows now: the result once done, nil while it waits.
    func advance() throws(ConnectionError) -> Result?
    /// The deadline passed: another way on (the next endpoint), or the error is thrown.
    func expire() throws(ConnectionError)
}

extension StreamSteps {
    /// The blocking driver: the steps to their end, waiting in poll() for the socket between them.
    func run() throws(ConnectionError) -> Result {
        while true {
            if let result = try advance() { return result }
            guard ContinuousClock.now < deadline else {
                try expire()
                continue
            }
            var pfd = pollfd(fd: fileDescriptor, events: Int16(wantsWrite ? POLLOUT : POLLIN), revents: 0)
            if poll(&pfd, 1, StreamPoller.milliseconds(until: deadline)) < 0, errno != EINTR { throw .io(errnoText()) }
        }
    }
}

/// What `read` gives, or nil when it ran out of input (`.timedOut` at a deadline already passed).
func arrived<T>(_ read: () throws(ConnectionError) -> T) throws(ConnectionError) -> T? {
    do { return try read() } catch {
        if case .timedOut = error { return nil }
        throw error
    }
}
