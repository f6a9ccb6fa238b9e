import XMPPTools
