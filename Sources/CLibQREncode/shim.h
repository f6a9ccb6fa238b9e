#ifndef XMPP_TOOLS_CLIBQRENCODE_SHIM_H
#define XMPP_TOOLS_CLIBQRENCODE_SHIM_H
#include <qrencode.h>
#endif
