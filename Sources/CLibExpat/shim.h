#ifndef XMPP_TOOLS_CLIBEXPAT_SHIM_H
#define XMPP_TOOLS_CLIBEXPAT_SHIM_H
#include <expat.h>
#endif
