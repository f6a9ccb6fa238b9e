/// Every XML namespace the project speaks, in one place (as xmpp-rs `ns.rs`, libstrophe `XMPP_NS_*`).
public enum Namespace {
    /// RFC 6120 client stream content.
    public static let client = "jabber:client"
    /// RFC 6120 stream wrapper.
    public static let streams = "http://etherx.jabber.org/streams"
    /// RFC 6120 stream errors.
    public static let streamErrors = "urn:ietf:params:xml:ns:xmpp-streams"
    /// RFC 6120 stanza errors.
    public static let stanzaErrors = "urn:ietf:params:xml:ns:xmpp-stanzas"
    /// RFC 6120 STARTTLS.
    public static let tls = "urn:ietf:params:xml:ns:xmpp-tls"
    /// RFC 6120 SASL.
    public static let sasl = "urn:ietf:params:xml:ns:xmpp-sasl"
    /// RFC 6120 resource binding.
    public static let bind = "urn:ietf:params:xml:ns:xmpp-bind"
    /// RFC 3921 session establishment (legacy, optional).
    public static let session = "urn:ietf:params:xml:ns:xmpp-session"
    /// RFC 6121 roster.
    public static let roster = "jabber:iq:roster"
    /// XEP-0237 roster versioning stream feature.
    public static let rosterVersioning = "urn:xmpp:features:rosterver"
    /// XEP-0172 user nickname (sent with subscription requests).
    public static let nick = "http://jabber.org/protocol/nick"
    /// XEP-0077 in-band registration (IQ payload).
    public static let register = "jabber:iq:register"
    /// XEP-0077 in-band registration stream feature.
    public static let registerFeature = "http://jabber.org/features/iq-register"
    /// XEP-0004 data forms.
    public static let dataForms = "jabber:x:data"
    /// XEP-0066 out-of-band data (registration redirects).
    public static let outOfBand = "jabber:x:oob"
    /// XEP-0158 CAPTCHA forms.
    public static let captcha = "urn:xmpp:captcha"
    /// XEP-0054 vcard-temp.
    public static let vcardTemp = "vcard-temp"
    /// XEP-0153 vCard-based avatar update in presence.
    public static let vcardUpdate = "vcard-temp:x:update"
    /// RFC 6351 xCard (vCard 4.0 in XML), the payload of XEP-0292.
    public static let vcard4 = "urn:ietf:params:xml:ns:vcard-4.0"
    /// XEP-0292 vCard4 PEP node.
    public static let vcard4Node = "urn:xmpp:vcard4"
    /// XEP-0060 publish-subscribe.
    public static let pubsub = "http://jabber.org/protocol/pubsub"
    /// XEP-0060 publish-subscribe owner use cases (node configuration).
    public static let pubsubOwner = "http://jabber.org/protocol/pubsub#owner"
    /// XEP-0060 §7.1.5 publish-options FORM_TYPE.
    public static let pubsubPublishOptions = "http://jabber.org/protocol/pubsub#publish-options"
    /// XEP-0060 §16.4 node configuration FORM_TYPE.
    public static let pubsubNodeConfig = "http://jabber.org/protocol/pubsub#node_config"
    /// XEP-0084 avatar data node.
    public static let avatarData = "urn:xmpp:avatar:data"
    /// XEP-0084 avatar metadata node.
    public static let avatarMetadata = "urn:xmpp:avatar:metadata"
    /// XEP-0199 ping.
    public static let ping = "urn:xmpp:ping"
    /// XEP-0092 Software Version.
    public static let softwareVersion = "jabber:iq:version"
    /// XEP-0030 service discovery, items.
    public static let discoItems = "http://jabber.org/protocol/disco#items"
    /// XEP-0050 ad-hoc commands (also the disco node listing a server's commands).
    public static let commands = "http://jabber.org/protocol/commands"
    /// XEP-0133 service administration (the FORM_TYPE and the prefix of its command nodes).
    public static let admin = "http://jabber.org/protocol/admin"
    /// XEP-0401 easy user onboarding: invite commands (`#invite`, `#create-account`).
    public static let invite = "urn:xmpp:invite"
    /// XEP-0379 / XEP-0445 pre-authenticated roster subscription and registration token.
    public static let preauth = "urn:xmpp:pars:0"
    /// XEP-0368 / XEP-0440 SASL channel-binding type capability.
    public static let saslChannelBinding = "urn:xmpp:sasl-cb:0"
    /// XEP-0388 Extensible SASL Profile (SASL2).
    public static let sasl2 = "urn:xmpp:sasl:2"
    /// XEP-0386 Bind 2.
    public static let bind2 = "urn:xmpp:bind:0"
    /// XEP-0484 Fast Authentication Streamlining Tokens.
    public static let fast = "urn:xmpp:fast:0"
}
