import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// `xmpp-vcard get [JID…|-]`: fetches cards over one connection (many in flight together),
/// falls back to the cache when the server cannot be reached, or answers from it alone.
struct VCardGetCommand {
    let inv: Invocation
    var env: ToolEnvironment { inv.environment }

    func run() throws {
        let cachedOnly = inv.command.flag("cached"), refresh = inv.command.flag("refresh")
        if cachedOnly && refresh { throw ToolFailure(.usage, "--cached and --refresh exclude each other") }
        let format = try Self.format(inv)
        let field = inv.command.string("field")
        if field != nil && format == .vcf { throw ToolFailure(.usage, "--field prints one field; it does not combine with --format vcf") }
        let words = inv.command.argumentList("JID")
        let list = words.count > 1 || words.contains("-")
        let photoOut = inv.command.string("photo-out")
        if photoOut != nil && list { throw ToolFailure(.usage, "--photo-out takes a single JID") }

        let cache = VCardCacheAccess(env: env)
        let account = try inv.context.accountJID()
        let targets = VCardTarget.resolve(words, account: account) {
            String(decoding: readAll(fd: 0, limit: 16 << 20), as: UTF8.self)
        }
        var printer = VCardPrinter(format: format, field: field, list: list, tty: Output.stdoutIsTTY, env: env)
        let show = { (label: String, result: Result<VCardResult, ToolFailure>) throws in
            if let photoOut, case .success(let r) = result {
                try Self.writePhoto(r, to: photoOut)
                if photoOut == "-" { return }
            }
            try printer.emit(label: label, result)
        }
        if cachedOnly {
            for t in targets { try show(t.label, Self.fromCache(t, account: account, cache: cache)) }
        } else {
            try fetch(targets, account: account, refresh: refresh, cache: cache, show: show)
        }
        if list, printer.listStatus != .ok {
            throw ToolFailure(printer.listStatus, "\(printer.failureCodes.count) of \(targets.count) JIDs failed")
        }
    }

    /// Asks the server; when it cannot be reached (and not `--refresh`), answers from the cache.
    private func fetch(_ targets: [VCardTarget], account: JID, refresh: Bool, cache: VCardCacheAccess,
                       show: (String, Result<VCardResult, ToolFailure>) throws -> Void) throws {
        let connection: Connection
        switch Self.connect(inv.context) {
        case .success(let c): connection = c
        case .failure(let error):
            guard !refresh, ErrorMapping.isUnreachable(error) else { throw error }
            env.warn("cannot reach the server (\(ErrorMapping.failure(for: error).message)); answering from the cache")
            for t in targets {
                try show(t.label, Self.fromCache(t, account: account, cache: cache).mapError { f in
                    f.code == .notFound ? ErrorMapping.failure(for: error) : f
                })
            }
            return
        }
        defer { connection.close() }
        var fetched: [(JID, VCard)] = []
        var gone: [JID] = []
        var warnedOffline = false
        var own: Result<VCard, VCardServiceError>?
        if targets.contains(where: { if case .own = $0 { return true } else { return false } }) {
            own = Result { () throws(VCardServiceError) in try VCardService.fetch(on: connection, jid: nil) }
        }
        var pipeline = VCardFetchPipeline(connection: connection, jids: targets.compactMap { t in
            if case .other(let j) = t { return j } else { return nil }
        })
        for t in targets {
            let answer: Result<VCard, VCardServiceError>
            switch t {
            case .invalid(let text, let why): try show(text, .failure(ToolFailure(.badInput, why))); continue
            case .own: answer = own ?? .success(VCard())
            case .other: answer = pipeline.next()?.result ?? .failure(.connection(.streamClosed))
            }
            guard let jid = t.jid else { continue }
            switch answer {
            case .success(let card):
                fetched.append((jid, card))
                try show(t.label, .success(VCardResult(jid: jid, card: card)))
            case .failure(let error):
                if case .notFound = error { gone.append(jid) }
                if !refresh, ErrorMapping.isUnreachable(error), let entry = try? cache.load(account: account, jid: jid) {
                    if !warnedOffline {
                        env.warn("lost the server (\(ErrorMapping.failure(for: error).message)); answering from the cache")
                        warnedOffline = true
                    }
                    try show(t.label, Self.cached(entry, own: jid == account))
                } else {
                    try show(t.label, .failure(ErrorMapping.failure(for: error)))
                }
            }
        }
        cache.record(account: account, cards: fetched, gone: gone)
    }

    private static func connect(_ context: AccountContext) -> Result<Connection, any Error> {
        do { return .success(try context.connectWithSession().0) } catch { return .failure(error) }
    }

    /// A target answered from the cache alone.
    static func fromCache(_ t: VCardTarget, account: JID, cache: VCardCacheAccess) throws -> Result<VCardResult, ToolFailure> {
        switch t {
        case .invalid(_, let why): return .failure(ToolFailure(.badInput, why))
        case .own(let jid), .other(let jid):
            guard let entry = try cache.load(account: account, jid: jid) else {
                return .failure(ToolFailure(.notFound, "no cached vCard of \(jid) (fetch it once without --cached)"))
            }
            if case .own = t { return cached(entry, own: true) }
            return cached(entry, own: false)
        }
    }

    /// A cache entry as a result; another's empty card is "no vCard".
    static func cached(_ entry: VCardCache.Entry, own: Bool) -> Result<VCardResult, ToolFailure> {
        if !own && entry.card.isEmpty {
            return .failure(ToolFailure(.notFound, "\(entry.jid) has no vCard (as of \(VCardRender.isoDate(entry.fetchedAt)))"))
        }
        return .success(VCardResult(jid: entry.jid, card: entry.card, cachedAt: entry.fetchedAt))
    }

    /// Writes the embedded photo's bytes; a card without one is "not found".
    static func writePhoto(_ r: VCardResult, to path: String) throws {
        guard let photo = r.card.photo else { throw ToolFailure(.notFound, "the vCard of \(r.jid) has no photo") }
        guard let bytes = VCardPhotoFile.info(photo).bytes else {
            throw ToolFailure(.notFound, "the vCard of \(r.jid) links its photo (\(photo.externalURL ?? "?")) instead of embedding it")
        }
        try Output.write(bytes, toFileOrStdout: path)
    }

    /// `--format`, or json for `--json`.
    static func format(_ inv: Invocation) throws -> VCardPrinter.Format {
        guard let text = inv.command.string("format") else { return inv.common.json ? .json : .text }
        guard let format = VCardPrinter.Format(rawValue: text) else {
            throw ToolFailure(.usage, "invalid --format '\(text)': expected text, json or vcf")
        }
        if inv.common.json && format != .json { throw ToolFailure(.usage, "--json conflicts with --format \(text)") }
        return format
    }
}
