import XMPPConnection
import XMPPStanzas

/// Why a registration request could not be made or was not accepted (beyond connection errors).
public enum RegistrationError: Error, Sendable, CustomStringConvertible {
    /// The server does not offer in-band registration.
    case notSupported(domain: String)
    /// The server wants a CAPTCHA answered, which a script cannot do.
    case captchaRequired(instructions: String?)
    /// Registration happens on a web page instead.
    case redirected(url: String)
    /// A field the server requires has no value.
    case missingField(String)
    /// The server answered with something that is not a registration form.
    case invalidForm(StanzaParseError)
    /// The server creates no account for this client just now, whichever is asked for.
    case refused(RegistrationRefusal, domain: String, answer: StanzaError)
    /// The connection or the server refused.
    case connection(ConnectionError)

    public var description: String {
        switch self {
        case .notSupported(let d): return "\(d) does not offer in-band registration (it is closed, or not there at all)"
        case .captchaRequired(let i): return "the server requires a CAPTCHA" + (i.map { ": \($0)" } ?? "")
        case .redirected(let url): return "the server registers accounts on the web only: \(url)"
        case .missingField(let f): return "the server requires the field '\(f)'"
        case .invalidForm(let e): return "invalid registration form from the server: \(e)"
        case .refused(.closed, let d, let answer): return "\(d) does not let this client create accounts (server: \(answer))"
        case .refused(.invitationOnly, let d, let answer): return "\(d) creates accounts by invitation only (server: \(answer))"
        case .refused(.throttled, let d, let answer):
            return "\(d) limits how often accounts can be created from one address (server: \(answer))"
        case .connection(let e): return e.description
        }
    }
}

/// In-band registration (XEP-0077): form, register, change password, cancel. Network only.
///
/// The form is handled in one place for a single request on a blocking stream (`form(on:)`,
/// `register(on:)`) and for pipelined ones on a polled stream (the batch engine): the same
/// request, the same reading of the answer, the same refusal of what a script cannot answer,
/// the same submission.
public enum RegistrationService {
    /// Asks the server what registration needs (on an unauthenticated stream, or for the
    /// logged-in account on an authenticated one).
    public static func form(on connection: any StanzaChannel) throws(RegistrationError) -> RegistrationForm {
        let reply: Iq
        do {
            reply = try connection.request(formRequest(id: connection.makeID()))
        } catch {
            if case .stanzaError(let e) = error { throw refusal(e, domain: connection.domain) }
            throw .connection(error)
        }
        return try form(from: reply, domain: connection.domain)
    }

    /// The request for the registration form (XEP-0077 §3.1).
    public static func formRequest(id: String) -> Iq {
        Iq(type: .get, id: id, payload: RegistrationRequest.formQuery)
    }

    /// The form in the server's reply to `formRequest`: an error reply is the server's refusal
    /// (`notSupported` when it has no in-band registration), a result without a form is invalid.
    public static func form(from reply: Iq, domain: String) throws(RegistrationError) -> RegistrationForm {
        if reply.type == .error { throw refusal(reply.error ?? StanzaError(type: "cancel", condition: .undefinedCondition), domain: domain) }
        guard let payload = reply.payload else { throw .invalidForm(.missingChild(element: "iq", child: "query")) }
        do { return try RegistrationForm(element: payload) } catch { throw .invalidForm(error) }
    }

    /// Refuses a form no script can answer: a CAPTCHA, or registration on a web page only.
    public static func checkAnswerable(_ form: RegistrationForm) throws(RegistrationError) {
        if form.isCaptcha { throw .captchaRequired(instructions: form.instructions) }
        if form.form == nil && form.fields.isEmpty, let url = form.redirectURL { throw .redirected(url: url) }
    }

    /// What an error answering the form request means: XEP-0077 §3.1 says a server without
    /// in-band registration answers service-unavailable (some say feature-not-implemented); so does
    /// Prosody with registration closed (`allow_registration = false`, its default).
    static func refusal(_ error: StanzaError, domain: String) -> RegistrationError {
        if error.condition == .serviceUnavailable || error.condition == .featureNotImplemented {
            return .notSupported(domain: domain)
        }
        return submissionRefusal(error, domain: domain)
    }

    /// What an error answering a registration means: registration refused for everyone asked
    /// (closed, by invitation, throttled), or about this account (`conflict`, a bad name).
    public static func submissionRefusal(_ error: StanzaError, domain: String) -> RegistrationError {
        if error.condition != .conflict, let refusal = RegistrationRefusal(error) {
            return .refused(refusal, domain: domain, answer: error)
        }
        return .connection(.stanzaError(error))
    }

    /// Registers `username` with `password` (and any `extra` fields such as email) on an
    /// unauthenticated stream. A `conflict` stanza error means the account exists.
    public static func register(on connection: any StanzaChannel, username: String, password: String,
                                extra: [String: String] = [:], form known: RegistrationForm? = nil) throws(RegistrationError) {
        let form: RegistrationForm
        if let known { form = known } else { form = try self.form(on: connection) }
        try checkAnswerable(form)
        let iq = try registrationIq(id: connection.makeID(), form: form, username: username, password: password, extra: extra)
        do {
            try connection.request(iq)
        } catch {
            if case .stanzaError(let e) = error { throw submissionRefusal(e, domain: connection.domain) }
            throw .connection(error)
        }
    }

    /// The IQ that registers one account answering `form` (with `extra` values for the fields
    /// it asks for beyond username and password); sent alone by `register`, pipelined by batch.
    public static func registrationIq(id: String, form: RegistrationForm, username: String, password: String,
                                      extra: [String: String] = [:]) throws(RegistrationError) -> Iq {
        var values = extra
        values["username"] = username
        values["password"] = password
        do {
            return Iq(type: .set, id: id, payload: try RegistrationRequest.submission(answering: form, values: values))
        } catch {
            switch error { case .missingField(let f): throw .missingField(f) }
        }
    }

    /// Changes the password of the authenticated account (XEP-0077 §3.3).
    public static func changePassword(on connection: any StanzaChannel, username: String, newPassword: String) throws(RegistrationError) {
        do {
            try connection.request(Iq(type: .set, id: connection.makeID(),
                                      payload: RegistrationRequest.changePassword(username: username, newPassword: newPassword)))
        } catch {
            throw .connection(error)
        }
    }

    /// Deletes the authenticated account (XEP-0077 §3.2). The server may close the stream
    /// right after answering, or even instead of answering; both count as success.
    public static func cancel(on connection: any StanzaChannel) throws(RegistrationError) {
        do {
            try connection.request(Iq(type: .set, id: connection.makeID(), payload: RegistrationRequest.remove))
        } catch {
            switch error {
            case .streamClosed, .closedByPeer: return
            case .stream(let e) where e.condition == "not-authorized" || e.condition == "conflict": return
            default: throw .connection(error)
            }
        }
    }
}
