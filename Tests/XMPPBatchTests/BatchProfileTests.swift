import XCTest
import XMPPConnection
import XMPPServices
import XMPPStanzas
@testable import XMPPBatch

/// Step 3 of a row: which profile columns registration carries and which stay pending.
final class BatchProfileTests: XCTestCase {
    private func row(email: String? = nil, nickname: String? = nil) throws -> BatchRow {
        BatchRow(line: 2, jid: try JID("a@x.org"), password: "pw", newPassword: nil,
                 profile: ProfileColumns(nickname: nickname, fullname: nil, email: email, avatar: nil))
    }

    private let plainForm = RegistrationForm(fields: [(name: "username", value: ""), (name: "password", value: "")])
    private let emailForm = RegistrationForm(form: DataForm(type: "form", fields: [
        DataForm.Field(name: "FORM_TYPE", type: "hidden", values: ["jabber:iq:register"]),
        DataForm.Field(name: "username", required: true), DataForm.Field(name: "password", type: "text-private", required: true),
        DataForm.Field(name: "email"),
    ]))

    func testEmailGoesWithTheRegistrationOnlyWhenTheFormAsks() throws {
        XCTAssertEqual(ProfileStep.registrationFields(for: try row(email: "a@b.example"), form: emailForm), ["email": "a@b.example"])
        XCTAssertEqual(ProfileStep.registrationFields(for: try row(email: "a@b.example"), form: plainForm), [:])
        XCTAssertEqual(ProfileStep.registrationFields(for: try row(), form: emailForm), [:])
    }

    func testStateAfterRegistration() throws {
        XCTAssertNil(ProfileStep.afterRegistration(try row(), sentFields: [:]))
        XCTAssertEqual(ProfileStep.afterRegistration(try row(email: "a@b.example"), sentFields: ["email": "a@b.example"]), .applied)
        XCTAssertEqual(ProfileStep.afterRegistration(try row(email: "a@b.example", nickname: "N"), sentFields: ["email": "a@b.example"]),
                       .pending(["nickname"]))
        XCTAssertEqual(ProfileStep.afterRegistration(try row(email: "a@b.example"), sentFields: [:]), .pending(["email"]))
    }

    func testJournalTextRoundTrips() {
        for state in [ProfileState.applied, .pending(["nickname", "avatar"])] {
            XCTAssertEqual(ProfileState(journalText: state.journalText), state)
        }
        XCTAssertNil(ProfileState(journalText: nil))
        XCTAssertNil(ProfileState(journalText: "garbage"))
    }

    /// Only ejabberd's item-not-found on the vCard set is retried; other refusals leave the
    /// columns pending at once.
    func testOnlyTheFreshAccountRaceIsRetried() {
        let notFound = VCardServiceError.connection(.stanzaError(StanzaError(type: "cancel", condition: .itemNotFound)))
        let forbidden = VCardServiceError.connection(.stanzaError(StanzaError(type: "auth", condition: .forbidden)))
        XCTAssertTrue(ProfileStep.isFreshAccountRace(notFound))
        XCTAssertFalse(ProfileStep.isFreshAccountRace(forbidden))
        XCTAssertFalse(ProfileStep.isFreshAccountRace(VCardServiceError.connection(.closedByPeer)))
        // With an avatar the vCard set goes through AvatarPublisher, so the race arrives as its error.
        let avatarNotFound = AvatarServiceError.connection(.stanzaError(StanzaError(type: "cancel", condition: .itemNotFound)))
        XCTAssertTrue(ProfileStep.isFreshAccountRace(avatarNotFound))
        XCTAssertFalse(ProfileStep.isFreshAccountRace(AvatarServiceError.pepUnavailable(StanzaError(type: "cancel", condition: .serviceUnavailable))))
    }

    /// The PEP mirror of a row's profile: a refusing store fails the profile (it stays pending),
    /// an absent store and a value not kept are said, and neither is silently "applied".
    func testMirrorOutcomeNeverDropsARefusalOrALoss() throws {
        let ok = try ProfileApplier.outcome(of: [ProfileStoreWrite(store: .vcard4, status: .updated),
                                                 ProfileStoreWrite(store: .nick, status: .unchanged)])
        XCTAssertEqual(ok.storedInPEP, ["vcard4", "nick"])
        XCTAssertNil(ok.shortfall)

        XCTAssertThrowsError(try ProfileApplier.outcome(of: [
            ProfileStoreWrite(store: .vcard4, status: .updated),
            ProfileStoreWrite(store: .nick, status: .failed, reason: "not-allowed", condition: .notAllowed),
        ])) { error in
            XCTAssertEqual((error as? ProfileMirrorError)?.description, "the nick store refused it: not-allowed")
            XCTAssertFalse(ProfileStep.isFreshAccountRace(error), "a not-allowed is final")
        }
        XCTAssertThrowsError(try ProfileApplier.outcome(of: [
            ProfileStoreWrite(store: .nick, status: .failed, reason: "item-not-found", condition: .itemNotFound),
        ])) { error in
            XCTAssertTrue(ProfileStep.isFreshAccountRace(error), "a new account's item-not-found is retried")
        }

        var absent = try ProfileApplier.outcome(of: [ProfileStoreWrite(store: .vcard4, status: .unavailable, reason: "service-unavailable"),
                                                     ProfileStoreWrite(store: .nick, status: .unavailable, reason: "service-unavailable")])
        absent.storedInVCard = ["FN", "NICKNAME"]
        XCTAssertEqual(absent.shortfall, "the server has no nick and vcard4 store (service-unavailable), so those fields are only "
                       + "in the vCard; stored in the vCard: FN and NICKNAME")

        let lost = try ProfileApplier.outcome(of: [ProfileStoreWrite(store: .nick, status: .updated,
                                                                      losses: [VCardLoss(field: "nickname", value: "N")])])
        XCTAssertEqual(lost.shortfall, "the server did not keep nick: nickname")
    }
}
