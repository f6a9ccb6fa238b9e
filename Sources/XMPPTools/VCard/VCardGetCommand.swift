import Arguments
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

extension VCardTool {
    /// `xmpp-vcard [get] [JID…|-]`: fetches cards over one connection (many in flight together),
    /// falls back to the cache when the server cannot be reached, or answers from it alone.
    struct Get: ToolCommand {
        /// Field names `--field` accepts: the vCard fields plus the photo's details.
        static let printableFields = VCardField.allCases.map(\.rawValue) + ["photo_type", "photo_size", "photo_url"]

        static let cached = Flag("cached", help: "Answer from the cache only, without connecting (works offline).")
        static let refresh = Flag("refresh", help: "Always ask the server; never fall back to the cache.")
        static let field = Option<String>(
            "field", value: "FIELD",
            help: "Print only this field's value: " + printableFields.joined(separator: ", ") + ". Lists print one value a line.",
            completion: .values(printableFields))
        static let format = Option<VCardPrinter.Format>.choice("format", value: "FORMAT", help: "text (default), json, vcf (vCard 3.0) or vcf4 (vCard 4.0).")
        static let photoOut = Option<String>(
            "photo-out", value: "FILE", help: "Also write the embedded photo's bytes to FILE ('-': to stdout, instead of the card).",
            completion: .anyFile)
        static let store = Option<VCardStoreChoice>.choice(
            "store", value: "STORE", help: "Read only this store: vcard-temp, vcard4, nick, or all (default: all, merged).")
        static let jids = PositionalSpec("JID", help: "Whose card ('-' reads JIDs from stdin; default: the account's own).",
                                         optional: true, variadic: true, completion: .custom("vcards"))

