// XMPPStanzas module.
