import Arguments
import PNGImage
import XMPPBatch
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// Turns lower layers' typed errors into an exit status and one line for people.
public enum ErrorMapping {
    /// The failure for any error a command can meet.
    public static func failure(for error: any Error) -> ToolFailure {
        switch error {
        case let f as ToolFailure: return f
        // A typed option read back by a command (`try command.value(…)`) that the parser let through.
        case let e as ArgumentError: return ToolFailure(.usage, e.reason.description)
        case let e as ConnectionError: return failure(for: e)
        case let e as RegistrationError: return failure(for: e)
        // The account argument is spelt out: without it this call would resolve to this very function.
        case let e as AdHocError: return failure(for: e, account: nil)
        case let e as InviteError:
            switch e {
            case .rejected, .noRegistration: return ToolFailure(.refused, e.description)
            case .mismatch: return ToolFailure(.usage, e.description)
            case .registration(let r): return failure(for: r)
            }
        case let e as VCardServiceError: return failure(for: e)
        case let e as ProfileServiceError: return failure(for: e)
        case let e as PubSubError: return failure(for: e)
        case let e as StorageError:
            if case .insecurePermissions = e { return ToolFailure(.auth, e.description) }
            return ToolFailure(.failed, e.description)
        case let e as JIDError: return ToolFailure(.badInput, "invalid JID: \(e)")
        case let e as PNGImageError: return ToolFailure(.badInput, e.description)
        case let e as AvatarServiceError: return failure(for: e)
        case let e as ProfileMirrorError:
            let condition = e.refusals.keys.sorted().compactMap { e.refusals[$0]?.condition }.first
            return ToolFailure(condition.map(code(forCondition:)) ?? .refused, e.description)
        case let e as BatchError: return failure(for: e)
        case let e as JournalError: return failure(for: e)
        default: return ToolFailure(.failed, "\(error)")
        }
    }

    /// Connection errors by kind.
    public static func failure(for error: ConnectionError) -> ToolFailure {
        switch error {
        case .dnsFailed, .connectFailed:
            return ToolFailure(.network, error.description + " (is the server elsewhere? name it with --server HOST[:PORT])")
        case .closedWithoutAnswer:
            return ToolFailure(.network, error.description + "; if it is a direct-TLS port, add --direct-tls")
        case .wrongProtocol(_, let greeting):
            return ToolFailure(.network, error.description + ": " + wayForward(greeting))
        case .timedOut, .closedByPeer, .io, .streamClosed, .xml, .badStanza, .protocolViolation:
            return ToolFailure(.network, error.description)
        case .stream(let e):
            if ["policy-violation", "resource-constraint", "not-authorized"].contains(e.condition) {
                return ToolFailure(e.condition == "not-authorized" ? .auth : .refused, error.description)
            }
            if e.condition == "host-unknown" { return ToolFailure(.notFound, error.description) }
            return ToolFailure(.network, error.description)
        case .tls, .certificateRejected, .referenceNameUnusable, .pinMismatch, .tlsUnavailable:
            return ToolFailure(.tls, error.description)
        case .sasl, .authenticationFailed:
            return ToolFailure(.auth, error.description)
        case .stanzaError(let e):
            return ToolFailure(code(forCondition: e.condition), error.description)
        }
    }

    /// The server's "no" to a password, in the tool's words (exit 3); the server's condition stays
    /// in parentheses, its free text is left out (it is in `--trace`). Nil for other errors.
    public static func passwordRejection(_ error: ConnectionError, jid: String) -> ToolFailure? {
        let condition: String
        switch error {
        case .authenticationFailed(let c, _): condition = c
        case .sasl(.serverError(let e)): condition = e
        default: return nil
        }
        switch condition {
        case "not-authorized", "invalid-proof", "unknown-user", "other-error":
            return ToolFailure(.auth, "wrong password or unknown account for \(jid) (server: \(condition))")
        case "account-disabled":
            return ToolFailure(.auth, "the account \(jid) is disabled on its server (server: \(condition))")
        case "credentials-expired":
            return ToolFailure(.auth, "the password of \(jid) has expired (server: \(condition))")
        case "temporary-auth-failure":
            return ToolFailure(.auth, "the server could not check the password of \(jid) just now; try again later (server: \(condition))")
        default:
            return ToolFailure(.auth, "the server refused to log in \(jid) (server: \(condition))")
        }
    }

    /// What to change on the command line when a port answered another protocol.
    static func wayForward(_ greeting: PeerGreeting) -> String {
        switch greeting {
        case .http: return "--server must name the server's XMPP client port (usually 5222, or 5223 with --direct-tls), not a web port"
        case .tls: return "it looks like a direct-TLS port; add --direct-tls"
        case .xml: return "it looks like a STARTTLS port; leave out --direct-tls"
        }
    }

