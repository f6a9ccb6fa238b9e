#ifndef XMPP_TOOLS_CLIBXML2_SHIM_H
#define XMPP_TOOLS_CLIBXML2_SHIM_H
// Keep ICU types out of Swift: they clash with Foundation's (ARCHITECTURE.md §11).
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
