import XMLTree

/// A vcard-temp vCard (XEP-0054): the fields people edit, plus every element this type does
/// not model, kept verbatim in `extras` so that fetch → change → publish never drops a field.
///
/// Text values are stored as the server sent them; an element with empty or whitespace-only
/// text counts as absent (Prosody answers `<MIDDLE/>` for "no middle name").
public struct VCard: Sendable, Equatable {
    /// `FN`: the formatted full name.
    public var fullName: String?
    /// `N`: the structured name.
    public var name: Name
    /// `NICKNAME`.
    public var nickname: String?
    /// `BDAY`, as written (XEP-0054 wants ISO 8601, `YYYY-MM-DD`).
    public var birthday: String?
    /// `ORG`: organisation name and units.
    public var organization: Organization
    /// `TITLE`.
    public var title: String?
    /// `ROLE`.
    public var role: String?
    /// `EMAIL`s, in order.
    public var emails: [Email]
    /// `TEL`s, in order.
    public var phones: [Phone]
    /// `ADR`s, in order.
    public var addresses: [Address]
    /// `URL`.
    public var url: String?
    /// `NOTE` (or `DESC` when the card has no `NOTE`), multi-line text.
    public var note: String?
    /// `JABBERID`.
    public var jabberID: String?
    /// `PHOTO`.
    public var photo: Photo?
    /// Every other child element (TZ, GEO, LABEL, extensions, a second NICKNAME…), in order.
    public var extras: [XMLElement]

    /// An empty card.
    public init() {
        name = Name()
        organization = Organization()
        emails = []
        phones = []
        addresses = []
        extras = []
    }

    /// True when the card holds nothing at all (XEP-0054: the same as no vCard).
    public var isEmpty: Bool { self == VCard() }
}

extension VCard {
    /// `N`: family, given, middle, prefix and suffix parts.
    public struct Name: Sendable, Equatable {
        /// `FAMILY`.
        public var family: String?
        /// `GIVEN`.
        public var given: String?
        /// `MIDDLE`.
        public var middle: String?
        /// `PREFIX`.
        public var prefix: String?
        /// `SUFFIX`.
        public var suffix: String?
        /// Other children of `N`, kept verbatim.
        public var extras: [XMLElement]

        /// Builds a name.
        public init(family: String? = nil, given: String? = nil, middle: String? = nil, prefix: String? = nil,
                    suffix: String? = nil, extras: [XMLElement] = []) {
            self.family = family
            self.given = given
            self.middle = middle
            self.prefix = prefix
            self.suffix = suffix
            self.extras = extras
        }

        /// True when no part is set.
        public var isEmpty: Bool { self == Name() }
    }

    /// `ORG`: `ORGNAME` and any number of `ORGUNIT`s.
    public struct Organization: Sendable, Equatable {
        /// `ORGNAME`.
        public var name: String?
        /// `ORGUNIT`s, in order.
        public var units: [String]
        /// Other children of `ORG`, kept verbatim.
        public var extras: [XMLElement]

        /// Builds an organisation.
        public init(name: String? = nil, units: [String] = [], extras: [XMLElement] = []) {
            self.name = name
            self.units = units
            self.extras = extras
        }

        /// True when nothing is set.
        public var isEmpty: Bool { self == Organization() }
    }

    /// `EMAIL`: an address and its type flags.
    public struct Email: Sendable, Equatable {
        /// `USERID`.
        public var address: String
        /// Type flags, lowercase, in order: home, work, internet, pref, x400.
        public var types: [String]
        /// Other children, kept verbatim.
        public var extras: [XMLElement]

        /// Builds an email entry.
        public init(address: String, types: [String] = [], extras: [XMLElement] = []) {
            self.address = address
            self.types = types
            self.extras = extras
        }

        /// The type flags XEP-0054 defines for `EMAIL`.
        public static let knownTypes = ["home", "work", "internet", "pref", "x400"]
    }

    /// `TEL`: a number and its type flags.
    public struct Phone: Sendable, Equatable {
        /// `NUMBER`.
        public var number: String
        /// Type flags, lowercase, in order: home, work, voice, fax, pager, msg, cell, video, bbs,
        /// modem, isdn, pcs, pref.
        public var types: [String]
        /// Other children, kept verbatim.
        public var extras: [XMLElement]

        /// Builds a phone entry.
        public init(number: String, types: [String] = [], extras: [XMLElement] = []) {
            self.number = number
            self.types = types
            self.extras = extras
        }

        /// The type flags XEP-0054 defines for `TEL`.
        public static let knownTypes = ["home", "work", "voice", "fax", "pager", "msg", "cell", "video", "bbs",
                                        "modem", "isdn", "pcs", "pref"]
    }

    /// `ADR`: a postal address and its type flags.
    public struct Address: Sendable, Equatable {
        /// `POBOX`.
        public var poBox: String?
        /// `EXTADD`: extended address (apartment, suite).
        public var extended: String?
        /// `STREET`.
        public var street: String?
        /// `LOCALITY`: city.
        public var locality: String?
        /// `REGION`: state or province.
        public var region: String?
        /// `PCODE`: postal code.
        public var code: String?
        /// `CTRY`: country.
        public var country: String?
        /// Type flags, lowercase, in order: home, work, postal, parcel, dom, intl, pref.
        public var types: [String]
        /// Other children, kept verbatim.
        public var extras: [XMLElement]

        /// Builds an address.
        public init(poBox: String? = nil, extended: String? = nil, street: String? = nil, locality: String? = nil,
                    region: String? = nil, code: String? = nil, country: String? = nil, types: [String] = [],
                    extras: [XMLElement] = []) {
            self.poBox = poBox
            self.extended = extended
            self.street = street
            self.locality = locality
            self.region = region
            self.code = code
            self.country = country
            self.types = types
            self.extras = extras
        }

        /// The seven parts in vCard `ADR` order: pobox, extended, street, locality, region, code, country.
        public var components: [String?] { [poBox, extended, street, locality, region, code, country] }

        /// The type flags XEP-0054 defines for `ADR`.
        public static let knownTypes = ["home", "work", "postal", "parcel", "dom", "intl", "pref"]
    }

    /// `PHOTO`: an embedded image (`TYPE` + `BINVAL`) or a link to one (`EXTVAL`).
    public struct Photo: Sendable, Equatable {
        /// `TYPE`: the MIME type, e.g. `image/png`.
        public var type: String?
        /// `BINVAL`: the image as Base64 text (whitespace allowed, as XEP-0054 permits).
        public var base64: String?
        /// `EXTVAL`: a URI of the image.
        public var externalURL: String?
        /// Other children, kept verbatim.
        public var extras: [XMLElement]

        /// Builds a photo.
        public init(type: String? = nil, base64: String? = nil, externalURL: String? = nil, extras: [XMLElement] = []) {
            self.type = type
            self.base64 = base64
            self.externalURL = externalURL
            self.extras = extras
        }

        /// The Base64 text without whitespace, as signed data compare.
        public var compactBase64: String? {
            base64.map { String($0.unicodeScalars.filter { !VCard.isXMLSpace($0) }) }
        }
    }

    static func isXMLSpace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\n" || s == "\r" || s == "\t"
    }
}
