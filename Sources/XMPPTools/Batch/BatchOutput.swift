import Glibc
import TextFormats
import XMPPBatch

/// What a batch prints: one JSON Line per row on stdout (`--json`), problems per row on stderr
/// otherwise, a progress bar with rate and ETA on stderr when it is a terminal, and notes.
final class BatchOutput: BatchEvents {
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
    private var rosterPass = 0
    private var rosterStarted = ContinuousClock.now

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
        } else if let remark = o.note {
            note("line \(o.line): \(o.jid): \(o.status.rawValue) (\(remark))")
        }
    }

    func rowFinished(_ outcome: RowOutcome) { row(outcome) }

    func rowsFinished(_ count: Int) { progress(count) }

    func serverNote(_ text: String) { note(text) }

    /// The roster phase's own bar: its accounts, not the rows, which are all finished by then.
    func rosterProgress(pass: Int, done: Int, total: Int) {
        guard showProgress, total > 0 else { return }
        let now = ContinuousClock.now
        if rosterPass != pass {
            rosterPass = pass
            rosterStarted = now
            lastDraw = nil
        }
        if done < total, let last = lastDraw, now - last < .milliseconds(100) { return }
        lastDraw = now
        Output.errRaw("\r\u{1B}[K" + BatchOutput.rosterBar(pass: pass, done: done, total: total, elapsed: now - rosterStarted))
        barVisible = true
    }

    /// `rosters, requests: 12/320 [#---…]   3%  4/s  ETA 1:17` (pass 2: approvals).
    static func rosterBar(pass: Int, done: Int, total: Int, elapsed: Duration) -> String {
        (pass == 1 ? "rosters, requests: " : "rosters, approvals: ") + bar(done: done, total: total, elapsed: elapsed)
    }

    /// The keys of every JSON Line, in order; each is on every row (null when it does not apply).
    static let jsonKeys = ["line", "jid", "status", "error", "profile", "pending_columns", "note"]

    /// The JSON Line of a row: line, jid, status, error, profile, pending_columns, note.
    static func json(_ o: RowOutcome) -> JSONValue {
        var profile = JSONValue.null, pending = JSONValue.null
        switch o.profile {
        case nil: break
        case .applied: profile = .string("applied")
        case .pending(let columns):
            profile = .string("pending")
            pending = .array(columns.map(JSONValue.string))
        }
        return .object([
            ("line", .int(o.line)), ("jid", .string(o.jid)), ("status", .string(o.status.rawValue)), ("error", .optional(o.error)),
            ("profile", profile), ("pending_columns", pending), ("note", .optional(o.note)),
        ])
    }

    /// The JSON Line of a row that passed `--dry-run`'s checks.
    static func validJSON(line: Int, jid: String) -> JSONValue {
        .object([("line", .int(line)), ("jid", .string(jid)), ("status", .string("valid")), ("error", .null),
                 ("profile", .null), ("pending_columns", .null), ("note", .null)])
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
