import XMPPConnection
import XMPPStanzas

/// What writing one store did.
public struct ProfileStoreWrite: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Published, or (vCard4 on a server that converts vcard-temp) made by the server as wanted.
        case updated
        /// Already held these values; nothing was sent.
        case unchanged
        /// The server has no such store (no PEP).
        case unavailable
        /// The server refused.
        case failed
    }

    public var store: ProfileStore
    public var status: Status
    /// Fields this write changed in the store.
    public var changed: [String]
    /// Values the store did not keep, read back after the write.
    public var losses: [VCardLoss]
    /// For a failure or unavailable store, the server's reason.
    public var reason: String?
    /// True when the server made this store from another one (Prosody's vcard_legacy makes the
    /// vCard4 node from vcard-temp), so it was not published a second time.
    public var madeByServer: Bool
    /// For a failure or unavailable store, the server's error condition when it answered with one.
    public var condition: StanzaError.Condition?

    /// Builds a value.
    public init(store: ProfileStore, status: Status, changed: [String] = [], losses: [VCardLoss] = [], reason: String? = nil,
                madeByServer: Bool = false, condition: StanzaError.Condition? = nil) {
        self.store = store
        self.status = status
        self.changed = changed
        self.losses = losses
        self.reason = reason
        self.madeByServer = madeByServer
        self.condition = condition
    }
}

/// What writing a profile did, store by store, and what the stores hold afterwards.
public struct ProfileWriteResult: Sendable {
    public var before: StoredProfile
    /// The card the change made: what every store written was asked to hold.
    public var wanted: VCard
    public var after: StoredProfile
    public var writes: [ProfileStoreWrite]
}

/// One profile, several stores: applies one change to vcard-temp, the vCard4 node and the
/// nickname node of one's own account and reads back what each kept. Network only.
///
/// Order: vcard-temp first (a server converting it, XEP-0398 / Prosody's vcard_legacy,
/// rewrites the vCard4 node and the avatar nodes from it), then vCard4 read back and published
/// only when what the server made differs from what is wanted (it keeps vCard4 properties the
/// conversion drops), then the nickname. One connection, one request at a time, so the
/// conversion is complete before the next write: nothing races.
public enum ProfileWriter {
    /// Applies `change` to the merged profile (all stores) or to one store's content, writes
    /// the stores in `stores`, and reads them back. `access` is the PEP access model asked for.
    ///
    /// A store is written only for fields the change alters in it; `fields` names them instead,
    /// for a caller that wrote them elsewhere first (a profile set through the avatar step).
    /// `vcard4`, when given, makes the vCard4 node's content from its current one instead of
    /// putting the changed fields over it: a vCard 4.0 file's own properties, read natively.
    public static func write(on connection: any StanzaChannel, stores: Set<ProfileStore>, access: String?,
                             fields: [VCardField]? = nil, vcard4: ((VCard4) -> VCard4)? = nil,
                             change: (VCard) throws -> VCard) throws -> ProfileWriteResult {
        let before = try ProfileService.fetchOwn(on: connection)
        let base: VCard
        if stores.count > 1 {
            base = MergedProfile(before).card
        } else if let only = stores.first {
            base = before.card(of: only)
        } else {
            base = VCard()
        }
        let wanted = try change(base)
        var writes: [ProfileStoreWrite] = []
        var after = before
        var publishedTemp = false

        // A store is written only for a field this change alters there: re-sending what a store
        // cannot hold (Prosody's conversion drops org units and most type flags) on every run
        // would publish twice for nothing.
        let edited = fields?.map(\.rawValue) ?? changedFields(base, wanted)
        func alters(_ store: ProfileStore) -> Bool {
            let current = store == .vcardTemp ? (before.vcardTemp ?? VCard()) : before.card(of: store)
            let target = store == .vcard4 ? VCard4.mappable(wanted) : wanted
            let differing = Set(changedFields(store == .vcard4 ? VCard4.mappable(current) : current, target))
            return edited.contains { differing.contains($0) }
        }
        if stores.contains(.vcardTemp) {
            let current = before.vcardTemp ?? VCard()
            if wanted == current || !alters(.vcardTemp) {
                writes.append(write(.vcardTemp, .unchanged))
            } else {
                do {
                    try VCardService.publish(wanted, on: connection)
                    publishedTemp = true
                    let kept = try VCardService.fetch(on: connection, jid: nil)
                    after.vcardTemp = kept
                    writes.append(ProfileStoreWrite(store: .vcardTemp, status: .updated, changed: changedFields(current, wanted).filter(edited.contains),
                                                    losses: wanted.losses(comparedTo: kept), reason: nil, madeByServer: false))
                } catch {
                    throw ProfileServiceError.vcardTemp(error)
                }
            }
        }

        if stores.contains(.vcard4) {
            let current = before.vcard4 ?? VCard4()
            let desired = vcard4?(current) ?? current.replacingFields(with: wanted)
            var converts = false
            var w = alters(.vcard4) || publishedTemp || (vcard4 != nil && desired != current)
                ? writeVCard4(on: connection, current: current, desired: desired, publishedTemp: publishedTemp, access: access,
                              after: &after, converts: &converts)
                : write(.vcard4, .unchanged)
            w.changed = w.changed.filter(edited.contains)
            writes.append(w)
            // A server that makes vcard-temp from vCard4 now answers from what was just published.
            if converts, w.status == .updated, !w.madeByServer, let kept = try? VCardService.fetch(on: connection, jid: nil),
               let i = writes.firstIndex(where: { $0.store == .vcardTemp }) {
                let was = before.vcardTemp ?? VCard()
                after.vcardTemp = kept
                writes[i].losses = wanted.losses(comparedTo: kept)
                if writes[i].status == .unchanged && kept != was {
                    writes[i] = ProfileStoreWrite(store: .vcardTemp, status: .updated, changed: changedFields(was, kept).filter(edited.contains),
                                                  losses: writes[i].losses, reason: nil, madeByServer: true)
                }
            }
        }

        if stores.contains(.nick) {
            let current = before.nick ?? UserNickname(nil)
            let desired = UserNickname(wanted.nickname)
            if desired == current || !edited.contains("nickname") {
                writes.append(write(.nick, .unchanged))
            } else {
                do {
                    try ProfileService.publish(desired, on: connection, access: access)
                    let kept = try ProfileService.fetchNickname(on: connection, jid: nil) ?? UserNickname(nil)
                    after.nick = kept
                    var losses: [VCardLoss] = []
                    if let n = desired.nickname, kept.nickname != n { losses.append(VCardLoss(field: "nickname", value: n)) }
                    writes.append(ProfileStoreWrite(store: .nick, status: .updated, changed: ["nickname"], losses: losses,
                                                    reason: nil, madeByServer: false))
                } catch {
                    writes.append(refused(.nick, error))
                }
            }
        }
        return ProfileWriteResult(before: before, wanted: wanted, after: after, writes: writes)
    }

