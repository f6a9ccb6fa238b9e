import XMPPServices

/// `--store`: the profile stores a command reads or writes.
enum VCardStoreChoice: String, Sendable, CaseIterable {
    case all
    case vcardTemp = "vcard-temp"
    case vcard4
    case nick

    var stores: [ProfileStore] {
        switch self {
        case .all: return ProfileStore.allCases
        case .vcardTemp: return [.vcardTemp]
        case .vcard4: return [.vcard4]
        case .nick: return [.nick]
        }
    }
}

/// `--access`: the PEP access model (`pubsub#access_model`) asked for the vCard4 and nickname nodes.
enum PEPAccess: String, Sendable, CaseIterable {
    case open, presence, roster
}
