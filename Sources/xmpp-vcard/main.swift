import XMPPTools

VCardTool.main()
