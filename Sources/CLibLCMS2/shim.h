#ifndef XMPP_TOOLS_CLIBLCMS2_SHIM_H
#define XMPP_TOOLS_CLIBLCMS2_SHIM_H
// Little CMS 2: colour management of avatar inputs (ICC profiles, PNG gAMA/cHRM) to sRGB.
#include <lcms2.h>
#endif
