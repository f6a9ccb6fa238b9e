import XMPPTools

RosterTool.main()