    /// Registration errors by kind.
    public static func failure(for error: RegistrationError) -> ToolFailure {
        switch error {
        case .notSupported: return ToolFailure(.registrationClosed, error.description + ": " + RegistrationAdvice.administrator)
        case .refused(let refusal, _, _):
            return ToolFailure(RegistrationAdvice.code(refusal), error.description + ": " + RegistrationAdvice.wayForward(refusal))
        case .captchaRequired, .redirected: return ToolFailure(.refused, error.description)
        case .missingField(let field): return ToolFailure(.usage, error.description + " (give it with --field \(field)=VALUE)")
        case .invalidForm: return ToolFailure(.network, error.description)
        case .connection(let c):
            if case .stanzaError(let e) = c, e.condition == .conflict {
                return ToolFailure(.conflict, "the account already exists" + (e.text.map { " (\($0))" } ?? ""))
            }
            return failure(for: c)
        }
    }

    /// Ad-hoc command errors: not permitted (12), not offered (4), a failed command (1), values
    /// that do not answer its form (2), or the connection's.
    /// `account`, when given, is the account the command ran as: named when it is not an
    /// administrator (the active account may not be the one meant).
    public static func failure(for error: AdHocError, account: JID? = nil) -> ToolFailure {
        switch error {
        case .forbidden(let node, _):
            let admin = node.hasPrefix(Namespace.admin + "#") || node.hasPrefix(Namespace.invite + "#")
            guard admin, let account else {
                return ToolFailure(.notPermitted, error.description + (admin ? ": the account is not an administrator of this server" : ""))
            }
            return ToolFailure(.notPermitted, error.description + ": \(account) is not an administrator of this server "
                               + "(the account commands act as: pass -a ADMIN, or make the administrator active with xmpp-login ADMIN)")
        case .notOffered: return ToolFailure(.notFound, error.description)
        case .failed(let node, let message): return ToolFailure(.failed, "\(node): \(message)")
        case .badAnswer(_, let e):
            switch e {
            case .missingField(let name, _): return ToolFailure(.usage, error.description + " (give it with --field \(name)=VALUE)")
            case .unknownField, .invalidValue: return ToolFailure(.usage, error.description)
            }
        case .invalidReply, .tooManyStages: return ToolFailure(.failed, error.description)
        case .connection(let c): return failure(for: c)
        }
    }

    /// Avatar service errors: what the server sent was unusable (1), no PEP (8), or the connection's.
    public static func failure(for error: AvatarServiceError) -> ToolFailure {
        switch error {
        case .invalidPayload, .invalidBase64, .hashMismatch: return ToolFailure(.failed, error.description)
        case .pepUnavailable: return ToolFailure(.refused, error.description)
        case .readRefused: return ToolFailure(error.isAmbiguousRefusal ? .notFound : .refused, error.description)
        case .connection(let c): return failure(for: c)
        }
    }

    /// Batch errors: the CSV (9), what the command line asked for (2), the server (8, 6), or 1.
    public static func failure(for error: BatchError) -> ToolFailure {
        switch error {
        case .unreadableInput, .invalidCSV, .badHeader: return ToolFailure(.badInput, error.description)
        case .usernameNeedsDomain, .notAReport, .reportHasNoPassword: return ToolFailure(.usage, error.description)
        case .unreadableReport, .unsafeReport, .unsafeReportByGroup, .journalLacksLine, .stateDirectory, .syncState: return ToolFailure(.failed, error.description)
        case .noProgress(_, _, let throttled):
            guard throttled else { return ToolFailure(.network, error.description) }
            return ToolFailure(.registrationThrottled, error.description + ": " + RegistrationAdvice.wayForward(.throttled))
        }
    }

    /// Journal errors: a journal this run may not take over is a usage error (say --resume, or
    /// another --report); a locked or failing one is 1.
    public static func failure(for error: JournalError) -> ToolFailure {
        switch error {
        case .unfinished, .mismatch, .holdsPasswords: return ToolFailure(.usage, JournalWords.message(error))
        case .locked, .storage: return ToolFailure(.failed, JournalWords.message(error))
        }
    }

    /// Exit status for a stanza error condition (RFC 6120 §8.3.3).
    public static func code(forCondition condition: StanzaError.Condition) -> ExitCode {
        switch condition {
        case .conflict: return .conflict
        case .itemNotFound, .recipientUnavailable, .remoteServerNotFound: return .notFound
        case .notAllowed, .forbidden, .policyViolation, .resourceConstraint, .registrationRequired,
             .serviceUnavailable, .featureNotImplemented: return .refused
        case .notAuthorized: return .auth
        case .badRequest, .notAcceptable, .jidMalformed: return .badInput
        case .remoteServerTimeout: return .network
        case .gone, .internalServerError, .redirect, .subscriptionRequired, .undefinedCondition, .unexpectedRequest:
            return .failed
        }
    }
}
