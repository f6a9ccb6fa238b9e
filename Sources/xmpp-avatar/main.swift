import XMPPTools

AvatarTool.main()