        static let spec = CommandSpec(
            "get", summary: "Show the vCard of the account, or of each JID given.",
            discussion: [
                "A JID without '@' is a user on the account's own domain. '-' reads one JID a line from standard input. "
                    + "Several JIDs are fetched over one connection with the requests in flight together; with --json "
                    + "(or --format json) they are printed as JSON Lines, one object per JID.",
                "The JSON object of a card has the keys \"jid\", \"source\" (server or cache), \"fetched_at\" (when the "
                    + "cached copy was fetched, or null), \"fullname\", \"given\", \"family\", \"middle\", \"prefix\", "
                    + "\"suffix\", \"nickname\", \"birthday\", \"org\", \"org_units\" (a list), \"title\", \"role\", "
                    + "\"emails\" ([{\"address\", \"types\"}]), \"phones\" ([{\"number\", \"types\"}]), \"addresses\" "
                    + "([{\"street\", \"extended\", \"pobox\", \"locality\", \"region\", \"code\", \"country\", \"types\"}]), "
                    + "\"url\", \"note\", \"jabber_id\", \"photo\" ({\"type\", \"bytes\", \"sha1\", \"url\"} or null) and "
                    + "\"other_fields\" (names of the fields kept but not mapped to a key), \"other\" (those fields with their values: "
                    + "[{\"field\", \"value\" (the parts as NAME=value, separated by '; '), \"xml\" (the element as the server "
                    + "sent it)}]; text output for a terminal shows them as \"Other field\" rows), \"stores\" (the stores that held something: "
                    + "\"vcard-temp\", \"vcard4\", \"nick\"), \"field_sources\" ({FIELD: STORE}, the store each field "
                    + "shown came from) and \"conflicts\" ([{\"field\", \"values\": [{\"store\", \"value\"}]}], fields "
                    + "whose stores disagree; text output warns of them on standard error). A card from the cache has the "
                    + "merged fields, empty \"stores\" and \"field_sources\". Every JSON Line has every key, and also "
                    + "\"error\" and \"exit_code\": null and 0 for a card; for a JID that failed, the reason and its exit "
                    + "status, with the keys of an empty card (\"source\" null). With --field a line is {\"jid\", FIELD, "
                    + "\"error\", \"exit_code\"}.",
                "--format vcf writes vCard 3.0 that 'xmpp-vcard import' reads back to the same card, XEP-0054's "
                    + "structured fields (GEO, LABEL, KEY, LOGO, SOUND, AGENT, CLASS) included. What vCard 3.0 cannot "
                    + "carry (an element with attributes or in another namespace, PRODID and REV) is left out and "
                    + "named on stderr with its value.",
                "--format vcf4 writes vCard 4.0 (RFC 6350): the merged fields, the photo as a data: URI, and every "
                    + "property of the vCard4 node that no field maps (GENDER, ANNIVERSARY, LANG, X-…), converted "
                    + "from its xCard (RFC 6351); 'xmpp-vcard import' of that file publishes them to the vCard4 node "
                    + "again. vcard-temp elements that 4.0 has a form for (GEO as a geo: URI, TZ, KEY, CATEGORIES…) "
                    + "are written unless the vCard4 node holds a property of that name; LABEL, AGENT, CLASS, MAILER, "
                    + "NAME, PROFILE and SORT-STRING, which 4.0 removed, are left out and named on stderr. --format "
                    + "vcf stays 3.0, which carries XEP-0054's structured fields. A card from the cache (--cached) "
                    + "has the vCard4 properties it had when it was last read from every store.",
                "A profile lives in three stores, all read by default (--store picks one): vcard-temp (XEP-0054), "
                    + "the vCard4 PEP node (XEP-0292, urn:xmpp:vcard4, which Gajim edits) and the nickname PEP node "
                    + "(XEP-0172, which Conversations, Dino and Monal show). They are merged field by field: the "
                    + "nickname from the nickname node, then vCard4, then vcard-temp; every other field from vCard4, "
                    + "then vcard-temp; the photo from vcard-temp (avatars are xmpp-avatar's). A list holding the same "
                    + "values in two stores keeps the copy with more type flags. On Prosody (mod_vcard_legacy) vcard-temp "
                    + "is made from the vCard4 node, so the two are one store there; ejabberd keeps them apart. The PEP "
                    + "nodes answer only whom their access model admits: a contact's profile shared with presence "
                    + "subscribers is read in full by them, and by others only where vcard-temp is kept apart.",
                "A JID without any profile store (Prosody cannot tell that from a JID without an account) is exit status 4; "
                    + "when its vCard4 or nickname node refused this account (an access model of presence or roster), "
                    + "the message says so, since the profile may exist and be shared with its contacts only; "
                    + "the account's own missing card is an empty card. With several JIDs the status is 4 when every "
                    + "failure was a missing card, 1 otherwise.",
                "Text output labels each field, a value's line breaks starting indented lines; when standard output is "
                    + "not a terminal it is FIELD<TAB>VALUE lines, with backslashes, newlines, carriage returns, tabs and "
                    + "escapes in values written as \\\\, \\n, \\r, \\t and \\e. --field prints values the same way. Other "
                    + "control characters, and those that reorder text (bidirectional controls), are written as U+XXXX "
                    + "in all text output, so a card cannot forge lines or drive the terminal.",
            ],
            options: [cached, refresh, field, format, photoOut, store] + PasswordSource.declarations,
            positionals: [jids],
            rules: [.exclusive(cached.spec.long, refresh.spec.long), .exclusive(cached.spec.long, store.spec.long)],
            examples: [
                Example("xmpp-vcard get alice --json | jq .emails", "Show a local user's email addresses."),
                Example("xmpp-vcard get --photo-out me.png --field photo_type", "Save one's own photo and print its type."),
                Example("xmpp-vcard get --cached bob@example.org", "Show the card from the cache, offline."),
            ])

        let context: AccountContext
        let cachedOnly: Bool
        let refresh: Bool
        let format: VCardPrinter.Format
        let field: String?
        let words: [String]
        /// More than one JID, or '-': every result is printed and failures are reported in line.
        let list: Bool
        let photoOut: String?
        let store: VCardStoreChoice
        var env: ToolEnvironment { context.environment }

        init(_ invocation: Invocation) throws {
            let command = invocation.command
            context = invocation.passwordContext
            cachedOnly = command[Self.cached]
            refresh = command[Self.refresh]
            format = try Self.format(try command.value(Self.format), json: invocation.common.json)
            field = try command.value(Self.field)
            // Value-dependent, so not an OptionRule: --field with --format text or json is fine.
            if field != nil && (format == .vcf || format == .vcf4) {
                throw ToolFailure(.usage, "--field prints one field; it does not combine with --format \(format.rawValue)")
            }
            words = command.argumentList(Self.jids.name)
            list = words.count > 1 || words.contains("-")
            photoOut = try command.value(Self.photoOut)
            store = try command.value(Self.store) ?? .all
            if photoOut != nil && list { throw ToolFailure(.usage, "--photo-out takes a single JID") }
        }

