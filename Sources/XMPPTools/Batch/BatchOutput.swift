#if canImport(Glibc)
import TextFormats
import Glibc
#endif

/// What a batch prints: one JSON Line per row on stdout (`--json`), problems per row on stderr
/// otherwise, a progress bar with rate and ETA on stderr when it is a terminal, and notes.
final class BatchOutput {
    let program: String
    let json: Bool
    let quiet: Bool
    /// Draw the progress bar (stderr is a TTY and not `-q`).
    let showProgress: Bool
    /// Rows this run works on (the bar's 100 %).
    var total = 0
    private var started = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var barVisible = false

    init(program: String, json: Bool, quiet: Bool, showProgress: Bool) {
        self.program = program
        self.json = json
        self.quiet = quiet
        self.showProgress = showProgress
    }

    /// Restarts the clock for the rate and ETA.
    func start(total: Int) {
        self.total = total
        started = .now
    }

    /// Prints one finished row.
    func row(_ o: RowOutcome) {
        if json {
            Output.line(BatchOutput.json(o).compact)
        } else if !o.succeeded {
            note("line \(o.line): \(o.jid.isEmpty ? "(no JID)" : o.jid): \(o.status.rawValue)" + (o.error.map { ": \($0)" } ?? ""))
        }
    }

    /// The JSON Line of a row: line, jid, status, error, profile (and the pending columns).
    static func json(_ o: RowOutcome) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("line", .int(o.line)), ("jid", .string(o.jid)), ("status", .string(o.status.rawValue)), ("error", .optional(o.error)),
        ]
        switch o.profile {
        case nil: members.append(("profile", .null))
        case .applied: members.append(("profile", .string("applied")))
        case .pending(let columns):
            members.append(("profile", .string("pending")))
            members.append(("pending_columns", .array(columns.map(JSONValue.string))))
        }
        return .object(members)
    }

    /// A note on stderr (unless `-q`), clearing the bar first.
    func note(_ text: String) {
        guard !quiet else { return }
        clearBar()
        Output.err("\(program): \(text)")
    }

    /// Redraws the bar for `done` finished rows, at most ten times a second.
    func progress(_ done: Int, force: Bool = false) {
        guard showProgress, total > 0 else { return }
        let now = ContinuousClock.now
        if !force, let last = lastDraw, now - last < .milliseconds(100) { return }
        lastDraw = now
        Output.errRaw("\r\u{1B}[K" + BatchOutput.bar(done: done, total: total, elapsed: now - started))
        barVisible = true
    }

    /// Removes the bar before other output or at the end.
    func clearBar() {
        guard barVisible else { return }
        Output.errRaw("\r\u{1B}[K")
        barVisible = false
    }

    /// `  1234/2000 [#########---------]  61%  212/s  ETA 0:03`
    static func bar(done: Int, total: Int, elapsed: Duration, width: Int = 24) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let filled = Int(fraction * Double(width))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = "\(done)/\(total) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        line += " \(Int(fraction * 100))%  \(Int(rate.rounded()))/s"
        if rate > 0 && done < total { line += "  ETA " + clock(Double(total - done) / rate) }
        return line
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }

    /// Seconds since `start`.
    var elapsedSeconds: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

extension Output {
    /// Writes text to standard error as is (no newline), for the progress bar.
    static func errRaw(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}
