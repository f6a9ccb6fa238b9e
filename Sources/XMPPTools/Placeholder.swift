// XMPPTools module.