        func run() throws {
            let cache = VCardCacheAccess(env: env)
            if words.contains("-") { try context.passwordForRun?.refuseStandardInput(sharedWith: "the list of JIDs") }
            let account = try context.accountJID()
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
                try fetch(targets, account: account, cache: cache, show: show)
            }
            if list, printer.listStatus != .ok {
                throw ToolFailure(printer.listStatus, "\(printer.failureCodes.count) of \(targets.count) JIDs failed")
            }
        }

        /// Asks the server; when it cannot be reached (and not `--refresh`), answers from the cache.
        private func fetch(_ targets: [VCardTarget], account: JID, cache: VCardCacheAccess,
                           show: (String, Result<VCardResult, ToolFailure>) throws -> Void) throws {
            let connection: Connection
            switch Self.connect(context) {
            case .success(let c): connection = c
            case .failure(let error):
                guard !refresh, ErrorMapping.isLinkFailure(error) else { throw error }
                env.warn("cannot reach the server (\(ErrorMapping.failure(for: error).message)); answering from the cache")
                for t in targets {
                    try show(t.label, Self.fromCache(t, account: account, cache: cache).mapError { f in
                        f.code == .notFound ? ErrorMapping.failure(for: error) : f
                    })
                }
                return
            }
            defer { connection.close() }
            var fetched: [VCardCacheAccess.Record] = []
            var gone: [JID] = []
            var warnedOffline = false
            var own: Result<StoredProfile, ProfileServiceError>?
            if targets.contains(where: { if case .own = $0 { return true } else { return false } }) {
                own = Result { () throws(ProfileServiceError) in
                    try ProfileService.fetchOwn(on: connection, stores: Swift.Set(store.stores))
                }
            }
            var pipeline = ProfileFetchPipeline(connection: connection, jids: targets.compactMap { t in
                if case .other(let j) = t { return j } else { return nil }
            }, stores: store.stores)
            for t in targets {
                let answer: Result<StoredProfile, ProfileServiceError>
                switch t {
                case .invalid(let text, let why): try show(text, .failure(ToolFailure(.badInput, why))); continue
                case .own: answer = own ?? .success(StoredProfile())
                case .other: answer = pipeline.next()?.result ?? .failure(.vcardTemp(.connection(.streamClosed)))
                }
                guard let jid = t.jid else { continue }
                switch answer {
                case .success(let stored):
                    let merged = MergedProfile(stored)
                    // Only the merged view of every store is cached: one store alone is not the profile.
                    if store == .all { fetched.append(.init(jid: jid, card: merged.card, vcard4Extras: merged.vcard4Extras)) }
                    if !context.common.json && format == .text {
                        for c in merged.conflicts {
                            let values = c.values.map { "\($0.store.rawValue): \(VCardPublisher.short($0.value))" }
                            env.warn("warning: \(jid): the stores disagree on \(c.field.rawValue) (\(values.joined(separator: "; ")))")
                        }
                    }
                    try show(t.label, .success(VCardResult(jid: jid, merged: merged)))
                case .failure(let error):
                    if case .notFound = error, store == .all { gone.append(jid) }
                    if !refresh, ErrorMapping.isLinkFailure(error), let entry = try? cache.load(account: account, jid: jid) {
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
            return .success(VCardResult(jid: entry.jid, card: entry.card, cachedAt: entry.fetchedAt,
                                        vcard4Extras: entry.vcard4Extras?.properties ?? []))
        }

        /// Writes the embedded photo's bytes; a card without one is "not found".
        static func writePhoto(_ r: VCardResult, to path: String) throws {
            guard let photo = r.card.photo else { throw ToolFailure(.notFound, "the vCard of \(r.jid) has no photo") }
            guard let bytes = VCardPhotoFile.info(photo).bytes else {
                throw ToolFailure(.notFound, "the vCard of \(r.jid) links its photo (\(photo.externalURL ?? "?")) instead of embedding it")
            }
            try Output.write(bytes, toFileOrStdout: path)
        }

        /// `--format`, or json for `--json`; `--json` with another format is a usage error (which
        /// depends on the value, so it is not an OptionRule).
        static func format(_ chosen: VCardPrinter.Format?, json: Bool) throws(ToolFailure) -> VCardPrinter.Format {
            guard let chosen else { return json ? .json : .text }
            if json && chosen != .json { throw ToolFailure(.usage, "--json conflicts with --format \(chosen.rawValue)") }
            return chosen
        }
    }
}
