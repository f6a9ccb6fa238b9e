import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// In-band registration (XEP-0077) as a kind of batch request: each unauthenticated stream
/// fetches the form once, then each row is a registration with the form filled in. A server
/// that answers a later request of a stream while earlier ones wait (it drops answers to
/// pipelined registrations, though it creates every account) gets one request at a time from
/// then on; the skipped rows are sent again, uncertain (a `conflict` is checked by logging in).
final class RegistrationRequests: RequestKind {
    typealias Handshake = RegistrationForm

    var recyclesStreams: Bool { true }

    func begin(on link: PolledConnection, id: String) -> StreamBeginning<RegistrationForm> {
        .request(RegistrationService.formRequest(id: id).element)
    }

    /// The stream's form, read and checked as `RegistrationService` does for a single request;
    /// throttling only delays this stream, any other refusal ends the run.
    func handshake(from reply: Iq, on link: PolledConnection) throws -> HandshakeOutcome<RegistrationForm> {
        if let error = reply.error, error.isThrottle { return .throttled(error) }
        let form = try RegistrationService.form(from: reply, domain: link.connection.domain)
        try RegistrationService.checkAnswerable(form)
        return .ready(form, then: [])
    }

    func request(_ index: Int, id: String, handshake form: RegistrationForm, engine: BatchEngine<RegistrationRequests>) throws -> RowRequest {
        let item = engine.items[index]
        let extra = ProfileStep.registrationFields(for: item.row, form: form)
        // A password is generated only now that its row is sent; the journal has it before
        // the request leaves.
        let password = item.password ?? BatchInput.generatePassword()
        do {
            let iq = try RegistrationService.registrationIq(id: id, form: form, username: item.row.jid.local ?? "",
                                                            password: password, extra: extra)
            if item.password == nil {
                engine.setPassword(password, of: index)
                return .send(iq.element, generated: password)
            }
            return .send(iq.element, generated: nil)
        } catch {
            guard case .missingField(let field) = error else { throw error }
            return .failed("the server's form requires '\(field)', which the CSV does not give")
        }
    }

    func reply(_ reply: Iq, to request: InFlightRequest, on stream: EngineStream<RegistrationRequests>,
               engine: BatchEngine<RegistrationRequests>) throws {
        stopPipeliningIfSkipped(before: request, on: stream, engine: engine)
        let index = request.item
        guard let error = reply.error else {
            engine.progressed(stream)
            guard case .ready(let form) = stream.state else { return engine.recordCreated(index, sentFields: [:]) }
            engine.recordCreated(index, sentFields: ProfileStep.registrationFields(for: engine.items[index].row, form: form))
            return
        }
        let verdict = ReplyClassifier.verdict(error)
        if verdict != .retry { engine.answered() }
        switch verdict {
        case .exists:
            engine.progressed(stream)
            engine.recordExists(index)
        case .retry:
            engine.throttle(index, error)
        case .refused:
            engine.record(index, .failed, error: ReplyClassifier.describe(error))
        case .stop:
            // Not this row's fault: it stays to do, for --resume once registration is open to us.
            engine.record(index, .pending)
            throw RegistrationService.submissionRefusal(error, domain: stream.link?.connection.domain ?? "the server")
        }
    }

    func unanswered(_ index: Int, after error: ConnectionError, engine: BatchEngine<RegistrationRequests>) {
        engine.requeue(index, because: error.description, uncertainNow: true, journal: false)
    }

    func endsRun(opening error: ConnectionError) -> Bool { false }

    /// An answer to a request while earlier ones of the same stream wait means the server drops
    /// answers to pipelined requests (it works through a stream's stanzas in order): waiting
    /// for them would only run into the timeout. The earlier ones are sent again, uncertain (the
    /// server may have created them: a `conflict` is checked by logging in), one at a time.
    private func stopPipeliningIfSkipped(before answered: InFlightRequest, on stream: EngineStream<RegistrationRequests>,
                                         engine: BatchEngine<RegistrationRequests>) {
        let skipped = stream.inFlight.filter { $0.value.sequence < answered.sequence }
        guard !skipped.isEmpty else { return }
        for id in skipped.keys { stream.inFlight.removeValue(forKey: id) }
        engine.stopPipelining(note: "\(stream.link?.connection.domain ?? "the server") answered a later registration before earlier ones on the same stream (it drops answers to pipelined requests): sending one registration at a time per stream")
        for index in skipped.values.map(\.item).sorted() {
            engine.requeue(index, because: "the server skipped its answer", uncertainNow: true, journal: false)
        }
    }
}
