/// A log-in with an account's remembered credentials (ARCHITECTURE.md §4): the password or cached
/// SCRAM keys, on fresh streams as `StreamRetry` allows, remembering afterwards what the next
/// log-in needs: that the account used SCRAM (PLAIN is then a downgrade), and the offer the keys
/// went with (pipelined next time). Commands give the credential and a store; this decides.
public struct SessionLogIn: Sendable {
    /// The SASL authentication identity (the JID's local part).
    public var username: String
    /// The password or cached keys (a FAST token goes through `FASTResume`).
    public var credential: LoginCredential
    /// The account's settings say it used SCRAM or FAST before.
    public var usedSCRAMBefore: Bool
    /// With cached keys: the offer they went with last time, sent ahead of the server's features.
    public var rememberedOffer: RememberedOffer?
    /// A resource of the caller's choice.
    public var resource: String?

    /// A log-in from its parts.
    public init(username: String, credential: LoginCredential, usedSCRAMBefore: Bool,
                rememberedOffer: RememberedOffer? = nil, resource: String? = nil) {
        self.username = username
        self.credential = credential
        self.usedSCRAMBefore = usedSCRAMBefore
        self.rememberedOffer = rememberedOffer
        self.resource = resource
    }

    /// Cached keys are SCRAM's: an account that has them has used SCRAM.
    var usesSCRAM: Bool {
        if case .keys = credential { return true }
        return usedSCRAMBefore
    }

    /// What each stream's log-in sends: with a remembered SASL2 offer, `<authenticate/>` for its
    /// mechanism rides with the header after TLS.
    public var request: LoginRequest {
        LoginRequest(username: username, credential: credential, usedSCRAMBefore: usesSCRAM, resource: resource,
                     expectedMechanism: rememberedOffer.flatMap { $0.sasl2 ? $0.mechanism : nil })
    }

    /// Logs in on streams from `open` (pipelined where an offer is remembered), then tells
    /// `memory` what changed.
    public func run(memory: LoginMemory, open: (_ pipelined: Bool) throws -> Connection) throws -> (Connection, LoginOutcome) {
        let request = request
        let (connection, outcome) = try StreamRetry.run(pipelined: rememberedOffer != nil) { pipelined in
            let connection = try open(pipelined)
            do { return (connection, try connection.logIn(request)) } catch {
                connection.close()
                throw error
            }
        }
        do {
            try remember(outcome, in: memory)
        } catch {
            connection.close()
            throw error
        }
        return (connection, outcome)
    }

    /// What `outcome` teaches the account's memory.
    func remember(_ outcome: LoginOutcome, in memory: LoginMemory) throws {
        if !usesSCRAM, outcome.mechanism != "PLAIN" { try memory.rememberSCRAM() }
        let offer = RememberedOffer(mechanism: outcome.mechanism, sasl2: outcome.usedSASL2)
        if let rememberedOffer, rememberedOffer != offer { try memory.rememberOffer(offer) }
    }
}