    private static func writeVCard4(on connection: any StanzaChannel, current: VCard4, desired: VCard4, publishedTemp: Bool,
                                    access: String?, after: inout StoredProfile, converts: inout Bool) -> ProfileStoreWrite {
        do {
            // What the server made of the vcard-temp just published, if it converts: the vCard4
            // node changed under the vcard-temp set (Prosody's vcard_legacy).
            let made = publishedTemp ? (try ProfileService.fetchVCard4(on: connection, jid: nil) ?? VCard4()) : current
            converts = made != current
            let changed = changedFields(current.fields, desired.fields)
            // What the server made covers what is wanted when every mapped field agrees and it kept
            // every unmapped property wanted: extras it added came from the vcard-temp just sent
            // (a second TITLE), which publishing `desired` over it would throw away.
            if made.fields == desired.fields, desired.extras.allSatisfy(made.extras.contains) {
                after.vcard4 = made
                guard made != current else { return write(.vcard4, .unchanged) }
                // The server made it, with its own node defaults: only the access model is ours to set.
                if let access { try PubSubClient.configure(on: connection, node: Namespace.vcard4Node, fields: ["pubsub#access_model": access]) }
                return ProfileStoreWrite(store: .vcard4, status: .updated, changed: changed, losses: [], reason: nil, madeByServer: true)
            }
            if desired == current && !publishedTemp { return write(.vcard4, .unchanged) }
            try ProfileService.publish(desired, on: connection, access: access)
            let kept = try ProfileService.fetchVCard4(on: connection, jid: nil) ?? VCard4()
            after.vcard4 = kept
            var losses = desired.fields.losses(comparedTo: kept.fields)
            for extra in desired.extras where !kept.extras.contains(extra) {
                losses.append(VCardLoss(field: extra.name, value: extra.text))
            }
            return ProfileStoreWrite(store: .vcard4, status: .updated, changed: changed.isEmpty && made != desired ? [] : changed,
                                     losses: losses, reason: nil, madeByServer: false)
        } catch {
            return refused(.vcard4, error)
        }
    }

    private static func write(_ store: ProfileStore, _ status: ProfileStoreWrite.Status) -> ProfileStoreWrite {
        ProfileStoreWrite(store: store, status: status, changed: [], losses: [], reason: nil, madeByServer: false)
    }

    /// A PEP write the server refused: `unavailable` where it has no PEP at all (jabberd2 2.7:
    /// feature-not-implemented). `item-not-found` is a failure: a PEP service creates the node
    /// on publish, and ejabberd answers it to a brand-new account now and then (ProfileStep retries it).
    private static func refused(_ store: ProfileStore, _ error: PubSubError) -> ProfileStoreWrite {
        var status = ProfileStoreWrite.Status.failed
        var condition: StanzaError.Condition?
        if case .connection(.stanzaError(let e)) = error {
            condition = e.condition
            if [.serviceUnavailable, .featureNotImplemented].contains(e.condition) { status = .unavailable }
        }
        return ProfileStoreWrite(store: store, status: status, reason: error.description, condition: condition)
    }

    /// The names of the fields whose values differ between two cards.
    public static func changedFields(_ a: VCard, _ b: VCard) -> [String] {
        VCardField.allCases.filter { ProfileFieldValue.key($0, in: a) != ProfileFieldValue.key($0, in: b) || typesDiffer($0, a, b) }
            .map(\.rawValue)
    }

    private static func typesDiffer(_ field: VCardField, _ a: VCard, _ b: VCard) -> Bool {
        switch field {
        case .email: return a.emails.map(\.types) != b.emails.map(\.types)
        case .phone: return a.phones.map(\.types) != b.phones.map(\.types)
        case .address: return a.addresses.map(\.types) != b.addresses.map(\.types)
        default: return false
        }
    }
}
