import XMLTree
import XMPPStanzas

/// A connection driven by a single-threaded poll() loop over many streams (batch mode): it
/// exposes the socket descriptor, reads whatever has arrived without ever waiting, and sends
/// pipelined requests. It is set up (opened, logged in) on the same loop by `PolledSetup`.
/// One owner; not Sendable.
public final class PolledConnection {
    /// The underlying connection, for blocking work (SASL, bind) before or after polling.
    public let connection: Connection
    /// The socket descriptor to watch for `POLLIN`.
    public let fileDescriptor: Int32

    private init(connection: Connection, fileDescriptor: Int32) {
        self.connection = connection
        self.fileDescriptor = fileDescriptor
    }

    /// A connection set up by `PolledSetup`, for polling.
    static func wrapping(_ connection: Connection) -> PolledConnection {
        PolledConnection(connection: connection, fileDescriptor: connection.stream.transport.fileDescriptor)
    }

    /// Appends to `elements` everything complete that has arrived, without waiting: plaintext
    /// OpenSSL already holds is decrypted first, then the socket is read until it would block.
    /// Server pings are answered here and not returned. Throws when the stream ended or broke;
    /// the elements that arrived before the failure are in `elements` all the same (a server
    /// that shuts down often answers and closes in one burst).
    public func readAvailable(into elements: inout [XMLElement]) throws(ConnectionError) {
        elements += connection.takeKept()  // what arrived while the log-in waited for its replies
        let now = ContinuousClock.now
        while true {
            let element: XMLElement
            do {
                // A deadline already reached makes every wait return at once: `.timedOut` here
                // means "nothing more is buffered", while partial input stays in the parser.
                element = try connection.stream.nextElement(deadline: now)
            } catch {
                if case .timedOut = error { return }
                throw error
            }
            if try connection.answerIfPing(element) { continue }
            elements.append(element)
        }
    }

    /// Sends several elements in one write, without waiting for any reply (pipelining).
    public func send(_ elements: [XMLElement]) throws(ConnectionError) {
        try connection.send(elements)
    }

    /// Ends the stream and closes the socket.
    public func close() { connection.close() }
}
